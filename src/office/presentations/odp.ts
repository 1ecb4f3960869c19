/**
 * OpenDocument presentations (.odp) from content.xml. One page per `draw:page`; on each, the title
 * frame first as a heading, then frames and shapes in reading order by position (group members carry
 * absolute positions in ODF), lists with their nesting (a list level whose style shows no bullet or
 * number reads as plain paragraphs), tables with spans, charts (embedded chart objects: title plus
 * their local data table), images with a description, and speaker notes under `### Notes`.
 */
import { ParseError } from '../../errors.js';
import type { DocModel, DocPage, Inline, Node, TableCell, TextInline } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
import { odfCellValue } from '../odf/cell-value.js';
import { LOCAL_NAMES } from '../odf/names.js';
import { bodyOf, ODF_PARTS, wellFormedPart } from '../odf/package.js';
import { styleDeclarations } from '../odf/styles.js';
import { cellSpans, countAttr, fontFlags, isOutsideLink, isRowGroup, readInlines } from '../odf/text.js';
import { ZipPackage } from '../../containers/zip.js';
import { paragraphsToNodes, slidePage, trimInlines, type PlacedItem, type SlideParagraph } from './common.js';
import { attr, child, childrenNamed, descendants, elements, textOf, type XmlElement } from '../package/local-names.js';

interface TextStyle {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  superscript?: boolean;
  subscript?: boolean;
}
type ListKind = 'bullet' | 'number' | 'none';

/** Columns one repeated table cell yields at most: a slide table is never wider, a hostile count is. */
const MAX_COLUMN_REPEAT = 256;

/** Notes and comments are not shown on a slide; bookmarks hold no text. */
const LEFT_OUT = ['text:note', 'office:annotation', 'text:bookmark', 'text:bookmark-start', 'text:bookmark-end'];

const CM_PER: Record<string, number> = { cm: 1, mm: 0.1, in: 2.54, pt: 2.54 / 72, pc: 2.54 / 6, px: 2.54 / 96 };

/** An ODF length in centimetres; NaN when it has none. */
function length(v: string | undefined): number {
  const m = /^\s*(-?[\d.]+)\s*([a-z]*)\s*$/i.exec(v ?? '');
  if (!m) return NaN;
  return Number(m[1]) * (CM_PER[m[2]!.toLowerCase()] ?? 1);
}

class OdpReader {
  private readonly textStyles = new Map<string, TextStyle>();
  private readonly listStyles = new Map<string, XmlElement>();
  readonly warnings: string[] = [];

  constructor(
    private readonly zip: ZipPackage,
    private readonly ctx: ReaderContext,
  ) {}

  private xml(part: string): XmlElement | undefined {
    return wellFormedPart(this.zip, part);
  }

  read(): DocModel {
    const content = this.xml(ODF_PARTS.content);
    if (!content) throw new ParseError('MALFORMED', 'The OpenDocument presentation has no content.xml.');
    const styles = this.safeXml(ODF_PARTS.styles);
    for (const stylesRoot of [styles, content]) {
      for (const container of [child(stylesRoot, 'styles'), child(stylesRoot, 'automatic-styles')])
        this.collectStyles(container);
    }
    const pres = bodyOf(content, 'presentation');
    if (!pres) throw new ParseError('MALFORMED', 'The OpenDocument file has no presentation body.');
    const size = this.pageSize(styles);
    const pages: DocPage[] = [];
    childrenNamed(pres, 'page').forEach((page, i) => {
      if (this.ctx.signal.aborted) throw this.ctx.signal.reason;
      const items: PlacedItem[] = [];
      const seq = { n: 0 };
      for (const el of elements(page)) if (el.local !== 'notes') this.shape(el, items, seq);
      const notes: Node[] = [];
      for (const frame of descendants(child(page, 'notes'), 'frame')) {
        if (attr(frame, 'class') !== 'notes') continue;
        notes.push(...paragraphsToNodes(this.textParagraphs(child(frame, 'text-box') ?? frame)));
      }
      const pt = size
        ? { width: Math.round((size.width / 2.54) * 72), height: Math.round((size.height / 2.54) * 72) }
        : null;
      pages.push(slidePage(i + 1, items, notes, size, pt));
    });
    const metadata: DocModel['metadata'] = { numPages: pages.length };
    const meta = child(this.safeXml(ODF_PARTS.meta), 'meta');
    const title = textOf(child(meta, 'title')).trim();
    if (title) metadata.title = title;
    const creator = textOf(child(meta, 'initial-creator') ?? child(meta, 'creator')).trim();
    if (creator) metadata['author'] = creator;
    return { contentType: this.ctx.contentType, pages, metadata, warnings: this.warnings };
  }

  private safeXml(part: string): XmlElement | undefined {
    try {
      return this.xml(part);
    } catch (err) {
      if (err instanceof ParseError && err.code === 'RESOURCE_LIMIT') throw err;
      this.warnings.push(`${part} could not be read.`);
      return undefined;
    }
  }

  private pageSize(styles: XmlElement | undefined): { width: number; height: number } | null {
    for (const layout of descendants(child(styles, 'automatic-styles'), 'page-layout')) {
      const props = child(layout, 'page-layout-properties');
      const width = length(attr(props, 'page-width'));
      const height = length(attr(props, 'page-height'));
      if (width > 0 && height > 0) return { width, height };
    }
    return null;
  }

  private collectStyles(container: XmlElement | undefined): void {
    for (const d of styleDeclarations(container, LOCAL_NAMES)) {
      const name = d.name;
      if (!name) continue;
      if (d.kind === 'list-style') {
        this.listStyles.set(name, d.el);
        continue;
      }
      if (d.kind !== 'style') continue;
      const props = d.textProperties;
      if (!props) continue;
      const style: TextStyle = {};
      const flags = fontFlags(props, LOCAL_NAMES);
      if (flags.bold) style.bold = true;
      if (flags.italic) style.italic = true;
      if (flags.strike) style.strike = true;
      const position = attr(props, 'text-position') ?? '';
      if (/^super|^\d/.test(position) && !/^0/.test(position)) style.superscript = true;
      else if (/^sub|^-/.test(position)) style.subscript = true;
      this.textStyles.set(name, style);
    }
  }

  private box(el: XmlElement): PlacedItem['box'] {
    const x = length(attr(el, 'x'));
    const y = length(attr(el, 'y'));
    if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
    return { x, y, w: length(attr(el, 'width')) || 0, h: length(attr(el, 'height')) || 0 };
  }

  private shape(el: XmlElement, items: PlacedItem[], seq: { n: number }): void {
    if (el.local === 'g') {
      for (const c of elements(el)) this.shape(c, items, seq);
      return;
    }
    if (el.local === 'title' || el.local === 'desc' || el.local === 'forms') return;
    const cls = attr(el, 'class') ?? '';
    const furniture = cls === 'page-number' || cls === 'footer' || cls === 'date-time' || cls === 'header';
    const box = this.box(el);
    let nodes: Node[] = [];
    if (el.local === 'frame') {
      const textBox = child(el, 'text-box');
      const table = child(el, 'table');
      const image = child(el, 'image');
      const object = child(el, 'object');
      if (textBox) nodes = paragraphsToNodes(this.textParagraphs(textBox));
      else if (table) nodes = this.table(table);
      else if (object) nodes = this.object(object);
      else if (image) {
        const alt = (textOf(child(el, 'desc')) || textOf(child(el, 'title'))).trim();
        const href = attr(image, 'href') ?? '';
        if (alt) nodes = [{ kind: 'figure', alt, src: href.split('/').pop() || 'image' }];
      }
    } else {
      nodes = paragraphsToNodes(this.textParagraphs(el));
    }
    if (!nodes.length) return;
    if (cls === 'title') {
      const content: Inline[] = [];
      for (const n of nodes) {
        const c = n.kind === 'paragraph' ? n.content : n.kind === 'list' ? n.items.flatMap((i) => i.content) : [];
        if (c.length && content.length) content.push({ type: 'text', text: ' ' });
        content.push(...c);
      }
      items.push({ box, title: true, nodes: [{ kind: 'paragraph', content }], seq: seq.n++ });
      return;
    }
    items.push({ box, nodes, furniture, seq: seq.n++ });
  }

  /** Paragraphs and list items of a text container, in order. */
  private textParagraphs(container: XmlElement): SlideParagraph[] {
    const out: SlideParagraph[] = [];
    for (const el of elements(container)) {
      if (el.local === 'p' || el.local === 'h') out.push({ content: this.inlines(el, {}) });
      else if (el.local === 'list') this.list(el, 0, attr(el, 'style-name'), out);
    }
    return out;
  }

  private listKind(styleName: string | undefined, level: number): ListKind {
    const style = styleName ? this.listStyles.get(styleName) : undefined;
    if (!style) return 'bullet';
    const levelStyle = elements(style).find((l) => Number(attr(l, 'level')) === level + 1);
    if (!levelStyle) return 'bullet';
    if (levelStyle.local === 'list-level-style-number') return attr(levelStyle, 'num-format') ? 'number' : 'none';
    if (levelStyle.local === 'list-level-style-bullet')
      return (attr(levelStyle, 'bullet-char') ?? '').trim() ? 'bullet' : 'none';
    return 'bullet';
  }

  private list(list: XmlElement, level: number, styleName: string | undefined, out: SlideParagraph[]): void {
    const kind = this.listKind(styleName, level);
    for (const item of elements(list).filter((e) => e.local === 'list-item' || e.local === 'list-header')) {
      const startValue = Number(attr(item, 'start-value'));
      let first = true;
      for (const el of elements(item)) {
        if (el.local === 'p' || el.local === 'h') {
          const content = this.inlines(el, {});
          const para: SlideParagraph = kind === 'none' ? { content } : { content, level, ordered: kind === 'number' };
          if (first && kind === 'number' && Number.isInteger(startValue) && startValue > 0) para.start = startValue;
          first = false;
          out.push(para);
        } else if (el.local === 'list') this.list(el, level + 1, attr(el, 'style-name') ?? styleName, out);
      }
    }
  }

  private inlines(el: XmlElement, marks: TextStyle & { href?: string }): Inline[] {
    const out: Inline[] = [];
    readInlines(el, LOCAL_NAMES, {
      text: (c) => {
        const text = c.replace(/[\r\n\t ]+/g, ' ');
        if (text) out.push({ type: 'text', text, ...marks } as TextInline);
      },
      spaces: (run) => out.push({ type: 'text', text: run, ...marks }),
      tab: () => out.push({ type: 'text', text: '\t', ...marks }),
      lineBreak: () => out.push({ type: 'break' }),
      leftOut: LEFT_OUT,
      element: (c) => {
        if (c.local === 'span') {
          const style = this.textStyles.get(attr(c, 'style-name') ?? '') ?? {};
          out.push(...this.inlines(c, { ...marks, ...style }));
        } else if (c.local === 'a') {
          const href = attr(c, 'href');
          out.push(...this.inlines(c, href && isOutsideLink(href) ? { ...marks, href } : marks));
        } else return false;
        return true;
      },
    });
    return out;
  }

  private table(table: XmlElement): Node[] {
    const rows: TableCell[][] = [];
    const visit = (el: XmlElement): void => {
      for (const c of elements(el)) {
        if (c.local === 'table-row') {
          const row: TableCell[] = [];
          for (const cell of elements(c)) {
            if (cell.local !== 'table-cell') continue;
            const repeat = Math.min(MAX_COLUMN_REPEAT, countAttr(attr(cell, 'number-columns-repeated')));
            const content: Inline[] = [];
            for (const p of this.textParagraphs(cell)) {
              const t = trimInlines(p.content);
              if (!t.length) continue;
              if (content.length) content.push({ type: 'break' });
              content.push(...t);
            }
            // Chart data tables write numbers as `office:value` alone, with no paragraph.
            if (!content.length) {
              const value = odfCellValue(cell).trim();
              if (value) content.push({ type: 'text', text: value });
            }
            const { cs, rs } = cellSpans(cell, LOCAL_NAMES);
            for (let k = 0; k < repeat; k++) {
              const tc: TableCell = { content };
              if (cs > 1) tc.colSpan = cs;
              if (rs > 1) tc.rowSpan = rs;
              row.push(tc);
            }
          }
          rows.push(row);
        } else if (isRowGroup(c, LOCAL_NAMES)) visit(c);
      }
    };
    visit(table);
    // Trailing empty cells of repeated columns carry nothing.
    const width = Math.max(
      0,
      ...rows.map((r) => {
        let w = r.length;
        while (w > 0 && !r[w - 1]!.content.length) w--;
        return w;
      }),
    );
    const trimmed = rows.map((r) => r.slice(0, Math.max(width, 1))).filter((r) => r.some((c) => c.content.length));
    return trimmed.length ? [{ kind: 'table', rows: trimmed }] : [];
  }

  /** An embedded object: a chart's title and data table. */
  private object(object: XmlElement): Node[] {
    const href = (attr(object, 'href') ?? '').replace(/^\.\//, '').replace(/\/$/, '');
    if (!href) return [];
    const root = this.safeXml(`${href}/content.xml`);
    // office:body > office:chart > chart:chart: the inner element holds the title and plot area.
    const charts = descendants(child(root, 'body'), 'chart');
    const chart = charts.find((c) => child(c, 'plot-area') || child(c, 'title')) ?? charts[charts.length - 1];
    if (!chart) return [];
    const nodes: Node[] = [];
    const title = textOf(child(chart, 'title')).trim();
    if (title) nodes.push({ kind: 'paragraph', content: [{ type: 'text', text: title, bold: true }] });
    const table = descendants(chart, 'table')[0];
    if (table) nodes.push(...this.table(table));
    return nodes;
  }
}

export function readOdp(ctx: ReaderContext): DocModel {
  const zip = ZipPackage.open(ctx.bytes);
  return new OdpReader(zip, ctx).read();
}
