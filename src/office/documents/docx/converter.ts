/**
 * WordprocessingML content to the document model: paragraphs, tables, runs, fields, notes and
 * comments, pictures, drawings and text boxes.
 */
import { ParseError } from '../../../errors.js';
import type { DocBlock, Inline, Node, TableCell, TextInline } from '../../../model/document.js';
import type { BlockType } from '../../../types.js';
import { ZipPackage } from '../../../containers/zip.js';
import { child, children, find, textContent, type XmlElement } from '../../package/xml.js';
import {
  BlockSink,
  blocksToCellInlines,
  boundTable,
  cell,
  CODE_STYLE,
  compactSpans,
  dropPageNumbers,
  imageSrc,
  isBlank,
  mimeOf,
  QUOTE_STYLE,
  trimInlines,
  withAuthor,
} from '../common.js';
import { ommlToLatex } from '../omml.js';
import { symbolChar, symbolFontOf, symbolRunText } from '../symbol-fonts.js';
import { Numbering } from './numbering.js';
import { parse, type Rel, tolerantText, readRels, attr, wval } from './package.js';
import { runPropsOf, type RunProps, Styles } from './styles.js';

// ---------------------------------------------------------------- conversion

export interface Field {
  instr: string;
  result: boolean;
  href?: string;
  /** Page numbers and counts mean nothing without pages: their text is left out. */
  hidden?: boolean;
}

export const PAGE_FIELD = /^\s*(PAGE|NUMPAGES|SECTIONPAGES|PAGEREF)\b/i;

export interface InlineResult {
  inlines: Inline[];
  /** Blocks anchored in the paragraph (text boxes), emitted after it. */
  floats: Node[];
  /** Display equations (oMathPara). */
  display: string[];
}

export interface PartCtx {
  part: string;
  rels: Map<string, Rel>;
}

export class DocxConverter {
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
export function findAll(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) out.push(c);
    if (c.name !== 'w:txbxContent') findAll(c, name, out);
  }
  return out;
}

export function rowsOf(tbl: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of children(tbl)) {
    if (c.name === 'w:tr') out.push(c);
    else if (c.name === 'w:sdt') out.push(...rowsOf(child(c, 'w:sdtContent') ?? c));
    else if (c.name === 'w:customXml' || c.name === 'w:ins') out.push(...rowsOf(c));
  }
  return out;
}

export function cellsOf(tr: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of children(tr)) {
    if (c.name === 'w:tc') out.push(c);
    else if (c.name === 'w:sdt') out.push(...cellsOf(child(c, 'w:sdtContent') ?? c));
    else if (c.name === 'w:customXml') out.push(...cellsOf(c));
  }
  return out;
}

/** The external target of a HYPERLINK field instruction; internal (\l) links give none. */
export function hyperlinkOf(instr: string): string | undefined {
  const m = /^\s*HYPERLINK\s+(.*)$/is.exec(instr);
  if (!m) return undefined;
  const args = m[1]!;
  const quoted = /^"([^"]*)"/.exec(args.trim()) ?? /^(\S+)/.exec(args.trim());
  if (!quoted || quoted[1]!.startsWith('\\')) return undefined;
  const anchor = /\\l\s+"([^"]*)"/.exec(args);
  return quoted[1]! + (anchor ? `#${anchor[1]}` : '');
}

/** Tabs written as the marker `dropPageNumbers` looks for. */
export function tabsMarked(inlines: Inline[]): Inline[] {
  return inlines.map((i) =>
    i.type === 'text' && i.text.includes('\t') ? { ...i, text: i.text.replace(/\t/g, '\u0000') } : i,
  );
}

/** Tabs become spaces; runs of spaces collapse (markdown would collapse them anyway). */
export function mergeSpaces(inlines: Inline[]): Inline[] {
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

export function sameMarks(a: TextInline, b: TextInline): boolean {
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
