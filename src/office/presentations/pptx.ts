/**
 * PresentationML (.pptx, .pptm, .ppsx, .potx) to the document model. One page per slide in the
 * order of presentation.xml's slide list. On each slide: the title first as a heading, then every
 * frame in reading order by position (shapes inside groups are placed through the group transforms),
 * bullet paragraphs as nested lists (bullets are resolved through the slide, layout and master
 * styles), tables with their merges, charts as their title plus a table of the cached series data,
 * pictures with a description as images (`![descr](ShapeName.jpg)`: an embedded picture has no
 * address of its own; pictures without a description are left out), and SmartArt text as a list.
 * Speaker notes follow the slide's content under a `### Notes` heading. Hidden slides are read like
 * the others: they are part of the file's content. Dates, footers and slide numbers are page
 * furniture (left out of the markdown under onlyMainContent).
 */
import { ParseError } from '../../errors.js';
import type { DocModel, DocPage, Inline, Node, TableCell, TableNode, TextInline } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
import { ZipPackage } from '../../containers/zip.js';
import { paragraphsToNodes, slidePage, trimInlines, type PlacedItem, type SlideParagraph } from './common.js';
import { presentationRels, readRels, relOfType, type Relationship } from '../package/relationships.js';
import {
  attr,
  child,
  childrenNamed,
  descendants,
  elements,
  path,
  textOf,
  WELL_FORMED_PARTS,
  type XmlElement,
} from '../package/local-names.js';
import { parseXmlRoot } from '../package/xml.js';

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
type Transform = (b: Box) => Box;

interface Placeholder {
  type: string;
  idx: string | undefined;
}

interface PhShape {
  box: Box | null;
  lstStyle: XmlElement | undefined;
}

interface MasterInfo {
  byType: Map<string, PhShape>;
  byIdx: Map<string, PhShape>;
  titleStyle: XmlElement | undefined;
  bodyStyle: XmlElement | undefined;
  otherStyle: XmlElement | undefined;
}

interface LayoutInfo {
  byType: Map<string, PhShape>;
  byIdx: Map<string, PhShape>;
  master: MasterInfo | null;
}

const EMU_PER_POINT = 12700;

const FURNITURE_PH = new Set(['dt', 'ftr', 'sldNum', 'hdr']);

function num(v: string | undefined, d = 0): number {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) ? n : d;
}

function phClass(type: string): 'title' | 'body' | 'other' {
  if (type === 'title' || type === 'ctrTitle') return 'title';
  if (type === 'body' || type === 'obj' || type === 'subTitle' || type === '') return 'body';
  return 'other';
}

function placeholderOf(nvPr: XmlElement | undefined): Placeholder | null {
  const ph = child(nvPr, 'ph');
  if (!ph) return null;
  return { type: attr(ph, 'type') ?? '', idx: attr(ph, 'idx') };
}

function xfrmBox(xfrm: XmlElement | undefined): Box | null {
  const off = child(xfrm, 'off');
  const ext = child(xfrm, 'ext');
  if (!off || !ext) return null;
  return { x: num(attr(off, 'x')), y: num(attr(off, 'y')), w: num(attr(ext, 'cx')), h: num(attr(ext, 'cy')) };
}

/** Non-visual properties of any shape kind (`nvSpPr`, `nvPicPr`, `nvGraphicFramePr`, `nvGrpSpPr`, ...). */
function nvOf(shape: XmlElement): XmlElement | undefined {
  return elements(shape).find((c) => c.local.startsWith('nv') && c.local.endsWith('Pr'));
}

class PptxReader {
  private readonly layouts = new Map<string, LayoutInfo | null>();
  private readonly masters = new Map<string, MasterInfo | null>();
  readonly warnings: string[] = [];

  constructor(
    private readonly zip: ZipPackage,
    private readonly ctx: ReaderContext,
  ) {}

  xml(part: string): XmlElement | undefined {
    const text = this.zip.text(part);
    if (text === undefined) return undefined;
    return parseXmlRoot(text, { ...WELL_FORMED_PARTS, part: `part ${part}` });
  }

  read(): DocModel {
    const presPart = 'ppt/presentation.xml';
    let slideParts: string[] = [];
    let extent: { width: number; height: number } | null = null;
    let pres: XmlElement | undefined;
    try {
      pres = this.xml(presPart);
    } catch (err) {
      if (err instanceof ParseError && err.code === 'RESOURCE_LIMIT') throw err;
      this.warnings.push(
        `presentation.xml could not be read (${(err as Error).message}); slides were taken in part-name order.`,
      );
    }
    if (pres) {
      const rels = readRels(presPart, presentationRels(this.zip));
      for (const sldId of childrenNamed(child(pres, 'sldIdLst'), 'sldId')) {
        const rel = rels.get(relId(sldId));
        const target = rel && !rel.external ? rel.target : undefined;
        if (target && this.zip.has(target)) slideParts.push(target);
      }
      const sz = child(pres, 'sldSz');
      if (sz) extent = { width: num(attr(sz, 'cx')), height: num(attr(sz, 'cy')) };
      if (extent && (extent.width <= 0 || extent.height <= 0)) extent = null;
    }
    if (slideParts.length === 0) {
      slideParts = this.zip
        .names()
        .filter((n) => /^ppt\/slides\/slide\d+\.xml$/i.test(n))
        .sort((a, b) => num(/(\d+)\.xml$/i.exec(a)?.[1]) - num(/(\d+)\.xml$/i.exec(b)?.[1]));
      if (pres && slideParts.length)
        this.warnings.push(
          'The slide list of presentation.xml is missing or broken; slides were taken in part-name order.',
        );
    }
    if (slideParts.length === 0 && !pres)
      throw new ParseError('MALFORMED', 'The presentation has no readable presentation.xml and no slides.');

    const pageSize = extent
      ? { width: Math.round(extent.width / EMU_PER_POINT), height: Math.round(extent.height / EMU_PER_POINT) }
      : null;
    const pages: DocPage[] = [];
    let failed = 0;
    slideParts.forEach((part, i) => {
      if (this.ctx.signal.aborted) throw this.ctx.signal.reason;
      try {
        pages.push(this.slide(part, i + 1, extent, pageSize));
      } catch (err) {
        if (err instanceof ParseError && err.code === 'RESOURCE_LIMIT') throw err;
        if (err === this.ctx.signal.reason) throw err;
        failed++;
        pages.push({
          pageNumber: i + 1,
          width: pageSize?.width ?? null,
          height: pageSize?.height ?? null,
          status: 'failed',
          error: (err as Error).message,
          blocks: [],
        });
      }
    });
    if (slideParts.length > 0 && failed === slideParts.length) {
      throw new ParseError('MALFORMED', `None of the ${failed} slides could be read: ${pages[0]?.error ?? ''}`);
    }
    const metadata: DocModel['metadata'] = { numPages: pages.length };
    try {
      const core = this.xml('docProps/core.xml');
      const title = textOf(child(core, 'title')).trim();
      if (title) metadata.title = title;
      const creator = textOf(child(core, 'creator')).trim();
      if (creator) metadata['author'] = creator;
    } catch {
      // Document properties are optional.
    }
    return { contentType: this.ctx.contentType, pages, metadata, warnings: this.warnings };
  }

  // ---------------------------------------------------------------- layouts and masters

  private phShapes(root: XmlElement | undefined): { byType: Map<string, PhShape>; byIdx: Map<string, PhShape> } {
    const byType = new Map<string, PhShape>();
    const byIdx = new Map<string, PhShape>();
    for (const sp of descendants(path(root, 'cSld', 'spTree'), 'sp')) {
      const ph = placeholderOf(child(nvOf(sp), 'nvPr'));
      if (!ph) continue;
      const shape: PhShape = { box: xfrmBox(path(sp, 'spPr', 'xfrm')), lstStyle: path(sp, 'txBody', 'lstStyle') };
      const type = ph.type || 'body';
      if (!byType.has(type)) byType.set(type, shape);
      if (ph.idx !== undefined && !byIdx.has(ph.idx)) byIdx.set(ph.idx, shape);
    }
    return { byType, byIdx };
  }

  private master(part: string): MasterInfo | null {
    if (this.masters.has(part)) return this.masters.get(part)!;
    let info: MasterInfo | null = null;
    try {
      const root = this.xml(part);
      if (root) {
        const styles = child(root, 'txStyles');
        info = {
          ...this.phShapes(root),
          titleStyle: child(styles, 'titleStyle'),
          bodyStyle: child(styles, 'bodyStyle'),
          otherStyle: child(styles, 'otherStyle'),
        };
      }
    } catch (err) {
      if (err instanceof ParseError && err.code === 'RESOURCE_LIMIT') throw err;
    }
    this.masters.set(part, info);
    return info;
  }

  private layout(part: string): LayoutInfo | null {
    if (this.layouts.has(part)) return this.layouts.get(part)!;
    let info: LayoutInfo | null = null;
    try {
      const root = this.xml(part);
      if (root) {
        const masterRel = relOfType(readRels(part, presentationRels(this.zip)), '/slideMaster');
        info = {
          ...this.phShapes(root),
          master: masterRel && !masterRel.external ? this.master(masterRel.target) : null,
        };
      }
    } catch (err) {
      if (err instanceof ParseError && err.code === 'RESOURCE_LIMIT') throw err;
    }
    this.layouts.set(part, info);
    return info;
  }

  // ---------------------------------------------------------------- slides

  private slide(
    part: string,
    pageNumber: number,
    extent: { width: number; height: number } | null,
    pageSize: { width: number; height: number } | null,
  ): DocPage {
    const root = this.xml(part);
    if (!root) throw new ParseError('MALFORMED', `The slide part ${part} is missing.`);
    const rels = readRels(part, presentationRels(this.zip));
    const layoutRel = relOfType(rels, '/slideLayout');
    const layout = layoutRel && !layoutRel.external ? this.layout(layoutRel.target) : null;
    const ctx: SlideCtx = { part, rels, layout, items: [], seq: 0 };
    this.shapeTree(path(root, 'cSld', 'spTree'), (b) => b, ctx);

    let notes: Node[] = [];
    const notesRel = relOfType(rels, '/notesSlide');
    if (notesRel && !notesRel.external) {
      try {
        notes = this.notes(notesRel.target);
      } catch (err) {
        if (err instanceof ParseError && err.code === 'RESOURCE_LIMIT') throw err;
        this.warnings.push(`The speaker notes of slide ${pageNumber} could not be read.`);
      }
    }
    return slidePage(pageNumber, ctx.items, notes, extent, pageSize);
  }

  private notes(part: string): Node[] {
    const root = this.xml(part);
    if (!root) return [];
    const rels = readRels(part, presentationRels(this.zip));
    const out: Node[] = [];
    for (const sp of descendants(path(root, 'cSld', 'spTree'), 'sp')) {
      const ph = placeholderOf(child(nvOf(sp), 'nvPr'));
      if (!ph || ph.type !== 'body') continue;
      const paras = this.textBody(child(sp, 'txBody'), { rels, part, layout: null, items: [], seq: 0 }, null, false);
      out.push(...paragraphsToNodes(paras));
    }
    return out;
  }

  private shapeTree(tree: XmlElement | undefined, tf: Transform, ctx: SlideCtx): void {
    for (const el of elements(tree)) this.shape(el, tf, ctx);
  }

  private shape(el: XmlElement, tf: Transform, ctx: SlideCtx): void {
    switch (el.local) {
      case 'sp':
        this.textShape(el, tf, ctx);
        return;
      case 'grpSp': {
        const xfrm = path(el, 'grpSpPr', 'xfrm');
        const box = xfrmBox(xfrm);
        const chOff = child(xfrm, 'chOff');
        const chExt = child(xfrm, 'chExt');
        let inner = tf;
        if (box && chOff && chExt) {
          const cx = num(attr(chOff, 'x'));
          const cy = num(attr(chOff, 'y'));
          const cw = num(attr(chExt, 'cx'));
          const ch = num(attr(chExt, 'cy'));
          const sx = cw > 0 ? box.w / cw : 1;
          const sy = ch > 0 ? box.h / ch : 1;
          inner = (b) => tf({ x: box.x + (b.x - cx) * sx, y: box.y + (b.y - cy) * sy, w: b.w * sx, h: b.h * sy });
        }
        this.shapeTree(el, inner, ctx);
        return;
      }
      case 'graphicFrame':
        this.graphicFrame(el, tf, ctx);
        return;
      case 'pic':
        this.picture(el, tf, ctx);
        return;
      case 'AlternateContent': {
        // Prefer the richer choice; fall back when it yields nothing we understand.
        const before = ctx.items.length;
        const choice = child(el, 'Choice');
        if (choice) this.shapeTree(choice, tf, ctx);
        if (ctx.items.length === before) {
          const fallback = child(el, 'Fallback');
          if (fallback) this.shapeTree(fallback, tf, ctx);
        }
        return;
      }
      case 'contentPart':
      case 'cxnSp':
      default:
        return;
    }
  }

  private place(
    el: XmlElement,
    spPr: XmlElement | undefined,
    tf: Transform,
    ctx: SlideCtx,
    ph: Placeholder | null,
  ): Box | null {
    let box = xfrmBox(child(spPr, 'xfrm'));
    if (!box && ph) {
      // The position is inherited: layout placeholder (by index, then type), then master placeholder.
      const type = ph.type || 'body';
      const title = phClass(ph.type) === 'title';
      const layout = ctx.layout;
      const master = layout?.master;
      const candidates = [
        ph.idx !== undefined ? layout?.byIdx.get(ph.idx) : undefined,
        layout?.byType.get(type),
        title ? (layout?.byType.get('title') ?? layout?.byType.get('ctrTitle')) : undefined,
        master?.byType.get(type),
        title ? master?.byType.get('title') : phClass(ph.type) === 'body' ? master?.byType.get('body') : undefined,
        ph.idx !== undefined ? master?.byIdx.get(ph.idx) : undefined,
      ];
      box = candidates.find((c) => c?.box)?.box ?? null;
    }
    return box ? tf(box) : null;
  }

  private textShape(sp: XmlElement, tf: Transform, ctx: SlideCtx): void {
    const ph = placeholderOf(child(nvOf(sp), 'nvPr'));
    const box = this.place(sp, child(sp, 'spPr'), tf, ctx, ph);
    const paras = this.textBody(child(sp, 'txBody'), ctx, ph, true, child(sp, 'txBody'));
    if (!paras.length) return;
    const cls = ph ? phClass(ph.type) : 'other';
    if (cls === 'title') {
      // A title is one heading, whatever number of paragraphs it was typed in.
      const content: Inline[] = [];
      for (const p of paras) {
        const c = trimInlines(p.content);
        if (!c.length) continue;
        if (content.length) content.push({ type: 'text', text: ' ' });
        content.push(...c);
      }
      if (content.length) ctx.items.push({ box, title: true, nodes: [{ kind: 'paragraph', content }], seq: ctx.seq++ });
      return;
    }
    const nodes = paragraphsToNodes(paras);
    if (nodes.length) ctx.items.push({ box, nodes, seq: ctx.seq++, furniture: ph ? FURNITURE_PH.has(ph.type) : false });
  }

  /** Paragraphs of a text body, with list levels resolved from the style hierarchy. */
  private textBody(
    txBody: XmlElement | undefined,
    ctx: SlideCtx,
    ph: Placeholder | null,
    inherit: boolean,
    own?: XmlElement,
  ): SlideParagraph[] {
    if (!txBody) return [];
    const out: SlideParagraph[] = [];
    const cls = ph ? phClass(ph.type) : 'other';
    const lstStyles: (XmlElement | undefined)[] = [child(own ?? txBody, 'lstStyle')];
    if (inherit && ph) {
      const layoutPh =
        (ph.idx !== undefined ? ctx.layout?.byIdx.get(ph.idx) : undefined) ?? ctx.layout?.byType.get(ph.type || 'body');
      lstStyles.push(layoutPh?.lstStyle);
      const master = ctx.layout?.master;
      const masterPh =
        master?.byType.get(ph.type || 'body') ??
        (cls === 'body' ? master?.byType.get('body') : cls === 'title' ? master?.byType.get('title') : undefined);
      lstStyles.push(masterPh?.lstStyle);
      lstStyles.push(cls === 'title' ? master?.titleStyle : cls === 'body' ? master?.bodyStyle : master?.otherStyle);
    } else if (inherit) {
      lstStyles.push(ctx.layout?.master?.otherStyle);
    }
    for (const p of childrenNamed(txBody, 'p')) {
      const pPr = child(p, 'pPr');
      const lvl = Math.min(8, Math.max(0, num(attr(pPr, 'lvl'))));
      let bullet: 'none' | 'bullet' | 'number' | undefined = bulletOf(pPr);
      for (let i = 0; bullet === undefined && i < lstStyles.length; i++)
        bullet = bulletOf(child(lstStyles[i], `lvl${lvl + 1}pPr`));
      const content = this.runs(p, ctx.rels);
      if (cls === 'title' || bullet === undefined || bullet === 'none') out.push({ content });
      else {
        const para: SlideParagraph = { content, level: lvl, ordered: bullet === 'number' };
        const startAt = Number(attr(descendants(pPr, 'buAutoNum')[0], 'startAt'));
        if (bullet === 'number' && Number.isInteger(startAt) && startAt > 0) para.start = startAt;
        out.push(para);
      }
    }
    return out;
  }

  private runs(p: XmlElement, rels: Map<string, Relationship>): Inline[] {
    const out: Inline[] = [];
    for (const r of elements(p)) {
      if (r.local === 'r' || r.local === 'fld') {
        const text = textOf(child(r, 't'));
        if (!text) continue;
        const rPr = child(r, 'rPr');
        const run: TextInline = { type: 'text', text };
        if (isOn(attr(rPr, 'b'))) run.bold = true;
        if (isOn(attr(rPr, 'i'))) run.italic = true;
        const strike = attr(rPr, 'strike');
        if (strike && strike !== 'noStrike') run.strike = true;
        const baseline = num(attr(rPr, 'baseline'));
        if (baseline > 0) run.superscript = true;
        else if (baseline < 0) run.subscript = true;
        const link = child(rPr, 'hlinkClick');
        const rid = link ? relId(link) : undefined;
        const rel = rid ? rels.get(rid) : undefined;
        if (rel?.external && /^(https?|mailto|ftp):/i.test(rel.target)) run.href = rel.target;
        out.push(run);
      } else if (r.local === 'br') out.push({ type: 'break' });
      else if (r.local === 'AlternateContent') out.push(...this.runs(child(r, 'Choice') ?? r, rels));
    }
    return out;
  }

  private picture(pic: XmlElement, tf: Transform, ctx: SlideCtx): void {
    const cNvPr = child(nvOf(pic), 'cNvPr');
    const alt = (attr(cNvPr, 'descr') ?? attr(cNvPr, 'title') ?? '').trim();
    if (!alt) return;
    const ph = placeholderOf(child(nvOf(pic), 'nvPr'));
    const box = this.place(pic, child(pic, 'spPr'), tf, ctx, ph);
    // Embedded pictures have no address outside the package; the shape's name stands in for one.
    const name = (attr(cNvPr, 'name') ?? 'image').replace(/[^\p{L}\p{N}_]/gu, '') || 'image';
    ctx.items.push({ box, nodes: [{ kind: 'figure', alt, src: `${name}.jpg` }], seq: ctx.seq++ });
  }

  private graphicFrame(frame: XmlElement, tf: Transform, ctx: SlideCtx): void {
    const box = (() => {
      const b = xfrmBox(child(frame, 'xfrm'));
      return b ? tf(b) : this.place(frame, undefined, tf, ctx, placeholderOf(child(nvOf(frame), 'nvPr')));
    })();
    const data = path(frame, 'graphic', 'graphicData');
    const uri = attr(data, 'uri') ?? '';
    let nodes: Node[] = [];
    const tbl = child(data, 'tbl');
    if (tbl) nodes = this.table(tbl, ctx);
    else if (uri.endsWith('/chart')) {
      const rid = child(data, 'chart');
      const rel = rid ? ctx.rels.get(relId(rid)) : undefined;
      if (rel && !rel.external) nodes = this.chart(rel.target);
    } else if (uri.endsWith('/diagram')) {
      const ids = child(data, 'relIds');
      const rel = ids ? ctx.rels.get(relId(ids, 'dm')) : undefined;
      if (rel && !rel.external) nodes = this.smartArt(rel.target);
    }
    if (nodes.length) ctx.items.push({ box, nodes, seq: ctx.seq++ });
  }

  private table(tbl: XmlElement, ctx: SlideCtx): Node[] {
    const rows: TableCell[][] = [];
    for (const tr of childrenNamed(tbl, 'tr')) {
      const row: TableCell[] = [];
      for (const tc of childrenNamed(tr, 'tc')) {
        if (isOn(attr(tc, 'hMerge')) || isOn(attr(tc, 'vMerge'))) continue;
        const content: Inline[] = [];
        for (const para of this.textBody(child(tc, 'txBody'), ctx, null, false)) {
          const c = trimInlines(para.content);
          if (!c.length) continue;
          if (content.length) content.push({ type: 'break' });
          content.push(...c);
        }
        const cell: TableCell = { content };
        const cs = num(attr(tc, 'gridSpan'), 1);
        const rs = num(attr(tc, 'rowSpan'), 1);
        if (cs > 1) cell.colSpan = cs;
        if (rs > 1) cell.rowSpan = rs;
        row.push(cell);
      }
      rows.push(row);
    }
    return rows.length ? [{ kind: 'table', rows } satisfies TableNode] : [];
  }

  private chart(part: string): Node[] {
    let root: XmlElement | undefined;
    try {
      root = this.xml(part);
    } catch (err) {
      if (err instanceof ParseError && err.code === 'RESOURCE_LIMIT') throw err;
      this.warnings.push(`The chart ${part} could not be read.`);
      return [];
    }
    return chartNodes(root);
  }

  private smartArt(part: string): Node[] {
    let root: XmlElement | undefined;
    try {
      root = this.xml(part);
    } catch (err) {
      if (err instanceof ParseError && err.code === 'RESOURCE_LIMIT') throw err;
      return [];
    }
    const items: SlideParagraph[] = [];
    for (const pt of descendants(child(root, 'ptLst'), 'pt')) {
      const type = attr(pt, 'type') ?? 'node';
      if (type !== 'node') continue;
      const text = descendants(child(pt, 't'), 'p')
        .map((p) => textOf(p))
        .join(' ')
        .trim();
      if (text) items.push({ content: [{ type: 'text', text }], level: 0 });
    }
    return paragraphsToNodes(items);
  }
}

interface SlideCtx {
  part: string;
  rels: Map<string, Relationship>;
  layout: LayoutInfo | null;
  items: PlacedItem[];
  seq: number;
}

/** A relationship reference attribute (`r:id`, `r:dm`): prefixed, whatever the prefix. */
function relId(el: XmlElement, local = 'id'): string {
  for (const k in el.attrs) if (k.endsWith(`:${local}`)) return el.attrs[k]!;
  return '';
}

function isOn(v: string | undefined): boolean {
  return v === '1' || v === 'true' || v === 'on';
}

function bulletOf(pPr: XmlElement | undefined): 'none' | 'bullet' | 'number' | undefined {
  if (!pPr) return undefined;
  for (const c of elements(pPr)) {
    if (c.local === 'buNone') return 'none';
    if (c.local === 'buChar' || c.local === 'buBlip') return 'bullet';
    if (c.local === 'buAutoNum') return 'number';
  }
  return undefined;
}

// ---------------------------------------------------------------- charts

/**
 * A cached chart value as the chart shows it: the common number formats (General, fixed decimals,
 * thousands separators, percentages); anything else reads as General. Binary floating point noise
 * (4.4000000000000004) goes with General's 15 significant digits.
 */
export function formatNumber(raw: string, format: string): string {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) return raw;
  const general = (x: number): string => String(Number(x.toPrecision(15)));
  const m = /^(#,##)?(0+)(?:\.(0+))?(%?)$/.exec(format.replace(/;.*$/, '').replace(/\\|"/g, '').trim());
  if (!m) return general(n);
  const value = m[4] ? n * 100 : n;
  let out = value.toFixed(m[3]?.length ?? 0);
  if (m[1]) {
    const [int, frac] = out.split('.');
    out = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac !== undefined ? `.${frac}` : '');
  }
  return out + m[4];
}

function cachedPoints(ref: XmlElement | undefined): Map<number, string> {
  const out = new Map<number, string>();
  if (!ref) return out;
  const cache =
    descendants(ref, 'strCache')[0] ??
    descendants(ref, 'numCache')[0] ??
    descendants(ref, 'strLit')[0] ??
    descendants(ref, 'numLit')[0];
  if (cache) {
    const numeric = cache.local === 'numCache' || cache.local === 'numLit';
    const format = textOf(child(cache, 'formatCode')).trim();
    for (const pt of childrenNamed(cache, 'pt')) {
      const v = textOf(child(pt, 'v'));
      out.set(num(attr(pt, 'idx')), numeric ? formatNumber(v, attr(pt, 'formatCode') ?? format) : v);
    }
    return out;
  }
  // Multi-level categories: join the levels of each point, outermost last.
  const multi = descendants(ref, 'multiLvlStrCache')[0];
  if (multi) {
    for (const lvl of childrenNamed(multi, 'lvl')) {
      for (const pt of childrenNamed(lvl, 'pt')) {
        const i = num(attr(pt, 'idx'));
        const v = textOf(child(pt, 'v'));
        out.set(i, out.has(i) ? `${out.get(i)} ${v}` : v);
      }
    }
  }
  return out;
}

/** A chart part's title and its series' cached data as a table. */
export function chartNodes(root: XmlElement | undefined): Node[] {
  const chart = child(root, 'chart');
  if (!chart) return [];
  const nodes: Node[] = [];
  const titleEl = child(chart, 'title');
  const title = titleEl
    ? descendants(titleEl, 'p')
        .map((p) =>
          descendants(p, 't')
            .map((t) => textOf(t))
            .join(''),
        )
        .join(' ')
        .trim()
    : '';
  if (title) nodes.push({ kind: 'paragraph', content: [{ type: 'text', text: title, bold: true }] });
  const series: { name: string; cats: Map<number, string>; vals: Map<number, string> }[] = [];
  for (const plot of elements(child(chart, 'plotArea'))) {
    for (const ser of childrenNamed(plot, 'ser')) {
      const tx = child(ser, 'tx');
      const name = tx
        ? (
            descendants(tx, 'v')
              .map((v) => textOf(v))
              .join(' ') || textOf(tx)
          ).trim()
        : '';
      series.push({
        name: name || `Series ${series.length + 1}`,
        cats: cachedPoints(child(ser, 'cat') ?? child(ser, 'xVal')),
        vals: cachedPoints(child(ser, 'val') ?? child(ser, 'yVal')),
      });
    }
  }
  if (!series.length) return nodes;
  const cats = series.find((s) => s.cats.size)?.cats ?? new Map<number, string>();
  const count = Math.max(
    ...series.map((s) =>
      Math.max(s.vals.size ? Math.max(...s.vals.keys()) + 1 : 0, s.cats.size ? Math.max(...s.cats.keys()) + 1 : 0),
    ),
  );
  const cell = (text: string): TableCell => ({ content: text ? [{ type: 'text', text }] : [] });
  const rows: TableCell[][] = [[cell(''), ...series.map((s) => cell(s.name))]];
  for (let i = 0; i < count; i++)
    rows.push([cell(cats.get(i) ?? String(i + 1)), ...series.map((s) => cell(s.vals.get(i) ?? ''))]);
  nodes.push({ kind: 'table', rows });
  return nodes;
}

export function readPptx(ctx: ReaderContext): DocModel {
  const zip = ZipPackage.open(ctx.bytes);
  return new PptxReader(zip, ctx).read();
}
