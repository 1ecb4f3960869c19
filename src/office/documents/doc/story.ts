/**
 * One story of a Word 97-2003 document (the main text, a header, a note, a text box) read character
 * by character into blocks: fields, tables (nested ones too), drop caps, notes, pictures and drawn
 * objects. The document reader supplies what the story's characters refer to.
 */
import { ParseError } from '../../../errors.js';
import type { DocBlock, Inline, Node, TableCell, TextInline } from '../../../model/document.js';
import type { BlockType } from '../../../types.js';
import {
  BlockSink,
  blocksToCellInlines,
  boundTable,
  buildTable,
  cell,
  collapseSpaces,
  compactSpans,
  dropPageNumbers,
  isBlank,
  trimInlines,
  type RawRow,
} from '../common.js';
import type { FloatingShape } from '../doc-drawings.js';
import type { CharProps, ParaProps } from './properties.js';

/** A note or comment reference: its story's CP range, and for a comment its author when known. */
export interface NoteRef {
  kind: 'footnote' | 'endnote' | 'comment';
  start: number;
  end: number;
  author?: string;
}

export interface Story {
  text: string;
  /** Character properties per character (index into `charProps`). */
  chars: Uint32Array;
  /** FC of each character, for paragraph property lookups. */
  fcs: Float64Array;
  /** Bytes of each character in the WordDocument stream: 1 (compressed piece) or 2. */
  widths: Uint8Array;
}

/** What a story's characters refer to, supplied by the document reader. */
export interface StoryHost {
  readonly deadline: number;
  readonly charProps: CharProps[];
  readonly links: string[];
  readonly usedRefs: Set<number>;
  readonly tocStyles: Set<number>;
  readonly textboxes: { start: number; end: number }[];
  nextTextbox: number;
  readonly floating: Map<number, FloatingShape>;
  story(cpStart: number, cpEnd: number): Story;
  paraAt(fc: number): ParaProps;
  endsParagraph(fc: number, width: number): boolean;
  styleHeading(istd: number): number;
  fontText(cp: CharProps, text: string): string;
  symbol(ftc: number, code: number): string;
  note(ref: NoteRef, refs: Map<number, NoteRef>): string;
  picture(offset: number): Inline | undefined;
  imageIn(region: Uint8Array): Inline | undefined;
  addParagraph(sink: BlockSink, content: Inline[], props: ParaProps): void;
  /** The blocks of another story (a text box, a note), read with the same references. */
  blocks(cpStart: number, cpEnd: number, refs: Map<number, NoteRef>, type?: BlockType): DocBlock[];
}

/** A table being read: the blocks of its open cell, the cells of its open row, its finished rows. */
export interface TableLevel {
  cell: BlockSink;
  row: TableCell[];
  raw: RawRow[];
}

/**
 * The blocks a finished table becomes: the table, or the content of its one cell (a frame, not
 * data), or nothing when every cell is empty.
 */
export function tableNodes(raw: RawRow[]): Node[] {
  const rows = buildTable(raw);
  compactSpans(rows);
  if (!rows.length || rows.every((r) => r.every((c) => isBlank(c.content)))) return [];
  if (rows.length === 1 && rows[0]!.length === 1) return [{ kind: 'paragraph', content: rows[0]![0]!.content }];
  return [{ kind: 'table', rows: boundTable(rows) }];
}

/** A finished row with its edges; horizontally merged (old-style) cells widen the cell before them. */
export function rowOf(cells: TableCell[], props: ParaProps): RawRow {
  if (!props.bounds || props.bounds.length !== cells.length + 1) return { cells };
  const out: TableCell[] = [];
  const bounds: number[] = [props.bounds[0]!];
  const vmerge: RawRow['vmerge'] = [];
  cells.forEach((c, k) => {
    if (props.hmerged?.[k] && out.length) {
      bounds[bounds.length - 1] = props.bounds![k + 1]!;
      return;
    }
    out.push(c);
    bounds.push(props.bounds![k + 1]!);
    vmerge.push(props.vmerge?.[k] ?? 'none');
  });
  return { cells: out, bounds, vmerge };
}

export class StoryWalker {
  private readonly text: string;
  private readonly chars: Uint32Array;
  private readonly fcs: Float64Array;
  private readonly widths: Uint8Array;
  private readonly sink = new BlockSink();
  private readonly extra: { type: BlockType } | undefined;
  private para: Inline[] = [];
  // Fields: each entry says whether we are past its separator and which link it carries.
  private readonly fields: { result: boolean; instr: string; href?: string; hidden?: boolean }[] = [];
  // Tables being read, outermost first (a table nested in a cell is one level deeper).
  private readonly tables: TableLevel[] = [];
  private buf = '';
  private bufProps: CharProps | undefined;
  private dropCap: Inline[] = [];
  // Drawn-object anchors seen in the current paragraph (main text only).
  private anchors = 0;

  constructor(
    private readonly doc: StoryHost,
    private readonly cpStart: number,
    cpEnd: number,
    private readonly refs: Map<number, NoteRef>,
    private readonly type?: BlockType,
  ) {
    const story = doc.story(cpStart, cpEnd);
    this.text = story.text;
    this.chars = story.chars;
    this.fcs = story.fcs;
    this.widths = story.widths;
    this.extra = type ? { type } : undefined;
  }

  walk(): DocBlock[] {
    const len = this.text.length;
    for (let i = 0; i < len; i++) {
      if ((i & 8191) === 0 && Date.now() > this.doc.deadline)
        throw new ParseError('TIMEOUT', 'The document could not be converted within the time limit.');
      const cp = this.doc.charProps[this.chars[i]!] ?? {};
      const code = this.text.charCodeAt(i);
      // Fast path: a run of ordinary characters with the same properties is taken as one slice.
      if (code >= 0x20 && code !== 0xa0 && !cp.special) i = this.ordinaryRun(i, cp);
      else this.character(i, code, cp);
    }
    if (this.buf || this.para.length) this.endParagraph(this.text.length - 1, false);
    this.closeTables(0);
    return this.sink.blocks;
  }

  /** A run of ordinary characters from `i` with the properties `cp`; returns the index of its last character. */
  private ordinaryRun(i: number, cp: CharProps): number {
    const len = this.text.length;
    const pi = this.chars[i]!;
    let j = i + 1;
    while (j < len && this.chars[j] === pi) {
      const c = this.text.charCodeAt(j);
      if (c < 0x20 || c === 0xa0) break;
      j++;
    }
    const slice = this.text.slice(i, j);
    i = j - 1;
    const top = this.fields[this.fields.length - 1];
    if (top && !top.result) {
      top.instr += slice;
      return i;
    }
    if (!this.visible() || cp.deleted || cp.hidden) return i;
    if (this.bufProps !== cp && this.buf) this.flushText();
    this.bufProps = cp;
    let shown = cp.ftcAscii !== undefined || cp.ftcOther !== undefined ? this.doc.fontText(cp, slice) : slice;
    // A soft hyphen typed as the character (not Word's 0x1F): shown only where a line breaks.
    if (shown.includes('\u00ad')) shown = shown.replace(/\u00ad/g, '');
    this.buf += shown;
    return i;
  }

  /** A control or special character: field marks, paragraph, cell and row ends, breaks, notes, pictures. */
  private character(i: number, code: number, cp: CharProps): void {
    const ch = this.text[i]!;
    if (code === 0x13) {
      this.flushText();
      this.fields.push({ result: false, instr: '' });
      return;
    }
    if (code === 0x14) {
      this.flushText();
      const f = this.fields[this.fields.length - 1];
      if (f) {
        f.result = true;
        const m = /^\s*HYPERLINK\s+(?:"([^"]*)"|(\S+))/i.exec(f.instr);
        const target = m?.[1] ?? m?.[2];
        if (target && !/\\l/.test(f.instr.slice(0, 20))) {
          f.href = target;
          if (!this.doc.links.includes(target)) this.doc.links.push(target);
        }
        if (/^\s*(PAGE|NUMPAGES|SECTIONPAGES|PAGEREF)\b/i.test(f.instr)) f.hidden = true;
      }
      return;
    }
    if (code === 0x15) {
      this.flushText();
      this.fields.pop();
      return;
    }
    const f = this.fields[this.fields.length - 1];
    if (f && !f.result) {
      f.instr += ch;
      return;
    }
    if (!this.visible()) return;
    // A paragraph ends at its mark, a cell or row end mark, or an end-of-section mark (0x0C where a
    // paragraph's properties end; elsewhere 0x0C is a page break).
    if (code === 0x0d || code === 0x07 || (code === 0x0c && this.doc.endsParagraph(this.fcs[i]!, this.widths[i]!))) {
      this.endParagraph(i, code === 0x07);
      return;
    }
    if (cp.deleted || cp.hidden) return;
    let out = ch;
    if (code === 0x0b || code === 0x0c || code === 0x0e) {
      // A line break, or a page or column break inside a paragraph: the text after it starts a new line.
      this.flushText();
      this.para.push({ type: 'break' });
      return;
    }
    if (cp.special || code < 0x20) {
      // Special characters: note references, pictures, drawn objects.
      const ref = this.refs.get(this.cpStart + i);
      if (ref && !this.doc.usedRefs.has(this.cpStart + i) && (code === 0x02 || code === 0x05 || cp.special)) {
        // Each reference is read once: a damaged file whose note points back into itself cannot loop.
        this.doc.usedRefs.add(this.cpStart + i);
        this.flushText();
        const label = this.doc.note(ref, this.refs);
        this.para.push({ type: 'noteRef', label });
        return;
      }
      if (code === 0x01 && cp.pic !== undefined) {
        const img = this.doc.picture(cp.pic);
        if (img) {
          this.flushText();
          this.para.push(img);
        }
        return;
      }
      if (code === 0x08 && this.cpStart === 0 && !this.type) {
        // A floating picture shows where it is anchored; other drawn objects (text boxes) are
        // placed after the paragraph.
        const shape = this.doc.floating.get(i);
        if (shape?.kind === 'picture') {
          const img = this.doc.imageIn(shape.blip);
          if (img) {
            this.flushText();
            this.para.push(img);
          }
        } else this.anchors++;
        return;
      }
      if (code === 0x09) out = '\u0000';
      else if (code === 0x1e) out = '-';
      else if (code < 0x20) return;
      else if (code === 0x28 && cp.symChar !== undefined) {
        // An inserted symbol: the special character stands for the character of sprmCSymbol.
        out = this.doc.symbol(cp.symFtc ?? 0, cp.symChar);
        if (!out) return;
      } else if (cp.special) return;
    }
    if (code === 0xa0) out = '\u00a0';
    if (this.bufProps !== cp && this.buf) this.flushText();
    this.bufProps = cp;
    this.buf += out;
  }

  /** Closes the tables nested deeper than `depth`: each becomes part of its cell, the outermost a block. */
  private closeTables(depth: number): void {
    while (this.tables.length > depth) {
      const t = this.tables.pop()!;
      if (!t.cell.blocks.length && t.row.length) t.raw.push({ cells: t.row });
      else if (t.cell.blocks.length) t.raw.push({ cells: [...t.row, cell(blocksToCellInlines(t.cell.nodes()))] });
      const nodes = tableNodes(t.raw);
      const outer = this.tables[this.tables.length - 1];
      for (const n of nodes) outer ? outer.cell.add(n) : this.sink.add(n, this.extra);
    }
  }

  private visible(): boolean {
    return this.fields.every((f) => f.result && !f.hidden);
  }

  private href(): string | undefined {
    for (let i = this.fields.length - 1; i >= 0; i--) if (this.fields[i]!.href) return this.fields[i]!.href;
    return undefined;
  }

  private placeTextboxes(): void {
    for (; this.anchors > 0; this.anchors--) {
      const box = this.doc.textboxes[this.doc.nextTextbox];
      if (!box) break;
      this.doc.nextTextbox++;
      for (const b of this.doc.blocks(box.start, box.end, this.refs)) this.sink.add(b.node, this.extra);
    }
    this.anchors = 0;
  }

  private flushText(): void {
    if (!this.buf) return;
    const p = this.bufProps ?? {};
    const t: TextInline = { type: 'text', text: this.buf };
    if (p.bold) t.bold = true;
    if (p.italic) t.italic = true;
    if (p.strike) t.strike = true;
    if (p.iss === 1) t.superscript = true;
    if (p.iss === 2) t.subscript = true;
    const h = this.href();
    if (h) t.href = h;
    this.para.push(t);
    this.buf = '';
  }

  private endParagraph(mark: number, isCellMark: boolean): void {
    this.flushText();
    const props = this.doc.paraAt(this.fcs[mark] ?? 0);
    let content = trimInlines(collapseSpaces(dropPageNumbers(this.para, this.doc.tocStyles.has(props.istd))));
    if (props.dropCap && !props.inTable) {
      this.dropCap.push(...content);
      this.para = [];
      return;
    }
    if (this.dropCap.length && !isBlank(content)) {
      content = [...this.dropCap, ...content];
      this.dropCap = [];
    }
    this.para = [];
    if (props.inTable || isCellMark) {
      // Cell and row ends: the outermost table's are cell marks (0x07, the row's with fTtp); a
      // nested table's are paragraph marks flagged fInnerTableCell / fInnerTtp.
      const depth = Math.max(1, props.itap);
      this.closeTables(depth);
      while (this.tables.length < depth) this.tables.push({ cell: new BlockSink(), row: [], raw: [] });
      const t = this.tables[depth - 1]!;
      if (depth === 1 ? isCellMark && props.ttp : props.innerTtp) {
        if (t.cell.blocks.length) {
          t.row.push(cell(blocksToCellInlines(t.cell.nodes())));
          t.cell = new BlockSink();
        }
        if (t.row.length) t.raw.push(rowOf(t.row, props));
        t.row = [];
        return;
      }
      if (!isBlank(content)) this.doc.addParagraph(t.cell, content, props);
      if (depth === 1 ? isCellMark : props.innerCell) {
        t.row.push(cell(blocksToCellInlines(t.cell.nodes())));
        t.cell = new BlockSink();
      }
      return;
    }
    this.closeTables(0);
    if (isBlank(content)) {
      this.placeTextboxes();
      return;
    }
    const heading =
      props.istd >= 1 && props.istd <= 9
        ? props.istd
        : props.outline < 9
          ? props.outline + 1
          : this.doc.styleHeading(props.istd);
    if (heading && !this.type)
      this.sink.add(
        {
          kind: 'heading',
          level: Math.min(6, heading) as 1,
          content: content.map((i) => (i.type === 'text' && i.bold ? { ...i, bold: false } : i)),
        },
        this.extra,
      );
    else if (this.type) this.sink.add({ kind: 'paragraph', content }, this.extra);
    else this.doc.addParagraph(this.sink, content, props);
    this.placeTextboxes();
  }
}
