/** Document properties (docProps/core.xml) as metadata. */
import { ZipPackage } from '../../../containers/zip.js';
import { child, textContent } from '../../package/xml.js';
import { parse, type Rel, tolerantText, relOfType } from './package.js';

export function coreMetadata(zip: ZipPackage, rels: Map<string, Rel>): Record<string, string> {
  const out: Record<string, string> = {};
  const rel = relOfType(rels, 'core-properties');
  const text = tolerantText(zip, rel?.target ?? 'docProps/core.xml');
  if (!text) return out;
  const root = child(parse(text), 'cp:coreProperties');
  const pick = (name: string, key: string): void => {
    const v = textContent(child(root, name)).trim();
    if (v) out[key] = v;
  };
  pick('dc:title', 'title');
  pick('dc:subject', 'subject');
  pick('dc:creator', 'author');
  pick('dc:description', 'description');
  pick('cp:keywords', 'keywords');
  pick('dc:language', 'language');
  pick('dcterms:created', 'created');
  pick('dcterms:modified', 'modified');
  return out;
}
