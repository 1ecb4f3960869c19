/**
 * Word (.docx, .docm, Transitional and Strict OOXML) → document model, read directly from the
 * WordprocessingML parts.
 *
 * Placement of what is not body text:
 * - headers come first, footers after the body (each distinct header/footer part once, in section order);
 * - footnotes and endnotes are GFM notes: `[^n]` where they are referenced, their text at the end;
 * - comments are notes too (`[^comment-n]` where the commented range ends), after the foot/endnotes,
 *   each starting with its author in bold;
 * - text boxes and shapes with text come right after the paragraph that anchors them;
 * - equations are LaTeX (`$...$` inline, `$$...$$` for display equations).
 */
import { ParseError } from '../../errors.js';
import type { DocBlock, DocModel, Inline, Node, TableCell, TextInline } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
import type { BlockType } from '../../types.js';
import { ZipPackage } from '../../containers/zip.js';
import { decodeUriSafe, relsPathOf, resolvePart } from '../package/part-path.js';
import {
  child,
  children,
  decodeXml,
  find,
  OFFICE_NAMESPACES,
  parseXml,
  textContent,
  type XmlElement,
} from '../package/xml.js';
import {
  BlockSink,
  blocksToCellInlines,
  boundTable,
  cell,
  CODE_STYLE,
  compactSpans,
  dropPageNumbers,
  headingLevelOfStyleName,
  imageSrc,
  isBlank,
  mimeOf,
  QUOTE_STYLE,
  trimInlines,
  withAuthor,
} from './common.js';
import { ommlToLatex } from './omml.js';
import { symbolChar, symbolFontOf, symbolRunText, type SymbolFont } from './symbol-fonts.js';

const KEEP_WS = new Set(['w:t', 'm:t', 'w:instrText', 'w:delText']);

/** Formatting and layout elements the reader never looks at: not built at all. */
const IGNORE = new Set([
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

function parse(text: string): XmlElement {
  return parseXml(text, { namespaces: OFFICE_NAMESPACES, keepWhitespaceIn: KEEP_WS, ignore: IGNORE });
}

interface Rel {
  type: string;
  target: string;
  external: boolean;
}

/** Damaged optional parts are skipped with a warning: the rest of the document is still read. */
let partWarnings: string[] | null = null;

function tolerantText(zip: ZipPackage, name: string): string | undefined {
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

function readRels(zip: ZipPackage, part: string): Map<string, Rel> {
  const relsName = relsPathOf(part);
  const map = new Map<string, Rel>();
  const text = tolerantText(zip, relsName);
  if (!text) return map;
  const root = parse(text);
  for (const r of children(child(root, 'Relationships') ?? child(root, 'rel:Relationships'))) {
    const id = r.attrs['Id'];
    const target = r.attrs['Target'] ?? '';
    if (!id) continue;
    const external = r.attrs['TargetMode'] === 'External';
    map.set(id, {
      type: r.attrs['Type'] ?? '',
      target: external ? target : resolvePart(part, decodeUriSafe(target)),
      external,
    });
  }
  return map;
}

function relOfType(rels: Map<string, Rel>, suffix: string): Rel | undefined {
  for (const r of rels.values()) if (r.type.endsWith(`/${suffix}`)) return r;
  return undefined;
}

function attr(el: XmlElement | undefined, name: string): string | undefined {
  return el?.attrs[name];
}

function wval(el: XmlElement | undefined): string | undefined {
  return el?.attrs['w:val'];
}

/** OOXML on/off property: present and not false. */
function onOff(el: XmlElement | undefined): boolean | undefined {
  if (!el) return undefined;
  const v = wval(el);
  return !(v === '0' || v === 'false' || v === 'off' || v === 'none');
}

// ---------------------------------------------------------------- styles and numbering

interface RunProps {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  underline?: boolean;
  vertAlign?: string;
  hidden?: boolean;
  /** Symbol fonts (Symbol, Wingdings) the run's ASCII and other text is set in, from w:rFonts. */
  symAscii?: SymbolFont | undefined;
  symOther?: SymbolFont | undefined;
}

interface StyleDef {
  id: string;
  name: string;
  type: string;
  basedOn?: string;
  outlineLvl?: number;
  numId?: string;
  ilvl?: number;
  run: RunProps;
}

function runPropsOf(rPr: XmlElement | undefined): RunProps {
  const p: RunProps = {};
  if (!rPr) return p;
  // One pass over the properties (this runs for every run of the document).
  for (const c of rPr.children) {
    if (typeof c === 'string') continue;
    switch (c.name) {
      case 'w:b':
        p.bold = onOff(c)!;
        break;
      case 'w:i':
        p.italic = onOff(c)!;
        break;
      case 'w:strike':
      case 'w:dstrike':
        p.strike = !!p.strike || onOff(c)!;
        break;
      case 'w:u':
        p.underline = wval(c) !== 'none';
        break;
      case 'w:vertAlign': {
        const va = wval(c);
        if (va) p.vertAlign = va;
        break;
      }
      case 'w:vanish':
        p.hidden = onOff(c)!;
        break;
      case 'w:webHidden':
        if (p.hidden === undefined) p.hidden = onOff(c)!;
        break;
      case 'w:rFonts': {
        // Set even when not a symbol font: a run's own font replaces its style's.
        const ascii = c.attrs['w:ascii'];
        const other = c.attrs['w:hAnsi'];
        if (ascii !== undefined) p.symAscii = symbolFontOf(ascii);
        if (other !== undefined) p.symOther = symbolFontOf(other);
        break;
      }
      default:
        break;
    }
  }
  return p;
}

class Styles {
  private readonly byId = new Map<string, StyleDef>();
  defaultParagraph: string | undefined;

  constructor(root: XmlElement | undefined) {
    for (const s of children(child(root, 'w:styles'), 'w:style')) {
      const id = attr(s, 'w:styleId') ?? '';
      const pPr = child(s, 'w:pPr');
      const numPr = child(pPr, 'w:numPr');
      const def: StyleDef = {
        id,
        name: (wval(child(s, 'w:name')) ?? id).toLowerCase(),
        type: attr(s, 'w:type') ?? 'paragraph',
        run: runPropsOf(child(s, 'w:rPr')),
      };
      const based = wval(child(s, 'w:basedOn'));
      if (based) def.basedOn = based;
      const ol = wval(child(pPr, 'w:outlineLvl'));
      if (ol !== undefined) def.outlineLvl = Number(ol);
      const numId = wval(child(numPr, 'w:numId'));
      if (numId !== undefined) def.numId = numId;
      const ilvl = wval(child(numPr, 'w:ilvl'));
      if (ilvl !== undefined) def.ilvl = Number(ilvl);
      this.byId.set(id, def);
      if (
        def.type === 'paragraph' &&
        onOff(s.attrs['w:default'] !== undefined ? s : undefined) &&
        (s.attrs['w:default'] === '1' || s.attrs['w:default'] === 'true')
      ) {
        this.defaultParagraph = id;
      }
    }
  }

  get(id: string | undefined): StyleDef | undefined {
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Walks the basedOn chain (cycle-safe). */
  chain(id: string | undefined): StyleDef[] {
    const out: StyleDef[] = [];
    const seen = new Set<string>();
    let cur = this.get(id);
    while (cur && !seen.has(cur.id) && out.length < 20) {
      seen.add(cur.id);
      out.push(cur);
      cur = this.get(cur.basedOn);
    }
    return out;
  }

  private readonly headingCache = new Map<string | undefined, number | undefined>();

  /** Heading level from the style's name or its outline level. */
  headingLevel(id: string | undefined): number | undefined {
    if (this.headingCache.has(id)) return this.headingCache.get(id);
    const level = this.findHeadingLevel(id);
    this.headingCache.set(id, level);
    return level;
  }

  private findHeadingLevel(id: string | undefined): number | undefined {
    // A style referenced but not defined (no styles part): its id may still say what it is.
    if (id !== undefined && !this.byId.has(id)) {
      const m = /^heading\s*(\d)$/i.exec(id);
      return m ? Number(m[1]) : /^title$/i.test(id) ? 1 : undefined;
    }
    for (const s of this.chain(id)) {
      const level = headingLevelOfStyleName(s.name);
      if (level !== undefined) return level;
      if (s.outlineLvl !== undefined && s.outlineLvl < 9) return s.outlineLvl + 1;
    }
    return undefined;
  }

  private readonly numCache = new Map<string | undefined, { numId: string; ilvl?: number } | undefined>();

  numPr(id: string | undefined): { numId: string; ilvl?: number } | undefined {
    if (this.numCache.has(id)) return this.numCache.get(id);
    const found = this.findNumPr(id);
    this.numCache.set(id, found);
    return found;
  }

  private findNumPr(id: string | undefined): { numId: string; ilvl?: number } | undefined {
    for (const s of this.chain(id))
      if (s.numId !== undefined) return s.ilvl === undefined ? { numId: s.numId } : { numId: s.numId, ilvl: s.ilvl };
    return undefined;
  }

  private readonly runCache = new Map<string | undefined, RunProps>();

  runProps(id: string | undefined): RunProps {
    let p = this.runCache.get(id);
    if (!p) {
      const chain = this.chain(id).reverse();
      p = Object.assign({}, ...chain.map((s) => s.run)) as RunProps;
      this.runCache.set(id, p);
    }
    return p;
  }

  name(id: string | undefined): string {
    return this.get(id)?.name ?? '';
  }
}

interface Level {
  format: string;
  start: number;
  text: string;
}

class Numbering {
  private readonly abstracts = new Map<string, Map<number, Level>>();
  private readonly nums = new Map<string, { abstractId: string; overrides: Map<number, Partial<Level>> }>();
  private readonly counters = new Map<string, number[]>();
  /** (numId, level) pairs whose startOverride has restarted their sequence. */
  private readonly restarted = new Set<string>();
  private readonly styleLinks = new Map<string, string>();

  constructor(
    root: XmlElement | undefined,
    private readonly styles: Styles,
  ) {
    const numbering = child(root, 'w:numbering');
    for (const a of children(numbering, 'w:abstractNum')) {
      const levels = new Map<number, Level>();
      for (const l of children(a, 'w:lvl')) {
        levels.set(Number(attr(l, 'w:ilvl') ?? 0), {
          format: wval(child(l, 'w:numFmt')) ?? 'decimal',
          start: Number(wval(child(l, 'w:start')) ?? 1),
          text: wval(child(l, 'w:lvlText')) ?? '',
        });
      }
      const id = attr(a, 'w:abstractNumId') ?? '';
      this.abstracts.set(id, levels);
      const link = wval(child(a, 'w:numStyleLink'));
      if (link) this.styleLinks.set(id, link);
    }
    for (const n of children(numbering, 'w:num')) {
      const overrides = new Map<number, Partial<Level>>();
      for (const o of children(n, 'w:lvlOverride')) {
        const ov: Partial<Level> = {};
        const so = wval(child(o, 'w:startOverride'));
        if (so !== undefined) ov.start = Number(so);
        const lvl = child(o, 'w:lvl');
        if (lvl) {
          const f = wval(child(lvl, 'w:numFmt'));
          if (f) ov.format = f;
          const st = wval(child(lvl, 'w:start'));
          if (st !== undefined && ov.start === undefined) ov.start = Number(st);
        }
        overrides.set(Number(attr(o, 'w:ilvl') ?? 0), ov);
      }
      this.nums.set(attr(n, 'w:numId') ?? '', { abstractId: wval(child(n, 'w:abstractNumId')) ?? '', overrides });
    }
  }

  level(numId: string, ilvl: number, depth = 0): Level | undefined {
    const num = this.nums.get(numId);
    if (!num) return undefined;
    let levels = this.abstracts.get(num.abstractId);
    const link = this.styleLinks.get(num.abstractId);
    if (link && depth < 3 && (!levels || levels.size === 0)) {
      const linked = this.styles.numPr(link);
      if (linked && linked.numId !== numId) return this.level(linked.numId, ilvl, depth + 1);
    }
    const base = levels?.get(ilvl);
    const ov = num.overrides.get(ilvl);
    if (!base && !ov) return undefined;
    return {
      format: ov?.format ?? base?.format ?? 'decimal',
      start: ov?.start ?? base?.start ?? 1,
      text: base?.text ?? '',
    };
  }

  /**
   * Advances the counter of (numId, ilvl) and returns the item's number. As in Word, the count runs
   * on the abstract definition: every num of one abstractNum continues one sequence, and a num
   * whose level has a startOverride restarts that sequence where it first numbers that level.
   */
  next(numId: string, ilvl: number, lvl: Level): number {
    const num = this.nums.get(numId);
    const key = `a${num?.abstractId ?? numId}`;
    let c = this.counters.get(key);
    if (!c) this.counters.set(key, (c = []));
    for (let i = ilvl + 1; i < c.length; i++) c[i] = 0;
    const restart = num?.overrides.get(ilvl)?.start;
    const first = `${numId}:${ilvl}`;
    if (restart !== undefined && !this.restarted.has(first)) {
      this.restarted.add(first);
      c[ilvl] = restart;
    } else c[ilvl] = c[ilvl] ? c[ilvl]! + 1 : lvl.start;
    return c[ilvl]!;
  }
}

// ---------------------------------------------------------------- conversion

interface Field {
  instr: string;
  result: boolean;
  href?: string;
  /** Page numbers and counts mean nothing without pages: their text is left out. */
  hidden?: boolean;
}

const PAGE_FIELD = /^\s*(PAGE|NUMPAGES|SECTIONPAGES|PAGEREF)\b/i;

interface InlineResult {
  inlines: Inline[];
  /** Blocks anchored in the paragraph (text boxes), emitted after it. */
  floats: Node[];
  /** Display equations (oMathPara). */
  display: string[];
}

interface PartCtx {
  part: string;
  rels: Map<string, Rel>;
}

class DocxConverter {
  private fields: Field[] = [];
  private dropCap: Inline[] = [];
  private readonly noteLabels = new Map<string, string>();
  private readonly noteOrder: { key: string; label: string; kind: 'footnote' | 'endnote' | 'comment'; id: string }[] =
    [];
  private noteCounter = 0;
  private commentCounter = 0;
  private readonly notes = new Map<string, XmlElement>();
  private readonly comments = new Map<string, XmlElement>();
  private notesCtx: Record<'footnote' | 'endnote' | 'comment', PartCtx | undefined> = {
    footnote: undefined,
    endnote: undefined,
    comment: undefined,
  };
  private steps = 0;
  readonly links: string[] = [];
  readonly images: string[] = [];
  readonly warnings: string[] = [];

  constructor(
    private readonly zip: ZipPackage,
    private readonly styles: Styles,
    private readonly numbering: Numbering,
    private readonly removeBase64: boolean,
    private readonly deadline: number,
  ) {}

  loadNotes(kind: 'footnote' | 'endnote' | 'comment', rel: Rel | undefined): void {
    if (!rel || rel.external) return;
    const text = tolerantText(this.zip, rel.target);
    if (!text) return;
    const root = parse(text);
    const container = child(
      root,
      kind === 'footnote' ? 'w:footnotes' : kind === 'endnote' ? 'w:endnotes' : 'w:comments',
    );
    for (const n of children(container, `w:${kind}`)) {
      const id = attr(n, 'w:id');
      if (id === undefined) continue;
      (kind === 'comment' ? this.comments : this.notes).set(`${kind}:${id}`, n);
    }
    this.notesCtx[kind] = { part: rel.target, rels: readRels(this.zip, rel.target) };
  }

  private tick(): void {
    if ((++this.steps & 1023) === 0 && Date.now() > this.deadline) {
      throw new ParseError('TIMEOUT', 'The document could not be converted within the time limit.');
    }
  }

  // ------------------------------------------------------------ blocks

  blocks(container: XmlElement | undefined, sink: BlockSink, ctx: PartCtx, type?: BlockType): void {
    if (!container) return;
    for (const el of children(container)) {
      this.tick();
      switch (el.name) {
        case 'w:p':
          this.paragraph(el, sink, ctx, type);
          break;
        case 'w:tbl':
          this.table(el, sink, ctx, type);
          break;
        case 'w:sdt':
          this.blocks(child(el, 'w:sdtContent'), sink, ctx, type);
          break;
        case 'w:customXml':
        case 'w:smartTag':
        case 'w:ins':
        case 'w:moveTo':
          this.blocks(el, sink, ctx, type);
          break;
        case 'mc:AlternateContent':
          this.blocks(child(el, 'mc:Choice') ?? child(el, 'mc:Fallback'), sink, ctx, type);
          break;
        default:
          break;
      }
    }
  }

  private paragraph(p: XmlElement, sink: BlockSink, ctx: PartCtx, type?: BlockType): void {
    const pPr = child(p, 'w:pPr');
    const styleId = wval(child(pPr, 'w:pStyle')) ?? this.styles.defaultParagraph;
    const styleName = this.styles.name(styleId);
    const result: InlineResult = { inlines: [], floats: [], display: [] };
    this.inlines(p, result, ctx, this.styles.runProps(undefined));
    const extra = type ? { type } : undefined;
    // Contents entries written as plain text end with a tab and the page number: layout, dropped.
    const isContents = /^(toc|contents)\s*\d/.test(styleName);
    let content = trimInlines(mergeSpaces(isContents ? dropPageNumbers(tabsMarked(result.inlines)) : result.inlines));
    // A drop cap is its own framed paragraph in Word: it belongs to the start of the next one.
    if (attr(child(pPr, 'w:framePr'), 'w:dropCap') && attr(child(pPr, 'w:framePr'), 'w:dropCap') !== 'none') {
      this.dropCap.push(...content);
      return;
    }
    if (this.dropCap.length && !isBlank(content)) {
      content = [...this.dropCap, ...content];
      this.dropCap = [];
    }

    let heading: number | undefined;
    const outline = wval(child(pPr, 'w:outlineLvl'));
    if (outline !== undefined && Number(outline) < 9) heading = Number(outline) + 1;
    else heading = this.styles.headingLevel(styleId);

    const numPr = child(pPr, 'w:numPr');
    let numId = wval(child(numPr, 'w:numId'));
    let ilvl = wval(child(numPr, 'w:ilvl')) !== undefined ? Number(wval(child(numPr, 'w:ilvl'))) : undefined;
    if (numId === undefined) {
      const fromStyle = this.styles.numPr(styleId);
      if (fromStyle) {
        numId = fromStyle.numId;
        ilvl ??= fromStyle.ilvl;
      }
    }

    if (!isBlank(content)) {
      if (heading !== undefined && type === undefined) {
        const level = Math.min(6, Math.max(1, heading)) as 1 | 2 | 3 | 4 | 5 | 6;
        sink.add(
          {
            kind: 'heading',
            level,
            content: content.map((i) => (i.type === 'text' && i.bold ? { ...i, bold: false } : i)),
          },
          extra,
        );
      } else if (numId !== undefined && numId !== '0' && type === undefined) {
        const level = Math.min(8, Math.max(0, ilvl ?? 0));
        const lvl = this.numbering.level(numId, level);
        if (lvl && lvl.format !== 'none' && (lvl.text !== '' || lvl.format === 'bullet')) {
          const n = this.numbering.next(numId, level, lvl);
          const ordered = lvl.format !== 'bullet';
          sink.addListItem(level, ordered, ordered ? n : undefined, content);
        } else {
          sink.add({ kind: 'paragraph', content }, extra);
        }
      } else if (CODE_STYLE.test(styleName)) {
        sink.addCodeLine(content, extra);
      } else if (QUOTE_STYLE.test(styleName)) {
        sink.addQuoteParagraph(content, extra);
      } else {
        sink.add({ kind: 'paragraph', content }, extra);
      }
    }
    for (const latex of result.display) sink.add({ kind: 'formula', latex }, extra);
    for (const node of result.floats) {
      sink.add(node, extra);
    }
  }

  private table(tbl: XmlElement, sink: BlockSink, ctx: PartCtx, type?: BlockType): void {
    const rows: TableCell[][] = [];
    // For each grid column, the cell a vertical merge continues.
    const vOrigin: (TableCell | undefined)[] = [];
    const allNodes: Node[][] = [];
    for (const tr of rowsOf(tbl)) {
      const row: TableCell[] = [];
      let col = 0;
      const trPr = child(tr, 'w:trPr');
      const before = Math.min(1000, Number(wval(child(trPr, 'w:gridBefore')) ?? 0) || 0);
      for (let i = 0; i < before; i++) {
        row.push(cell([]));
        col++;
      }
      for (const tc of cellsOf(tr)) {
        const tcPr = child(tc, 'w:tcPr');
        // Spans past a thousand columns are damage: capped so that loops over them stay short.
        const span = Math.min(1000, Math.max(1, Number(wval(child(tcPr, 'w:gridSpan')) ?? 1) || 1));
        const vm = child(tcPr, 'w:vMerge');
        const hm = child(tcPr, 'w:hMerge');
        if (vm && wval(vm) !== 'restart') {
          const origin = vOrigin[col];
          if (origin) {
            origin.rowSpan = (origin.rowSpan ?? 1) + 1;
            col += span;
            continue;
          }
        }
        if (hm && wval(hm) !== 'restart' && row.length) {
          const prev = row[row.length - 1]!;
          prev.colSpan = (prev.colSpan ?? 1) + span;
          col += span;
          continue;
        }
        const inner = new BlockSink();
        this.blocks(tc, inner, ctx, type);
        const nodes = inner.nodes();
        allNodes.push(nodes);
        const c = cell(blocksToCellInlines(nodes), span);
        row.push(c);
        for (let k = 0; k < span; k++) vOrigin[col + k] = vm ? c : undefined;
        col += span;
      }
      rows.push(row);
    }
    if (rows.length === 0) return;
    const extra = type ? { type } : undefined;
    // A one-cell table is a frame around content (layout), not data: keep its blocks as they are.
    if (rows.length === 1 && rows[0]!.length === 1) {
      for (const n of allNodes[0] ?? []) sink.add(n, extra);
      return;
    }
    if (rows.every((r) => r.every((c) => isBlank(c.content)))) return;
    compactSpans(rows);
    sink.add({ kind: 'table', rows: boundTable(rows) }, extra);
  }

  // ------------------------------------------------------------ inlines

  private inlines(el: XmlElement, out: InlineResult, ctx: PartCtx, base: RunProps, href?: string): void {
    for (const c of children(el)) {
      switch (c.name) {
        case 'w:r':
          this.run(c, out, ctx, base, href);
          break;
        case 'w:hyperlink': {
          const rid = attr(c, 'r:id');
          let target = href;
          if (rid) {
            const rel = ctx.rels.get(rid);
            if (rel) target = rel.target + (attr(c, 'w:anchor') ? `#${attr(c, 'w:anchor')}` : '');
          }
          if (target && !this.links.includes(target)) this.links.push(target);
          this.inlines(c, out, ctx, base, target);
          break;
        }
        case 'w:fldSimple': {
          if (PAGE_FIELD.test(attr(c, 'w:instr') ?? '')) break;
          const link = hyperlinkOf(attr(c, 'w:instr') ?? '');
          this.inlines(c, out, ctx, base, link ?? href);
          break;
        }
        case 'w:ins':
        case 'w:moveTo':
        case 'w:smartTag':
        case 'w:customXml':
        case 'w:dir':
        case 'w:bdo':
          this.inlines(c, out, ctx, base, href);
          break;
        case 'w:sdt':
          this.inlines(child(c, 'w:sdtContent') ?? c, out, ctx, base, href);
          break;
        case 'm:oMathPara':
          for (const m of children(c, 'm:oMath')) {
            const latex = ommlToLatex(m);
            if (latex) out.display.push(latex);
          }
          break;
        case 'm:oMath': {
          const latex = ommlToLatex(c);
          if (latex) out.inlines.push({ type: 'math', latex });
          break;
        }
        case 'mc:AlternateContent':
          this.inlines(child(c, 'mc:Choice') ?? child(c, 'mc:Fallback') ?? c, out, ctx, base, href);
          break;
        default:
          break;
      }
    }
  }

  private fieldHref(): string | undefined {
    for (let i = this.fields.length - 1; i >= 0; i--) if (this.fields[i]!.href) return this.fields[i]!.href;
    return undefined;
  }

  private inInstruction(): boolean {
    return this.fields.some((f) => !f.result || f.hidden);
  }

  private run(r: XmlElement, out: InlineResult, ctx: PartCtx, base: RunProps, href?: string): void {
    const rPr = child(r, 'w:rPr');
    const props: RunProps = { ...base, ...this.styles.runProps(wval(child(rPr, 'w:rStyle'))), ...runPropsOf(rPr) };
    if (props.hidden) return;
    const marks: Omit<TextInline, 'type' | 'text'> = {};
    if (props.bold) marks.bold = true;
    if (props.italic) marks.italic = true;
    if (props.strike) marks.strike = true;
    if (props.vertAlign === 'superscript') marks.superscript = true;
    if (props.vertAlign === 'subscript') marks.subscript = true;
    const text = (t: string): void => {
      if (this.inInstruction()) return;
      const link = href ?? this.fieldHref();
      out.inlines.push(link ? { type: 'text', text: t, ...marks, href: link } : { type: 'text', text: t, ...marks });
    };
    for (const c of children(r)) {
      switch (c.name) {
        case 'w:t': {
          // A soft hyphen typed as the character, not as w:softHyphen: invisible inside a line too.
          let t = textContent(c);
          if (t.includes('\u00ad')) t = t.replace(/\u00ad/g, '');
          text(props.symAscii || props.symOther ? symbolRunText(t, props.symAscii, props.symOther) : t);
          break;
        }
        case 'w:tab':
        case 'w:ptab':
          text('\t');
          break;
        case 'w:br':
        case 'w:cr':
          // Page and column breaks too: the text after one starts a new line (on the next page or
          // column) but stays in the same paragraph, with its style and numbering, so it is a line
          // break here. At a paragraph's start or end it is trimmed away.
          if (!this.inInstruction()) out.inlines.push({ type: 'break' });
          break;
        case 'w:noBreakHyphen':
          text('-');
          break;
        case 'w:sym': {
          const code = parseInt(attr(c, 'w:char') ?? '', 16);
          if (!Number.isFinite(code) || code < 0 || code > 0x10ffff) break;
          const font = attr(c, 'w:font');
          // A code of a symbol font's own 8-bit encoding, written as is or in the U+F0xx private-use
          // range (what Word writes); a private-use code without a font is taken as Symbol's.
          const pua = code >= 0xf020 && code <= 0xf0ff;
          const table =
            font === undefined
              ? pua
                ? 'symbol'
                : undefined
              : pua || (code >= 0x20 && code <= 0xff)
                ? symbolFontOf(font)
                : undefined;
          if (table) text(symbolChar(table, code));
          else if (!(code >= 0xe000 && code <= 0xf8ff)) text(String.fromCodePoint(code));
          break;
        }
        case 'w:fldChar': {
          const t = attr(c, 'w:fldCharType');
          if (t === 'begin') this.fields.push({ instr: '', result: false });
          else if (t === 'separate') {
            const f = this.fields[this.fields.length - 1];
            if (f) {
              f.result = true;
              if (PAGE_FIELD.test(f.instr)) f.hidden = true;
              const link = hyperlinkOf(f.instr);
              if (link) {
                f.href = link;
                if (!this.links.includes(link)) this.links.push(link);
              }
            }
          } else if (t === 'end') this.fields.pop();
          break;
        }
        case 'w:instrText': {
          const f = this.fields[this.fields.length - 1];
          if (f && !f.result) f.instr += textContent(c);
          break;
        }
        case 'w:drawing':
          this.drawing(c, out, ctx);
          break;
        case 'w:pict':
        case 'w:object':
          this.vml(c, out, ctx);
          break;
        case 'mc:AlternateContent': {
          const choice = child(c, 'mc:Choice');
          const fallback = child(c, 'mc:Fallback');
          const pick = choice && find(choice, 'w:drawing') ? choice : (fallback ?? choice);
          if (pick) this.run(pick, out, ctx, base, href);
          break;
        }
        case 'w:footnoteReference':
        case 'w:endnoteReference': {
          const kind = c.name === 'w:footnoteReference' ? 'footnote' : 'endnote';
          const label = this.noteRef(kind, attr(c, 'w:id') ?? '');
          if (label) out.inlines.push({ type: 'noteRef', label });
          break;
        }
        case 'w:commentReference': {
          const label = this.noteRef('comment', attr(c, 'w:id') ?? '');
          if (label) out.inlines.push({ type: 'noteRef', label });
          break;
        }
        default:
          break;
      }
    }
  }

  private noteRef(kind: 'footnote' | 'endnote' | 'comment', id: string): string | undefined {
    const key = `${kind}:${id}`;
    const known = this.noteLabels.get(key);
    if (known) return known;
    if (!(kind === 'comment' ? this.comments : this.notes).has(key)) return undefined;
    const label = kind === 'comment' ? `comment-${++this.commentCounter}` : String(++this.noteCounter);
    this.noteLabels.set(key, label);
    this.noteOrder.push({ key, label, kind, id });
    return label;
  }

  /** Note bodies, in the order of their first reference: foot/endnotes first, then comments. */
  noteBlocks(): DocBlock[] {
    const out: DocBlock[] = [];
    const done = new Set<string>();
    // Notes may reference further notes: loop until no new ones appear.
    for (const pass of ['notes', 'comments'] as const) {
      for (let i = 0; i < this.noteOrder.length; i++) {
        const n = this.noteOrder[i]!;
        if (done.has(n.key) || (pass === 'notes') === (n.kind === 'comment')) continue;
        done.add(n.key);
        const el = (n.kind === 'comment' ? this.comments : this.notes).get(n.key)!;
        const ctx = this.notesCtx[n.kind]!;
        const sink = new BlockSink();
        this.fields = [];
        this.blocks(el, sink, ctx);
        const nodes = sink.nodes();
        if (n.kind === 'comment') withAuthor(nodes, attr(el, 'w:author') ?? '');
        if (nodes.length === 0) nodes.push({ kind: 'paragraph', content: [] });
        out.push({ node: { kind: 'note', label: n.label, children: nodes } });
      }
    }
    return out;
  }

  // ------------------------------------------------------------ drawings

  private image(rid: string | undefined, link: string | undefined, alt: string, ctx: PartCtx): Inline | undefined {
    if (link) {
      const rel = ctx.rels.get(link);
      if (rel) {
        this.images.push(rel.target);
        return { type: 'image', alt, src: rel.target };
      }
    }
    if (!rid) return undefined;
    const rel = ctx.rels.get(rid);
    if (!rel) return { type: 'image', alt, src: '' };
    if (rel.external) {
      this.images.push(rel.target);
      return { type: 'image', alt, src: rel.target };
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = this.removeBase64
        ? this.zip.has(rel.target)
          ? new Uint8Array(0)
          : undefined
        : this.zip.read(rel.target);
    } catch (err) {
      if (err instanceof ParseError && err.code === 'RESOURCE_LIMIT') throw err;
      this.warnings.push(`The image ${rel.target} could not be read.`);
    }
    const src = imageSrc(mimeOf(rel.target), bytes, this.removeBase64);
    if (src) this.images.push(src);
    return { type: 'image', alt, src };
  }

  private drawing(d: XmlElement, out: InlineResult, ctx: PartCtx): void {
    const docPr = find(d, 'wp:docPr');
    // An empty description (descr="") gives way to the title.
    const alt = attr(docPr, 'descr')?.trim() || attr(docPr, 'title')?.trim() || '';
    for (const blip of findAll(d, 'a:blip')) {
      const img = this.image(attr(blip, 'r:embed'), attr(blip, 'r:link'), alt, ctx);
      if (img && !this.inInstruction()) out.inlines.push(img);
    }
    for (const txbx of findAll(d, 'w:txbxContent')) this.textBox(txbx, out, ctx);
  }

  private vml(pict: XmlElement, out: InlineResult, ctx: PartCtx): void {
    for (const data of findAll(pict, 'v:imagedata')) {
      const alt = (attr(data, 'o:title') ?? '').trim();
      const img = this.image(attr(data, 'r:id') ?? attr(data, 'r:pict'), undefined, alt, ctx);
      if (img) out.inlines.push(img);
    }
    for (const txbx of findAll(pict, 'w:txbxContent')) this.textBox(txbx, out, ctx);
  }

  private textBox(txbx: XmlElement, out: InlineResult, ctx: PartCtx): void {
    const sink = new BlockSink();
    const saved = this.fields;
    this.fields = [];
    this.blocks(txbx, sink, ctx);
    this.fields = saved;
    out.floats.push(...sink.nodes());
  }
}

/** Descendants with the name, including below matches (pictures in groups). */
function findAll(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) out.push(c);
    if (c.name !== 'w:txbxContent') findAll(c, name, out);
  }
  return out;
}

function rowsOf(tbl: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of children(tbl)) {
    if (c.name === 'w:tr') out.push(c);
    else if (c.name === 'w:sdt') out.push(...rowsOf(child(c, 'w:sdtContent') ?? c));
    else if (c.name === 'w:customXml' || c.name === 'w:ins') out.push(...rowsOf(c));
  }
  return out;
}

function cellsOf(tr: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of children(tr)) {
    if (c.name === 'w:tc') out.push(c);
    else if (c.name === 'w:sdt') out.push(...cellsOf(child(c, 'w:sdtContent') ?? c));
    else if (c.name === 'w:customXml') out.push(...cellsOf(c));
  }
  return out;
}

/** The external target of a HYPERLINK field instruction; internal (\l) links give none. */
function hyperlinkOf(instr: string): string | undefined {
  const m = /^\s*HYPERLINK\s+(.*)$/is.exec(instr);
  if (!m) return undefined;
  const args = m[1]!;
  const quoted = /^"([^"]*)"/.exec(args.trim()) ?? /^(\S+)/.exec(args.trim());
  if (!quoted || quoted[1]!.startsWith('\\')) return undefined;
  const anchor = /\\l\s+"([^"]*)"/.exec(args);
  return quoted[1]! + (anchor ? `#${anchor[1]}` : '');
}

/** Tabs written as the marker `dropPageNumbers` looks for. */
function tabsMarked(inlines: Inline[]): Inline[] {
  return inlines.map((i) =>
    i.type === 'text' && i.text.includes('\t') ? { ...i, text: i.text.replace(/\t/g, '\u0000') } : i,
  );
}

/** Tabs become spaces; runs of spaces collapse (markdown would collapse them anyway). */
function mergeSpaces(inlines: Inline[]): Inline[] {
  // The inlines are this paragraph's own fresh objects: they are edited in place.
  const out: Inline[] = [];
  for (const i of inlines) {
    if (i.type === 'text') {
      let t = i.text;
      if (t.indexOf('\t') >= 0) t = t.replace(/\t/g, ' ');
      if (t.indexOf('  ') >= 0) t = t.replace(/ {2,}/g, ' ');
      const prev = out[out.length - 1];
      if (prev && prev.type === 'text' && sameMarks(prev, i)) {
        prev.text = prev.text.endsWith(' ') && t.startsWith(' ') ? prev.text + t.slice(1) : prev.text + t;
        continue;
      }
      // One space between runs even when their formatting differs.
      if (prev && prev.type === 'text' && prev.text.endsWith(' ') && t.startsWith(' ')) t = t.slice(1);
      if (!t) continue;
      i.text = t;
    }
    out.push(i);
  }
  return out;
}

function sameMarks(a: TextInline, b: TextInline): boolean {
  return (
    !!a.bold === !!b.bold &&
    !!a.italic === !!b.italic &&
    !!a.strike === !!b.strike &&
    a.href === b.href &&
    !!a.superscript === !!b.superscript &&
    !!a.subscript === !!b.subscript &&
    !!a.code === !!b.code
  );
}

function coreMetadata(zip: ZipPackage, rels: Map<string, Rel>): Record<string, string> {
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

export function readDocx(ctx: ReaderContext): DocModel {
  const warnings: string[] = [];
  partWarnings = warnings;
  try {
    return readDocxParts(ctx, warnings);
  } finally {
    partWarnings = null;
  }
}

function readDocxParts(ctx: ReaderContext, warnings: string[]): DocModel {
  const zip = ZipPackage.open(ctx.bytes);
  const pkgRels = readRels(zip, '');
  const mainRel = relOfType(pkgRels, 'officeDocument');
  const mainPart = mainRel?.target ?? (zip.has('word/document.xml') ? 'word/document.xml' : undefined);
  const mainText = mainPart ? zip.text(mainPart) : undefined;
  if (!mainPart || mainText === undefined) {
    throw new ParseError('MALFORMED', 'The Word package has no main document part (word/document.xml).');
  }
  const rels = readRels(zip, mainPart);
  const partXml = (rel: Rel | undefined): XmlElement | undefined => {
    if (!rel || rel.external) return undefined;
    const t = tolerantText(zip, rel.target);
    return t === undefined ? undefined : parse(t);
  };
  const styles = new Styles(partXml(relOfType(rels, 'styles')));
  const numbering = new Numbering(partXml(relOfType(rels, 'numbering')), styles);
  const conv = new DocxConverter(zip, styles, numbering, ctx.options.removeBase64Images, ctx.deadline);
  conv.loadNotes('footnote', relOfType(rels, 'footnotes'));
  conv.loadNotes('endnote', relOfType(rels, 'endnotes'));
  conv.loadNotes('comment', relOfType(rels, 'comments'));

  const mainCtx: PartCtx = { part: mainPart, rels };
  const bodySink = new BlockSink();
  const sectPrs: XmlElement[] = [];
  // The body is converted element by element as the parser completes them, so that a long document
  // is never held whole as a tree.
  const holder: XmlElement = { name: '#', attrs: {}, children: [] };
  const doc = parseXml(mainText, {
    namespaces: OFFICE_NAMESPACES,
    keepWhitespaceIn: KEEP_WS,
    ignore: IGNORE,
    stream: {
      depth: 3,
      onElement: (el, parent) => {
        if (parent.name !== 'w:body') {
          parent.children.push(el);
          return;
        }
        if (el.name === 'w:sectPr') sectPrs.push(el);
        else if (el.name === 'w:p') {
          const sp = child(child(el, 'w:pPr'), 'w:sectPr');
          if (sp) sectPrs.push(sp);
        }
        holder.children[0] = el;
        conv.blocks(holder, bodySink, mainCtx);
      },
    },
  });
  if (!child(child(doc, 'w:document'), 'w:body'))
    throw new ParseError('MALFORMED', 'The Word document part has no body.');

  // Headers and footers referenced by the sections, each distinct part once.
  const furniture = (kind: 'header' | 'footer'): DocBlock[] => {
    const seen = new Set<string>();
    const seenText = new Set<string>();
    const out: DocBlock[] = [];
    for (const sp of sectPrs) {
      const refs = children(sp, `w:${kind}Reference`).sort(
        (a, b) => typeRank(attr(a, 'w:type')) - typeRank(attr(b, 'w:type')),
      );
      for (const ref of refs) {
        const rel = rels.get(attr(ref, 'r:id') ?? '');
        if (!rel || rel.external || seen.has(rel.target)) continue;
        seen.add(rel.target);
        const root = partXml(rel);
        const sink = new BlockSink();
        conv.blocks(
          child(root, kind === 'header' ? 'w:hdr' : 'w:ftr'),
          sink,
          { part: rel.target, rels: readRels(zip, rel.target) },
          kind === 'header' ? 'page_header' : 'page_footer',
        );
        const key = JSON.stringify(sink.nodes());
        if (sink.blocks.length === 0 || seenText.has(key)) continue;
        seenText.add(key);
        out.push(...sink.blocks);
      }
    }
    return out;
  };
  const headers = furniture('header');
  const footers = furniture('footer');
  const notes = conv.noteBlocks();

  const meta = coreMetadata(zip, pkgRels);
  const metadata: DocModel['metadata'] = { ...meta };
  return {
    contentType: ctx.contentType,
    pages: [
      {
        pageNumber: 1,
        width: null,
        height: null,
        status: warnings.length ? 'partial' : 'ok',
        blocks: [...headers, ...bodySink.blocks, ...footers, ...notes],
      },
    ],
    metadata,
    warnings: [...warnings, ...conv.warnings],
    links: conv.links,
    images: conv.images,
  };
}

function typeRank(t: string | undefined): number {
  return t === 'first' ? 0 : t === 'default' || t === undefined ? 1 : 2;
}
