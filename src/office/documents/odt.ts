/**
 * OpenDocument text (.odt) → document model, with the same conventions as Word: headings from
 * `text:h` outline levels (or heading/title paragraph styles), nested lists numbered or bulleted as
 * their list style says, tables with spans, bold/italic/strike/super/subscript from the automatic
 * and named text styles, links, footnotes and endnotes as GFM notes, annotations (comments) as notes
 * after them, frames (images with their title/description as alt text, text boxes after the paragraph
 * that anchors them), headers of the master pages before the body and footers after it.
 */
import { ParseError } from '../../errors.js';
import type { DocBlock, DocModel, Inline, Node, TableCell, TextInline } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
import type { BlockType } from '../../types.js';
import { ZipPackage } from '../../containers/zip.js';
import { child, children, OFFICE_NAMESPACES, parseXml, textContent, type XmlElement } from '../package/xml.js';
import {
  BlockSink,
  blocksToCellInlines,
  boundTable,
  cell,
  collapseSpaces,
  compactSpans,
  dropPageNumbers,
  imageSrc,
  isBlank,
  mimeOf,
  trimInlines,
  withAuthor,
} from './common.js';
import { symbolFontOf, symbolText, type SymbolFont } from './symbol-fonts.js';
import { RESOLVED_NAMES } from '../odf/names.js';
import { isEncrypted, ODF_PARTS, optionalPartText } from '../odf/package.js';
import { styleDeclarations } from '../odf/styles.js';
import { cellSpans, countAttr, fontFlags, isRowGroup, readInlines } from '../odf/text.js';

/** Rows or columns one repeated table row or cell yields at most (writers repeat empty ones to the sheet's end). */
const MAX_TABLE_REPEAT = 100;

/** Inline elements left out with their content: page fields (no page here), tracked changes, marks. */
const LEFT_OUT = [
  'text:page-number',
  'text:page-count',
  'text:page-continuation',
  'text:tracked-changes',
  'text:bookmark',
  'text:bookmark-start',
  'text:bookmark-end',
  'text:soft-page-break',
  'text:reference-mark',
];

const KEEP_WS = new Set(['text:p', 'text:h', 'text:span', 'text:a', 'text:note-citation']);

/** Layout properties and declarations the reader never looks at: not built at all. */
const IGNORE = new Set([
  'office:settings',
  'office:scripts',
  'office:forms',
  'text:sequence-decls',
  'text:variable-decls',
  'text:user-field-decls',
  'style:paragraph-properties',
  'style:table-properties',
  'style:table-column-properties',
  'style:table-row-properties',
  'style:table-cell-properties',
  'style:graphic-properties',
  'style:list-level-properties',
  'style:page-layout',
  'style:default-style',
  'table:table-column',
  'table:table-columns',
  'text:bookmark',
  'text:bookmark-start',
  'text:bookmark-end',
  'text:soft-page-break',
  'number:number-style',
  'number:date-style',
  'number:time-style',
  'number:currency-style',
  'number:percentage-style',
  'number:boolean-style',
  'number:text-style',
  'style:drawing-page-properties',
  'style:header-style',
  'style:footer-style',
  'text:notes-configuration',
  'text:linenumbering-configuration',
  'text:outline-style',
  'draw:fill-image',
  'draw:marker',
  'draw:stroke-dash',
  'draw:gradient',
  'draw:hatch',
  'office:event-listeners',
  'svg:desc_',
]);

/** OpenDocument text parts are read as far as they go; a bad character reference shows as U+FFFD. */
function parse(text: string): XmlElement {
  return parseXml(text, {
    namespaces: OFFICE_NAMESPACES,
    keepWhitespaceIn: KEEP_WS,
    ignore: IGNORE,
    onBadTag: 'tolerate',
    invalidCharRefs: 'replace',
  });
}

interface TextStyle {
  parent?: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  position?: 'super' | 'sub';
  code?: boolean;
  /** The font (a font face name or a family), as the style sets it. */
  font?: string;
  /** Hidden text (text:display="none"): left out. */
  hidden?: boolean;
  /** Resolved from `font`: a symbol font whose codes are glyphs (Symbol, Wingdings). */
  symbol?: SymbolFont | undefined;
}

interface ParaStyle {
  parent?: string;
  display: string;
  outline?: number;
  listStyle?: string;
}

type ListLevels = Map<number, { ordered: boolean; start: number }>;

class OdfStyles {
  readonly text = new Map<string, TextStyle>();
  /** Font face declarations: face name → font family. */
  readonly faces = new Map<string, string>();
  readonly para = new Map<string, ParaStyle>();
  readonly lists = new Map<string, ListLevels>();

  /** Automatic paragraph styles: direct formatting of a paragraph, as opposed to named styles. */
  readonly automatic = new Set<string>();

  addFontFaces(container: XmlElement | undefined): void {
    for (const f of children(container, 'style:font-face')) {
      const name = f.attrs['style:name'];
      if (name) this.faces.set(name, (f.attrs['svg:font-family'] ?? name).replace(/^['"]|['"]$/g, ''));
    }
  }

  add(container: XmlElement | undefined, automatic = false): void {
    for (const d of styleDeclarations(container, RESOLVED_NAMES)) {
      const s = d.el;
      if (d.kind === 'style') {
        const name = d.name ?? '';
        const family = d.family;
        const tp = d.textProperties;
        const ts: TextStyle = {};
        if (d.parent) ts.parent = d.parent;
        if (tp) {
          Object.assign(ts, fontFlags(tp, RESOLVED_NAMES));
          const pos = tp.attrs['style:text-position'];
          if (pos) {
            if (/^super|^\d+%|^[1-9]/.test(pos) && !/^-/.test(pos))
              ts.position = pos.startsWith('sub') ? 'sub' : 'super';
            if (pos.startsWith('sub') || pos.startsWith('-')) ts.position = 'sub';
            if (pos.startsWith('0%') || pos === '0') delete ts.position;
          }
          const font = tp.attrs['style:font-name'] ?? tp.attrs['fo:font-family'];
          if (font) ts.font = font;
          const display = tp.attrs['text:display'];
          if (display) ts.hidden = display === 'none';
        }
        if (family === 'text' || family === 'paragraph') this.text.set(`${family}:${name}`, ts);
        if (automatic && family === 'paragraph') this.automatic.add(name);
        if (family === 'paragraph') {
          const ps: ParaStyle = { display: (s.attrs['style:display-name'] ?? name).toLowerCase() };
          if (d.parent) ps.parent = d.parent;
          const ol = s.attrs['style:default-outline-level'];
          if (ol) ps.outline = Number(ol);
          if (s.attrs['style:list-style-name']) ps.listStyle = s.attrs['style:list-style-name'];
          this.para.set(name, ps);
        }
        if (/code|source|preformatted|teletype/i.test(name) && family === 'text') ts.code = true;
      } else if (d.kind === 'list-style') {
        const levels: ListLevels = new Map();
        for (const l of children(s)) {
          const level = Number(l.attrs['text:level'] ?? 1);
          if (l.name === 'text:list-level-style-number') {
            const fmt = l.attrs['style:num-format'] ?? '1';
            levels.set(level, { ordered: fmt !== '', start: Number(l.attrs['text:start-value'] ?? 1) });
          } else levels.set(level, { ordered: false, start: 1 });
        }
        this.lists.set(d.name ?? '', levels);
      }
    }
  }

  private readonly propsCache = new Map<string, TextStyle>();

  textProps(family: 'text' | 'paragraph', name: string | undefined): TextStyle {
    const key = `${family}:${name ?? ''}`;
    let cached = this.propsCache.get(key);
    if (!cached) this.propsCache.set(key, (cached = this.computeTextProps(family, name)));
    return cached;
  }

  /** Text properties an automatic paragraph style sets itself (not those of its named parent). */
  ownTextProps(name: string): TextStyle {
    const own = { ...(this.text.get(`paragraph:${name}`) ?? {}) };
    delete own.parent;
    if (own.font !== undefined) own.symbol = this.symbolFont(own.font);
    return own;
  }

  /** The symbol font a style's font stands for (a face name is looked up in the declarations). */
  private symbolFont(font: string): SymbolFont | undefined {
    return symbolFontOf(this.faces.get(font) ?? font.replace(/^['"]|['"]$/g, ''));
  }

  private computeTextProps(family: 'text' | 'paragraph', name: string | undefined): TextStyle {
    const out: TextStyle = {};
    const chain: TextStyle[] = [];
    let cur = name;
    for (let i = 0; cur && i < 20; i++) {
      const s = this.text.get(`${family}:${cur}`);
      if (!s) break;
      chain.push(s);
      cur = s.parent;
    }
    for (const s of chain.reverse()) {
      for (const k of ['bold', 'italic', 'strike', 'position', 'code', 'font', 'hidden'] as const)
        if (s[k] !== undefined) (out as Record<string, unknown>)[k] = s[k];
    }
    // Set even when not a symbol font: a span's own font replaces the one around it.
    if (out.font !== undefined) out.symbol = this.symbolFont(out.font);
    return out;
  }

  paraChain(name: string | undefined): ParaStyle[] {
    const out: ParaStyle[] = [];
    let cur = name;
    for (let i = 0; cur && i < 20; i++) {
      const s = this.para.get(cur);
      if (!s) break;
      out.push(s);
      cur = s.parent;
    }
    return out;
  }

  headingLevel(name: string | undefined): number | undefined {
    for (const s of this.paraChain(name)) {
      const m = /^heading[ _]?(\d)$/.exec(s.display);
      if (m) return Number(m[1]);
      if (s.display === 'title') return 1;
    }
    return undefined;
  }

  isCode(name: string | undefined): boolean {
    return this.paraChain(name).some((s) => /preformatted|source text|code/.test(s.display));
  }

  isQuote(name: string | undefined): boolean {
    return this.paraChain(name).some((s) => /^quotations?$|^quote$/.test(s.display));
  }
}

interface Out {
  inlines: Inline[];
  floats: Node[];
}

class OdtConverter {
  private noteCounter = 0;
  private commentCounter = 0;
  readonly notes: DocBlock[] = [];
  readonly comments: DocBlock[] = [];
  readonly links: string[] = [];
  readonly images: string[] = [];
  private steps = 0;
  /** Inside a generated index (table of contents): entries end with a tab and a page number. */
  private inIndex = false;
  /** Next number of each list style, for lists that continue an earlier one. */
  private readonly listCounters = new Map<string, number>();
  /** Names of the commented ranges that have an end (office:annotation-end) in the document. */
  annotationEnds = new Set<string>();
  /** Comments on a range whose end is still to come: range name → note label. */
  private readonly openAnnotations = new Map<string, string>();

  constructor(
    private readonly zip: ZipPackage,
    private readonly styles: OdfStyles,
    private readonly removeBase64: boolean,
    private readonly deadline: number,
  ) {}

  private tick(): void {
    if ((++this.steps & 1023) === 0 && Date.now() > this.deadline) {
      throw new ParseError('TIMEOUT', 'The document could not be converted within the time limit.');
    }
  }

  blocks(
    container: XmlElement | undefined,
    sink: BlockSink,
    type?: BlockType,
    listCtx?: { style: string | undefined; level: number },
  ): void {
    for (const el of children(container)) {
      this.tick();
      const extra = type ? { type } : undefined;
      switch (el.name) {
        case 'text:h':
        case 'text:p': {
          const out: Out = { inlines: [], floats: [] };
          const styleName = el.attrs['text:style-name'];
          // Emphasis set on a whole paragraph counts when it is direct formatting (an automatic style),
          // not when it comes with a named style (table headings, contents entries), as for Word.
          const base = styleName && this.styles.automatic.has(styleName) ? this.styles.ownTextProps(styleName) : {};
          this.inlines(el, out, base);
          const content = trimInlines(collapseSpaces(this.inIndex ? dropPageNumbers(out.inlines) : out.inlines));
          if (!isBlank(content)) {
            let level: number | undefined;
            if (el.name === 'text:h') level = Number(el.attrs['text:outline-level'] ?? 1) || 1;
            else level = this.styles.headingLevel(styleName);
            // A text:h is a heading also inside a list (headings numbered through a list style); a
            // paragraph with a heading style there stays a list item.
            if (level !== undefined && !type && (!listCtx || el.name === 'text:h')) {
              sink.add(
                {
                  kind: 'heading',
                  level: Math.min(6, Math.max(1, level)) as 1,
                  content: content.map((i) => (i.type === 'text' && i.bold ? { ...i, bold: false } : i)),
                },
                extra,
              );
            } else if (this.styles.isCode(styleName)) sink.addCodeLine(content, extra);
            else if (this.styles.isQuote(styleName)) sink.addQuoteParagraph(content, extra);
            else sink.add({ kind: 'paragraph', content }, extra);
          }
          for (const f of out.floats) sink.add(f, extra);
          break;
        }
        case 'text:list':
          this.list(el, sink, type, listCtx);
          break;
        case 'text:numbered-paragraph':
          this.numberedParagraph(el, sink, type, listCtx);
          break;
        case 'table:table':
          this.table(el, sink, type);
          break;
        case 'text:index-body': {
          const was = this.inIndex;
          this.inIndex = true;
          this.blocks(el, sink, type, listCtx);
          this.inIndex = was;
          break;
        }
        case 'text:section':
        case 'text:table-of-content':
        case 'text:alphabetical-index':
        case 'text:illustration-index':
        case 'text:table-index':
        case 'text:bibliography':
        case 'text:user-index':
        case 'text:object-index':
        case 'office:text':
        case 'text:change':
          this.blocks(el, sink, type, listCtx);
          break;
        case 'draw:frame':
        case 'draw:a':
        case 'draw:g':
        case 'draw:custom-shape':
        case 'draw:rect': {
          const out: Out = { inlines: [], floats: [] };
          this.drawing(el, out);
          const content = trimInlines(out.inlines);
          if (!isBlank(content)) sink.add({ kind: 'paragraph', content }, extra);
          for (const f of out.floats) sink.add(f, extra);
          break;
        }
        default:
          break;
      }
    }
  }

  private list(
    el: XmlElement,
    sink: BlockSink,
    type: BlockType | undefined,
    parent?: { style: string | undefined; level: number },
  ): void {
    const style = el.attrs['text:style-name'] ?? parent?.style;
    const level = parent ? parent.level + 1 : 0;
    const levels = style ? this.styles.lists.get(style) : undefined;
    const info = levels?.get(level + 1) ?? { ordered: false, start: 1 };
    let n = info.start;
    // A list that continues the numbering of the previous list with its style starts after it.
    const continues =
      !parent && style && (el.attrs['text:continue-numbering'] === 'true' || el.attrs['text:continue-list']);
    if (continues && this.listCounters.has(style)) n = this.listCounters.get(style)!;
    for (const item of children(el)) {
      if (item.name !== 'text:list-item' && item.name !== 'text:list-header') continue;
      const inner = new BlockSink();
      // Paragraphs of the item: the first becomes the item's text, nested lists its children.
      const first: Inline[] = [];
      const rest: Node[] = [];
      // A heading numbered through the list (its own or one of a deeper list) leaves the list: it and
      // everything after it in the item are blocks of their own.
      let after: Node[] | undefined;
      let ownHeading = false;
      const take = (node: Node): void => {
        if (after) after.push(node);
        else if (node.kind === 'heading') after = [node];
        else if (first.length === 0 && rest.length === 0 && node.kind === 'paragraph') first.push(...node.content);
        else rest.push(node);
      };
      const startValue = item.attrs['text:start-value'];
      if (startValue) n = Number(startValue) || n;
      for (const c of children(item)) {
        if (c.name === 'text:list') {
          const sub = new BlockSink();
          this.list(c, sub, type, { style, level });
          for (const node of sub.nodes()) take(node);
        } else {
          inner.blocks.length = 0;
          this.blocks({ name: '#', local: '#', attrs: {}, children: [c] }, inner, type, { style, level });
          for (const node of inner.nodes()) {
            if (!after && node.kind === 'heading') ownHeading = true;
            take(node);
          }
        }
      }
      let numbered = false;
      if (first.length === 0 && (item.name === 'text:list-header' || rest.every((r) => r.kind === 'list'))) {
        // An item that only holds a deeper list: its sub-lists continue at their own level.
        for (const r of rest) if (r.kind === 'list') sink.add(r);
      } else if (first.length || rest.length) {
        sink.addListItem(level, info.ordered, info.ordered ? n : undefined, first, rest);
        numbered = true;
      }
      if (after) for (const node of after) sink.add(node);
      // A heading item takes its number too: the items after it keep theirs.
      if (numbered || ownHeading) n++;
    }
    if (!parent) {
      sink.endList();
      if (style) this.listCounters.set(style, n);
    }
  }

  /**
   * A paragraph numbered on its own (text:numbered-paragraph): a list item at its level, numbered as
   * its formatted number (text:number) says; a heading stays a heading, its number text in front.
   */
  private numberedParagraph(
    el: XmlElement,
    sink: BlockSink,
    type: BlockType | undefined,
    listCtx?: { style: string | undefined; level: number },
  ): void {
    const level = Math.min(8, Math.max(0, (Number(el.attrs['text:level'] ?? 1) || 1) - 1));
    const number = textContent(child(el, 'text:number')).trim();
    const inner = new BlockSink();
    this.blocks(el, inner, type, listCtx);
    const nodes = inner.nodes();
    const head = nodes[0];
    const extra = type ? { type } : undefined;
    if (head?.kind === 'heading' && number) head.content = [{ type: 'text', text: `${number} ` }, ...head.content];
    const style = el.attrs['text:style-name'];
    const info = style ? this.styles.lists.get(style)?.get(level + 1) : undefined;
    if (head?.kind !== 'paragraph' || type || (!info && !number)) {
      for (const node of nodes) sink.add(node, extra);
      return;
    }
    const ordered = info ? info.ordered : /\d/.test(number);
    let n: number | undefined;
    if (ordered) {
      const key = el.attrs['text:list-id'] ?? style ?? '';
      const written = /(\d+)\D*$/.exec(number);
      n = written
        ? Number(written[1])
        : Number(el.attrs['text:start-value'] ?? 0) || (this.numberedCounters.get(key) ?? info?.start ?? 1);
      this.numberedCounters.set(key, n + 1);
    }
    sink.addListItem(level, ordered, n, head.content, nodes.slice(1));
  }

  /** Next number of each list of numbered paragraphs (by list id). */
  private readonly numberedCounters = new Map<string, number>();

  private table(tbl: XmlElement, sink: BlockSink, type?: BlockType): void {
    const rows: TableCell[][] = [];
    const nodesOfCells: Node[][] = [];
    const collectRows = (el: XmlElement): void => {
      for (const c of children(el)) {
        if (c.name === 'table:table-row') {
          const repeat = Math.min(countAttr(c.attrs['table:number-rows-repeated']), MAX_TABLE_REPEAT);
          const row: TableCell[] = [];
          for (const tc of children(c)) {
            const rep = Math.min(countAttr(tc.attrs['table:number-columns-repeated']), MAX_TABLE_REPEAT);
            if (tc.name === 'table:covered-table-cell') continue;
            if (tc.name !== 'table:table-cell') continue;
            const inner = new BlockSink();
            this.blocks(tc, inner, type);
            const nodes = inner.nodes();
            nodesOfCells.push(nodes);
            const content = blocksToCellInlines(nodes);
            const { cs, rs } = cellSpans(tc, RESOLVED_NAMES);
            for (let k = 0; k < rep; k++) row.push(cell(content, cs, rs));
          }
          for (let k = 0; k < repeat; k++) rows.push(row);
        } else if (isRowGroup(c, RESOLVED_NAMES)) collectRows(c);
      }
    };
    collectRows(tbl);
    // Trailing empty rows and columns are layout, not data.
    while (rows.length && rows[rows.length - 1]!.every((c) => isBlank(c.content))) rows.pop();
    if (rows.length === 0) return;
    const extra = type ? { type } : undefined;
    if (rows.length === 1 && rows[0]!.length === 1) {
      for (const n of nodesOfCells[0] ?? []) sink.add(n, extra);
      return;
    }
    compactSpans(rows);
    sink.add({ kind: 'table', rows: boundTable(rows) }, extra);
  }

  private inlines(el: XmlElement, out: Out, marks: TextStyle, href?: string): void {
    const push = (text: string): void => {
      const t: TextInline = { type: 'text', text };
      if (marks.bold) t.bold = true;
      if (marks.italic) t.italic = true;
      if (marks.strike) t.strike = true;
      if (marks.code) t.code = true;
      if (marks.position === 'super') t.superscript = true;
      if (marks.position === 'sub') t.subscript = true;
      if (href) t.href = href;
      out.inlines.push(t);
    };
    readInlines(el, RESOLVED_NAMES, {
      text: (c) => {
        let t = /[\r\n\t]/.test(c) ? c.replace(/[\r\n\t]+/g, ' ') : c;
        if (marks.symbol) t = symbolText(marks.symbol, t);
        // A soft hyphen shows only where a line is broken (as Word's w:softHyphen and RTF's \-).
        if (t.includes('\u00ad')) t = t.replace(/\u00ad/g, '');
        if (t) push(t);
      },
      spaces: push,
      tab: () => push(this.inIndex ? '\u0000' : ' '),
      lineBreak: () => out.inlines.push({ type: 'break' }),
      leftOut: LEFT_OUT,
      // Fields (page numbers, dates, references, ...) and other elements show their current text.
      element: (c) => this.inlineElement(c, out, marks, href, push),
    });
  }

  /** The inline elements the text reader reads itself; false for the others. */
  private inlineElement(
    c: XmlElement,
    out: Out,
    marks: TextStyle,
    href: string | undefined,
    push: (text: string) => void,
  ): boolean {
    switch (c.name) {
      case 'text:span': {
        const props = { ...marks, ...this.styles.textProps('text', c.attrs['text:style-name']) };
        if (props.hidden) return true;
        this.inlines(c, out, props, href);
        return true;
      }
      case 'text:a': {
        const target = c.attrs['xlink:href'];
        const link = target && !target.startsWith('#') ? target : undefined;
        if (link && !this.links.includes(link)) this.links.push(link);
        this.inlines(c, out, { ...marks, ...this.styles.textProps('text', c.attrs['text:style-name']) }, link ?? href);
        return true;
      }
      case 'text:note': {
        const body = child(c, 'text:note-body');
        const label = String(++this.noteCounter);
        const sink = new BlockSink();
        this.blocks(body, sink);
        const nodes = sink.nodes();
        this.notes.push({
          node: { kind: 'note', label, children: nodes.length ? nodes : [{ kind: 'paragraph', content: [] }] },
        });
        out.inlines.push({ type: 'noteRef', label });
        return true;
      }
      case 'office:annotation': {
        const label = `comment-${++this.commentCounter}`;
        const sink = new BlockSink();
        this.blocks(c, sink);
        const nodes = withAuthor(sink.nodes(), textContent(child(c, 'dc:creator')).trim());
        this.comments.push({
          node: { kind: 'note', label, children: nodes.length ? nodes : [{ kind: 'paragraph', content: [] }] },
        });
        // A comment on a range is referenced where the range ends, as Word places it.
        const name = c.attrs['office:name'];
        if (name && this.annotationEnds.has(name)) this.openAnnotations.set(name, label);
        else out.inlines.push({ type: 'noteRef', label });
        return true;
      }
      case 'office:annotation-end': {
        const name = c.attrs['office:name'] ?? '';
        const label = this.openAnnotations.get(name);
        if (label) {
          this.openAnnotations.delete(name);
          out.inlines.push({ type: 'noteRef', label });
        }
        return true;
      }
      case 'draw:frame':
      case 'draw:a':
      case 'draw:g':
      case 'draw:custom-shape':
      case 'draw:rect':
        this.drawing(c, out);
        return true;
      case 'text:ruby':
        this.inlines(child(c, 'text:ruby-base') ?? c, out, marks, href);
        return true;
      case 'text:number': {
        // A heading's formatted number, written in the document: kept, apart from the text.
        const number = textContent(c).trim();
        if (number) push(`${number} `);
        return true;
      }
      default:
        return false;
    }
  }

  private drawing(el: XmlElement, out: Out): void {
    const alt = (textContent(child(el, 'svg:desc')) || textContent(child(el, 'svg:title')) || '').trim();
    for (const c of children(el)) {
      if (c.name === 'draw:image') {
        const href = c.attrs['xlink:href'];
        if (href === undefined) continue;
        let src = href;
        if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) {
          const path = href.replace(/^\.\//, '');
          if (this.zip.has(path)) {
            let bytes: Uint8Array | undefined = new Uint8Array(0);
            if (!this.removeBase64) {
              try {
                bytes = this.zip.read(path);
              } catch {
                bytes = undefined;
              }
            }
            src = imageSrc(mimeOf(path), bytes, this.removeBase64);
          }
        }
        this.images.push(src);
        out.inlines.push({ type: 'image', alt, src });
        // One frame may offer the same picture in several formats: the first is enough.
        break;
      } else if (c.name === 'draw:text-box' || c.name === 'draw:custom-shape' || c.name === 'draw:rect') {
        const sink = new BlockSink();
        this.blocks(c, sink);
        out.floats.push(...sink.nodes());
      } else if (c.name === 'draw:frame' || c.name === 'draw:g' || c.name === 'draw:a') {
        this.drawing(c, out);
      } else if (c.name === 'text:p' || c.name === 'text:list') {
        const sink = new BlockSink();
        this.blocks({ name: '#', local: '#', attrs: {}, children: [c] }, sink);
        out.floats.push(...sink.nodes());
      }
    }
  }
}

/** Names of the office:annotation-end elements under `el`: the commented ranges that have an end. */
function annotationEndNames(el: XmlElement | undefined, out = new Set<string>()): Set<string> {
  for (const c of children(el)) {
    if (c.name === 'office:annotation-end') {
      const name = c.attrs['office:name'];
      if (name) out.add(name);
    } else annotationEndNames(c, out);
  }
  return out;
}

export function readOdt(ctx: ReaderContext): DocModel {
  const zip = ZipPackage.open(ctx.bytes);
  const contentText = zip.text(ODF_PARTS.content);
  if (contentText === undefined) throw new ParseError('MALFORMED', 'The OpenDocument package has no content.xml.');
  if (isEncrypted(zip)) {
    throw new ParseError('ENCRYPTED', 'The OpenDocument file is password protected.');
  }
  const warnings: string[] = [];
  // Damaged optional parts (styles, metadata) are left out with a warning; the text is still read.
  const optional = (name: string): string | undefined => optionalPartText(zip, name, warnings);
  const styles = new OdfStyles();
  const stylesText = optional(ODF_PARTS.styles);
  const stylesRoot = stylesText ? parse(stylesText) : undefined;
  const stylesDoc = child(stylesRoot, 'office:document-styles');
  styles.addFontFaces(child(stylesDoc, 'office:font-face-decls'));
  styles.add(child(stylesDoc, 'office:styles'));
  styles.add(child(stylesDoc, 'office:automatic-styles'), true);
  const content = child(parse(contentText), 'office:document-content');
  styles.addFontFaces(child(content, 'office:font-face-decls'));
  styles.add(child(content, 'office:automatic-styles'), true);
  const text = child(child(content, 'office:body'), 'office:text');
  if (!text)
    throw new ParseError('MALFORMED', 'The OpenDocument file has no text body (is it a spreadsheet or presentation?).');

  const conv = new OdtConverter(zip, styles, ctx.options.removeBase64Images, ctx.deadline);
  const body = new BlockSink();
  conv.annotationEnds = annotationEndNames(text);
  conv.blocks(text, body);

  const furniture = (kind: 'header' | 'footer'): DocBlock[] => {
    const out: DocBlock[] = [];
    const seen = new Set<string>();
    for (const mp of children(child(stylesDoc, 'office:master-styles'), 'style:master-page')) {
      for (const name of kind === 'header'
        ? ['style:header-first', 'style:header', 'style:header-left']
        : ['style:footer-first', 'style:footer', 'style:footer-left']) {
        const part = child(mp, name);
        if (!part || part.attrs['style:display'] === 'false') continue;
        const sink = new BlockSink();
        conv.blocks(part, sink, kind === 'header' ? 'page_header' : 'page_footer');
        const key = JSON.stringify(sink.nodes());
        if (sink.blocks.length === 0 || seen.has(key)) continue;
        seen.add(key);
        out.push(...sink.blocks);
      }
    }
    return out;
  };
  const headers = furniture('header');
  const footers = furniture('footer');

  const metadata: DocModel['metadata'] = {};
  const metaText = optional(ODF_PARTS.meta);
  if (metaText) {
    const meta = child(child(parse(metaText), 'office:document-meta'), 'office:meta');
    const pick = (name: string, key: string): void => {
      const v = textContent(child(meta, name)).trim();
      if (v) metadata[key] = v;
    };
    pick('dc:title', 'title');
    pick('dc:subject', 'subject');
    pick('dc:description', 'description');
    pick('dc:language', 'language');
    pick('meta:initial-creator', 'author');
    pick('dc:creator', 'lastModifiedBy');
    pick('meta:creation-date', 'created');
    pick('dc:date', 'modified');
    const kw = children(meta, 'meta:keyword')
      .map((k) => textContent(k).trim())
      .filter(Boolean);
    if (kw.length) metadata.keywords = kw.join(', ');
  }
  return {
    contentType: ctx.contentType,
    pages: [
      {
        pageNumber: 1,
        width: null,
        height: null,
        status: warnings.length ? 'partial' : 'ok',
        blocks: [...headers, ...body.blocks, ...footers, ...conv.notes, ...conv.comments],
      },
    ],
    metadata,
    warnings,
    links: conv.links,
    images: conv.images,
  };
}
