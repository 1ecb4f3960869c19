/** Open Packaging Conventions helpers: relationship parts and part-name resolution. */
import type { ZipPackage } from '../../containers/zip.js';
import { attr, elements, parseXml, type XmlElement } from './xml.js';

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

export function dirOf(part: string): string {
  const i = part.lastIndexOf('/');
  return i < 0 ? '' : part.slice(0, i + 1);
}

/** Resolves a relationship target against the directory of the part that holds it. */
export function resolvePart(fromPart: string, target: string): string {
  let t = target;
  try {
    t = decodeURIComponent(target);
  } catch {
    // keep the raw target
  }
  const segments = (t.startsWith('/') ? t.slice(1) : dirOf(fromPart) + t).split('/');
  const out: string[] = [];
  for (const s of segments) {
    if (s === '..') out.pop();
    else if (s !== '.' && s !== '') out.push(s);
  }
  return out.join('/');
}

export function relsPathOf(part: string): string {
  return `${dirOf(part)}_rels/${part.slice(dirOf(part).length)}.rels`;
}

/** Reads a part's relationships; an absent or unreadable rels part yields none. */
export function readRels(zip: ZipPackage, part: string): Map<string, Relationship> {
  const map = new Map<string, Relationship>();
  const xml = zip.text(relsPathOf(part));
  if (!xml) return map;
  let root: XmlElement;
  try {
    root = parseXml(xml, `relationships of ${part}`);
  } catch {
    return map;
  }
  for (const rel of elements(root)) {
    const id = attr(rel, 'Id');
    const target = attr(rel, 'Target');
    if (!id || target === undefined) continue;
    const external = attr(rel, 'TargetMode') === 'External';
    map.set(id, { id, type: attr(rel, 'Type') ?? '', target: external ? target : resolvePart(part, target), external });
  }
  return map;
}

/** The first relationship whose type ends with the given suffix (`/slideLayout`). */
export function relOfType(rels: Map<string, Relationship>, suffix: string): Relationship | undefined {
  for (const r of rels.values()) if (r.type.endsWith(suffix)) return r;
  return undefined;
}
