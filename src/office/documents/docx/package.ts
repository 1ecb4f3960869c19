/**
 * The WordprocessingML package: its XML parts read with Word's namespaces (formatting the reader never
 * looks at is not built), part relationships, damaged optional parts left out with a warning, and
 * the attribute helpers every part reader uses.
 */
import { ParseError } from '../../../errors.js';
import { ZipPackage } from '../../../containers/zip.js';
import { readRels as readPackageRels, type Relationship } from '../../package/relationships.js';
import { OFFICE_NAMESPACES, parseXml, type XmlElement, type XmlOptions } from '../../package/xml.js';

export const KEEP_WS = new Set(['w:t', 'm:t', 'w:instrText', 'w:delText']);

/** Formatting and layout elements the reader never looks at: not built at all. */
export const IGNORE = new Set([
  'w:sz',
  'w:szCs',
  'w:lang',
  'w:color',
  'w:kern',
  'w:spacing',
  'w:ind',
  'w:jc',
  'w:pBdr',
  'w:shd',
  'w:tabs',
  'w:keepNext',
  'w:keepLines',
  'w:widowControl',
  'w:contextualSpacing',
  'w:proofErr',
  'w:bookmarkStart',
  'w:bookmarkEnd',
  'w:lastRenderedPageBreak',
  'w:noProof',
  'w:tcW',
  'w:tcBorders',
  'w:tblBorders',
  'w:tblW',
  'w:tblLook',
  'w:tblLayout',
  'w:tblCellMar',
  'w:tblInd',
  'w:tblGrid',
  'w:rtl',
  'w:cs',
  'w:highlight',
  'w:effect',
  'w:w',
  'w:position',
  'w:snapToGrid',
  'w:textAlignment',
  'w:autoSpaceDE',
  'w:autoSpaceDN',
  'w:adjustRightInd',
  'w:suppressAutoHyphens',
  'w:pageBreakBefore',
  'w:bidi',
  'w:mirrorIndents',
  'w:topLinePunct',
  'w:overflowPunct',
  'w:kinsoku',
  'w:wordWrap',
  'w:textDirection',
  'w:vAlign',
  'w:noWrap',
  'w:tcMar',
  'w:hideMark',
  'w:trHeight',
  'w:cantSplit',
  'w:bCs',
  'w:iCs',
  'w:caps',
  'w:smallCaps',
  'w:outline',
  'w:shadow',
  'w:emboss',
  'w:imprint',
  'w:fitText',
  'w:eastAsianLayout',
  'w:specVanish',
  'w:oMath',
  'w:suppressLineNumbers',
  'w:suppressOverlap',
  'w:framePr_',
  'w:permStart',
  'w:permEnd',
  'w:pgSz',
  'w:pgMar',
  'w:cols',
  'w:docGrid',
  'w:pgNumType',
  'w:titlePg_',
  'w:tblStyleRowBandSize',
  'w:tblStyleColBandSize',
  'wp:extent',
  'wp:effectExtent',
  'wp:simplePos',
  'wp:positionH',
  'wp:positionV',
  'wp:wrapSquare',
  'wp:wrapNone',
  'wp:wrapTight',
  'wp:wrapTopAndBottom',
  'wp:wrapThrough',
  'wp:cNvGraphicFramePr',
  'a:xfrm',
  'a:prstGeom',
  'a:custGeom',
  'a:ln',
  'a:solidFill',
  'a:noFill',
  'a:gradFill',
  'a:effectLst',
  'a:extLst',
  'pic:nvPicPr',
  'wps:spPr',
  'wps:bodyPr',
  'wps:style',
  'wps:cNvSpPr',
  'wps:cNvCnPr',
  'w14:paraId',
  'w14:textId',
  'w:rsid',
  'w:rsids',
]);

/** Word parts are read as far as they go (odd writers abound); a bad character reference shows as U+FFFD. */
const PART_XML: XmlOptions = {
  namespaces: OFFICE_NAMESPACES,
  keepWhitespaceIn: KEEP_WS,
  ignore: IGNORE,
  onBadTag: 'tolerate',
  invalidCharRefs: 'replace',
};

export function parse(text: string): XmlElement {
  return parseXml(text, PART_XML);
}

export type Rel = Relationship;

/** Damaged optional parts are skipped with a warning: the rest of the document is still read. */
export let partWarnings: string[] | null = null;

export function tolerantText(zip: ZipPackage, name: string): string | undefined {
  try {
    return zip.text(name);
  } catch (err) {
    if (err instanceof ParseError && err.code === 'MALFORMED' && partWarnings) {
      partWarnings.push(`The part ${name} is damaged and was left out (${err.message})`);
      return undefined;
    }
    throw err;
  }
}

/** Runs `read` with damaged optional parts reported into `warnings`. */
export function withPartWarnings<T>(warnings: string[], read: () => T): T {
  partWarnings = warnings;
  try {
    return read();
  } finally {
    partWarnings = null;
  }
}

/**
 * A part's relationships, read like every Word part (as far as it goes, with Word's namespaces; a
 * damaged part left out with a warning, entities refused); a relationship without a Target keeps an
 * empty one.
 */
export function readRels(zip: ZipPackage, part: string): Map<string, Rel> {
  return readPackageRels(part, {
    text: (name) => tolerantText(zip, name),
    xml: PART_XML,
    unreadable: 'throw',
    select: 'Relationships-children',
    attrNames: 'exact',
    missingTarget: 'empty',
    target: { percent: 'decode', normalizeRoot: false },
  });
}

export function relOfType(rels: Map<string, Rel>, suffix: string): Rel | undefined {
  for (const r of rels.values()) if (r.type.endsWith(`/${suffix}`)) return r;
  return undefined;
}

export function attr(el: XmlElement | undefined, name: string): string | undefined {
  return el?.attrs[name];
}

export function wval(el: XmlElement | undefined): string | undefined {
  return el?.attrs['w:val'];
}

/** OOXML on/off property: present and not false. */
export function onOff(el: XmlElement | undefined): boolean | undefined {
  if (!el) return undefined;
  const v = wval(el);
  return !(v === '0' || v === 'false' || v === 'off' || v === 'none');
}
