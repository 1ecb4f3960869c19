/**
 * The OpenDocument package (odt, ods, odp): its parts, the manifest's word on encryption, and reading
 * a part as each family does. The text reader (odt) reads its parts as far as they go with namespaces
 * resolved and leaves a damaged optional part out with a warning; the spreadsheet and presentation
 * readers read well-formed parts by local name.
 */
import { ParseError } from '../../errors.js';
import type { ZipPackage } from '../../containers/zip.js';
import { child, WELL_FORMED_PARTS } from '../package/local-names.js';
import { parseXmlRoot, type XmlElement } from '../package/xml.js';

export const ODF_PARTS = {
  content: 'content.xml',
  styles: 'styles.xml',
  meta: 'meta.xml',
  manifest: 'META-INF/manifest.xml',
} as const;

/** Whether the manifest says the parts are encrypted (password protected); an unreadable manifest says not. */
export function isEncrypted(zip: ZipPackage): boolean {
  let manifest: string | undefined;
  try {
    manifest = zip.text(ODF_PARTS.manifest);
  } catch {
    manifest = undefined;
  }
  return manifest !== undefined && /manifest:encryption-data/.test(manifest);
}

/**
 * The text of an optional part (styles, metadata); a damaged one (MALFORMED) is left out with a
 * warning, so that the text is still read.
 */
export function optionalPartText(zip: ZipPackage, name: string, warnings: string[]): string | undefined {
  try {
    return zip.text(name);
  } catch (err) {
    if (err instanceof ParseError && err.code === 'MALFORMED') {
      warnings.push(`The part ${name} is damaged and was left out (${err.message})`);
      return undefined;
    }
    throw err;
  }
}

/** A part read as a well-formed part (ods, odp): its root element, undefined when the part is absent. */
export function wellFormedPart(zip: ZipPackage, name: string, label = `part ${name}`): XmlElement | undefined {
  const text = zip.text(name);
  return text === undefined ? undefined : parseXmlRoot(text, { ...WELL_FORMED_PARTS, part: label });
}

/** The body of a content part (`office:body > office:spreadsheet`, ...) in a tree read by local name. */
export function bodyOf(content: XmlElement | undefined, kind: 'spreadsheet' | 'presentation'): XmlElement | undefined {
  return child(child(content, 'body'), kind);
}
