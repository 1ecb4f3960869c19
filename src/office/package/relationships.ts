/** Open Packaging Conventions: a part's relationships (`_rels/*.rels`), by id, with their targets resolved. */
import type { ZipPackage } from '../../containers/zip.js';
import { attr, elements, WELL_FORMED_PARTS, type XmlElement } from './local-names.js';
import { parseXmlRoot } from './xml.js';
import { decodeUriSafe, normalizePartPath, relsPathOf, resolvePart } from './part-path.js';

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

/**
 * A relationship target resolved against the part holding it, percent-decoded; a target from the
 * package root is normalized too.
 */
function resolveTarget(fromPart: string, target: string): string {
  return normalizePartPath(resolvePart(fromPart, decodeUriSafe(target)));
}

/** Reads a part's relationships; an absent or unreadable rels part yields none. */
export function readRels(zip: ZipPackage, part: string): Map<string, Relationship> {
  const map = new Map<string, Relationship>();
  const xml = zip.text(relsPathOf(part));
  if (!xml) return map;
  let root: XmlElement;
  try {
    root = parseXmlRoot(xml, { ...WELL_FORMED_PARTS, part: `relationships of ${part}` });
  } catch {
    return map;
  }
  for (const rel of elements(root)) {
    const id = attr(rel, 'Id');
    const target = attr(rel, 'Target');
    if (!id || target === undefined) continue;
    const external = attr(rel, 'TargetMode') === 'External';
    map.set(id, {
      id,
      type: attr(rel, 'Type') ?? '',
      target: external ? target : resolveTarget(part, target),
      external,
    });
  }
  return map;
}

/** The first relationship whose type ends with the given suffix (`/slideLayout`). */
export function relOfType(rels: Map<string, Relationship>, suffix: string): Relationship | undefined {
  for (const r of rels.values()) if (r.type.endsWith(suffix)) return r;
  return undefined;
}
