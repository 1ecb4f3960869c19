/**
 * Open Packaging Conventions: a part's relationships (`_rels/*.rels`), by id, with their targets
 * resolved. The one reader of relationship parts for Word, Excel and PowerPoint packages; where the
 * three were built on different choices, `RelsReading` names them.
 */
import type { ZipPackage } from '../../containers/zip.js';
import { attr, elements, WELL_FORMED_PARTS } from './local-names.js';
import { decodeUriSafe, normalizePartPath, relsPathOf, resolvePart } from './part-path.js';
import { child as childNamed, parseXml, type XmlElement, type XmlOptions } from './xml.js';

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

/** How a family reads its relationship parts. */
export interface RelsReading {
  /**
   * The text of a part, undefined when absent. Word leaves a damaged part out with a warning; the
   * fast workbook reader refuses a part that declares entities and reads it as UTF-8 without BOM.
   */
  text: (part: string) => string | undefined;
  /** How the XML is read (Word: as far as it goes, with its namespaces; PowerPoint: well-formed only). */
  xml: XmlOptions;
  /**
   * An unreadable relationships part: `none` reads as no relationships (the presentation is still
   * read, without what the part linked); `throw` lets the error through (a Word rels part declaring
   * entities refuses the document like any other Word part).
   */
  unreadable: 'none' | 'throw';
  /**
   * Which elements are relationships: `root-children` every child of the root element (PowerPoint);
   * `Relationships-children` the children of a root named Relationships (Word, with its namespaces);
   * `Relationship-elements` every element named Relationship, whatever its prefix and place (the fast
   * workbook reader, which scans the text for them).
   */
  select: 'root-children' | 'Relationships-children' | 'Relationship-elements';
  /** Attributes by `local` name whatever their prefix (PowerPoint), or by `exact` name (Word, Excel). */
  attrNames: 'local' | 'exact';
  /** A relationship without a Target: `skip`ped (PowerPoint, Excel) or read as an `empty` target (Word). */
  missingTarget: 'skip' | 'empty';
  /**
   * How an internal target becomes a part name. OPC targets are URIs: `decode` percent-decodes them
   * (Word, PowerPoint); the fast workbook reader takes them `as-written` (a target it cannot find makes
   * it fall back to SheetJS). `normalizeRoot` also normalizes a target given from the package root
   * (`/ppt/../x`), as PowerPoint does.
   */
  target: { percent: 'decode' | 'as-written'; normalizeRoot: boolean };
  /** A last decoding step of attribute values (Excel: OOXML's `_xHHHH_` escapes). */
  value?: (s: string) => string;
}

/** PowerPoint's reading: well-formed parts, names by local name, a damaged part reads as none. */
export function presentationRels(zip: ZipPackage): RelsReading {
  return {
    text: (p) => zip.text(p),
    xml: WELL_FORMED_PARTS,
    unreadable: 'none',
    select: 'root-children',
    attrNames: 'local',
    missingTarget: 'skip',
    target: { percent: 'decode', normalizeRoot: true },
  };
}

function selectRelationships(doc: XmlElement, select: RelsReading['select']): XmlElement[] {
  const root = elements(doc)[0];
  if (select === 'root-children') return elements(root);
  if (select === 'Relationships-children')
    return elements(childNamed(doc, 'Relationships') ?? childNamed(doc, 'rel:Relationships'));
  // Every element in document order, without recursion (the part's nesting is not bounded here).
  const out: XmlElement[] = [];
  const pending: XmlElement[] = elements(doc).reverse();
  for (let el = pending.pop(); el; el = pending.pop()) {
    if (el.local === 'Relationship' && /^(?:\w+:)?Relationship$/.test(el.name)) out.push(el);
    pending.push(...elements(el).reverse());
  }
  return out;
}

/** Reads a part's relationships; an absent rels part yields none. */
export function readRels(part: string, reading: RelsReading): Map<string, Relationship> {
  const map = new Map<string, Relationship>();
  const xml = reading.text(relsPathOf(part));
  if (!xml) return map;
  let doc: XmlElement;
  try {
    doc = parseXml(xml, { ...reading.xml, part: `relationships of ${part}` });
  } catch (err) {
    if (reading.unreadable === 'none') return map;
    throw err;
  }
  const raw = (el: XmlElement, name: string): string | undefined =>
    reading.attrNames === 'local' ? attr(el, name) : el.attrs[name];
  const get = (el: XmlElement, name: string): string | undefined => {
    const v = raw(el, name);
    return v === undefined || !reading.value ? v : reading.value(v);
  };
  for (const rel of selectRelationships(doc, reading.select)) {
    const id = get(rel, 'Id');
    let target = get(rel, 'Target');
    if (!id) continue;
    if (target === undefined) {
      if (reading.missingTarget === 'skip') continue;
      target = '';
    }
    const external = get(rel, 'TargetMode') === 'External';
    map.set(id, {
      id,
      type: get(rel, 'Type') ?? '',
      target: external ? target : resolveTarget(part, target, reading),
      external,
    });
  }
  return map;
}

/** A relationship target resolved against the part holding it. */
function resolveTarget(fromPart: string, target: string, reading: RelsReading): string {
  const resolved = resolvePart(fromPart, reading.target.percent === 'decode' ? decodeUriSafe(target) : target);
  return reading.target.normalizeRoot ? normalizePartPath(resolved) : resolved;
}

/** The first relationship whose type ends with the given suffix (`/slideLayout`). */
export function relOfType<R extends { type: string }>(rels: Map<string, R>, suffix: string): R | undefined {
  for (const r of rels.values()) if (r.type.endsWith(suffix)) return r;
  return undefined;
}
