/**
 * The document side of the RTF reader: the state of the paragraph, list, table and sub-document
 * being built, and what ends each of them. `reader.ts` tokenizes the RTF and drives it.
 */
import iconv from 'iconv-lite';
import type { DocBlock, ImageInline, Inline, Node, TableCell, TextInline } from '../../../model/document.js';
import {
  BlockSink,
  blocksToCellInlines,
  boundTable,
  buildTable,
  cell,
  CODE_STYLE,
  compactSpans,
  dropPageNumbers,
  headingLevelOfStyleName,
  isBlank,
  QUOTE_STYLE,
  trimInlines,
  withAuthor,
  type RawRow,
} from '../common.js';
import { symbolChar, symbolFontOf, type SymbolFont } from '../symbol-fonts.js';
import { CHARSET_CP, TEXT_DESTS, type State, type Dest } from './words.js';
import { NFC_BULLET, NFC_NONE, labelNumber, isNumberLabel, BULLET_LABEL, type ListLevelDef } from './lists.js';

export interface RowDef {
  merges: ('none' | 'h' | 'hstart' | 'v' | 'vstart')[];
  bounds: number[];
  left: number;
}

export type Merge = RowDef['merges'][number];

export interface TableState {
  rowDef: RowDef;
  pendingMerges: Merge;
  /** The blocks of the open cell. */
  cell: BlockSink;
  rowCells: { content: Inline[]; merge: Merge }[];
  tableRows: { cells: { content: Inline[]; merge: Merge }[]; bounds: number[] }[];
}

export function newTableState(): TableState {
  return {
    rowDef: { merges: [], bounds: [], left: 0 },
    pendingMerges: 'none',
    cell: new BlockSink(),
    rowCells: [],
    tableRows: [],
  };
}

export function mergeText(inlines: Inline[]): Inline[] {
  // Runs of spaces collapse, also across runs with different formatting.
  const out: Inline[] = [];
  for (const i of inlines) {
    if (i.type !== 'text') {
      out.push(i);
      continue;
    }
    let t = /[ \t]{2}/.test(i.text) ? i.text.replace(/[ \t]{2,}/g, ' ') : i.text;
    const prev = out[out.length - 1];
    if (t.startsWith(' ') && prev?.type === 'text' && prev.text.endsWith(' ')) t = t.slice(1);
    if (t) out.push({ ...i, text: t });
  }
  return out;
}

export class RtfBuilder {
  protected stack: State[] = [];
  protected st: State;
  protected fonts = new Map<number, string>();
  /** Fonts whose codes are glyphs (Symbol, Wingdings), by font number. */
  protected symbolFonts = new Map<number, SymbolFont>();
  protected ansiCp = 'cp1252';
  protected styles = new Map<number, string>();
  protected styleGroup: { num: number; name: string } | null = null;
  /** The emphasis each paragraph style (\sN of the style sheet) gives its text. */
  protected readonly styleFormats = new Map<number, { bold: boolean; italic: boolean; strike: boolean }>();
  protected fontGroup: { num: number; charset: number; name: string } | null = null;
  // Paragraph state.
  protected para: Inline[] = [];
  protected parStyle = -1;
  protected outline = -1;
  protected listLevel = -1;
  protected listId = -1;
  protected listText = '';
  /** The list table: list id → its levels; \ls override number → the list it numbers (and restarts). */
  protected readonly listDefs = new Map<number, ListLevelDef[]>();
  protected readonly listOverrides = new Map<number, { listId: number; starts: (number | undefined)[] }>();
  protected listDef: ListLevelDef[] | null = null;
  protected overrideDef: { listId: number; starts: (number | undefined)[]; level: number; startAt: boolean } | null =
    null;
  /** Numbers reached per list and level, for labels that do not show their number. */
  protected readonly listCounters = new Map<string, number[]>();
  /** (\ls, level) pairs whose restart has been applied. */
  protected readonly restartedLists = new Set<string>();
  protected inTable = false;
  /** The table being read; each sub-document (header, footer, note, text box) has its own. */
  protected tbl: TableState = newTableState();
  // Output.
  readonly body = new BlockSink();
  /** The blocks of each header and footer (\header, \footerl, ...), one entry per sub-document. */
  readonly headers: DocBlock[][] = [];
  readonly footers: DocBlock[][] = [];
  readonly notes: DocBlock[] = [];
  readonly metadata: Record<string, string> = {};
  protected noteCounter = 0;
  protected commentCounter = 0;
  protected commentAuthor = '';
  /** Text box contents waiting for the end of the paragraph that anchors them. */
  protected floats: Node[] = [];
  readonly comments: DocBlock[] = [];
  protected bytes: number[] = [];
  protected fldinst = '';
  protected infoKey = '';
  protected infoText = '';
  /**
   * The drawn shape being read (\shp, a floating picture or box): the depth of its group, its
   * properties (\sp: \sn name, \sv value) and the picture its pib property holds.
   */
  protected shape: { depth: number; props: Map<string, string>; image?: ImageInline } | null = null;
  /** Properties of an inline picture ({\*\picprop} inside \pict), when no shape holds it. */
  protected picProps = new Map<string, string>();
  protected spName = '';
  protected spValue = '';
  protected pictHex: string[] = [];
  protected pictType = '';
  protected removeBase64: boolean;
  protected sinkStack: { sink: BlockSink; para: Inline[]; kind: Dest; tbl: TableState; saved: unknown }[] = [];
  protected sink: BlockSink;
  protected steps = 0;
  /** Each group remembers which sub-document (header, footnote, ...) it opened, to close it. */
  protected readonly opened: boolean[] = [];
  /** Characters still to skip after a `\u` (its ANSI stand-ins, `\ucN`). */
  protected skipChars = 0;

  constructor(
    protected readonly src: string,
    options: { removeBase64: boolean; deadline: number },
    protected readonly deadline = options.deadline,
  ) {
    this.removeBase64 = options.removeBase64;
    this.st = {
      bold: false,
      italic: false,
      strike: false,
      sup: false,
      sub: false,
      hidden: false,
      uc: 1,
      font: -1,
      dest: 'body',
    };
    this.sink = this.body;
  }

  protected codepage(): string {
    const cs = this.fonts.get(this.st.font);
    return cs || this.ansiCp;
  }

  /** The symbol font the current text is set in, if any (style names and field instructions stay as written). */
  protected symbolFont(): SymbolFont | undefined {
    const d = this.st.dest;
    return TEXT_DESTS.has(d) || d === 'listtext' ? this.symbolFonts.get(this.st.font) : undefined;
  }

  /** The font table entry being read is complete: its code page and whether it is a symbol font. */
  protected commitFont(): void {
    const g = this.fontGroup;
    if (!g) return;
    this.fonts.set(g.num, CHARSET_CP[g.charset] ?? '');
    const sym = symbolFontOf(g.name.replace(/;[\s\S]*$/, ''));
    if (sym) this.symbolFonts.set(g.num, sym);
    else this.symbolFonts.delete(g.num);
  }

  protected flushBytes(): void {
    if (!this.bytes.length) return;
    const cp = this.codepage();
    const sym = this.symbolFont();
    let s: string;
    if (sym) {
      s = '';
      for (const b of this.bytes) s += symbolChar(sym, b);
    } else if (cp === 'symbol') s = '';
    else {
      try {
        s = iconv.decode(Buffer.from(this.bytes), iconv.encodingExists(cp) ? cp : 'cp1252');
      } catch {
        s = String.fromCharCode(...this.bytes);
      }
    }
    this.bytes = [];
    this.emit(s);
  }

  protected emit(text: string): void {
    // A soft hyphen (\'ad, \u173) shows only where a line is broken, like \-.
    if (text.includes('\u00ad')) text = text.replace(/\u00ad/g, '');
    if (!text) return;
    const st = this.st;
    switch (st.dest) {
      case 'skip':
      case 'pict':
        return;
      case 'fonttbl':
        return;
      case 'stylesheet':
        if (this.styleGroup) this.styleGroup.name += text;
        return;
      case 'fldinst':
        this.fldinst += text;
        return;
      case 'infoField':
        this.infoText += text;
        return;
      case 'listtext':
        this.listText += text;
        return;
      case 'shapePropName':
        this.spName += text;
        return;
      case 'shapePropValue':
        this.spValue += text;
        return;
      case 'listtable':
      case 'listoverridetable':
      case 'shapeProp':
      case 'shapePicture':
      case 'info':
        return;
      default:
        break;
    }
    if (st.hidden) return;
    const t: TextInline = { type: 'text', text };
    // RTF writes a paragraph style's character formatting again on its text: what the style gives is
    // not emphasis (as in the other readers), only what the text adds to it.
    const style = this.styleFormats.get(this.parStyle);
    if (st.bold && !style?.bold) t.bold = true;
    if (st.italic && !style?.italic) t.italic = true;
    if (st.strike && !style?.strike) t.strike = true;
    if (st.sup) t.superscript = true;
    if (st.sub) t.subscript = true;
    if (st.href) t.href = st.href;
    this.para.push(t);
  }

  protected isContents(): boolean {
    return /^(toc|contents)\s*\d/i.test(this.styles.get(this.parStyle) ?? '');
  }

  protected endParagraph(): void {
    this.flushBytes();
    const content = trimInlines(mergeText(dropPageNumbers(this.para)));
    this.para = [];
    const listText = this.listText.trim();
    this.listText = '';
    if (this.inTable) {
      this.cellParagraph(content, listText);
      return;
    }
    if (this.tbl.tableRows.length) this.flushTable();
    if (isBlank(content)) {
      this.flushFloats();
      return;
    }
    const styleName = (this.styles.get(this.parStyle) ?? '').toLowerCase();
    // A heading style's name says the level, before an outline level; Title only after one.
    const named = headingLevelOfStyleName(styleName);
    const level =
      named !== undefined && styleName !== 'title'
        ? named
        : this.outline >= 0 && this.outline < 9
          ? this.outline + 1
          : (named ?? 0);
    const item = level && this.sink === this.body ? null : this.listItem(listText);
    if (level && this.sink === this.body) {
      this.sink.add({
        kind: 'heading',
        level: Math.min(6, level) as 1,
        content: content.map((i) => (i.type === 'text' && i.bold ? { ...i, bold: false } : i)),
      });
    } else if (item) {
      this.sink.addListItem(Math.max(0, this.listLevel), item.ordered, item.n, content);
    } else if (CODE_STYLE.test(styleName)) {
      this.sink.addCodeLine(content);
    } else if (QUOTE_STYLE.test(styleName)) {
      this.sink.addQuoteParagraph(content);
    } else {
      this.sink.add({ kind: 'paragraph', content });
    }
    this.flushFloats();
  }

  /**
   * What list item the paragraph is: bulleted or numbered as the list table's level says (by its
   * label when the table is missing), its number the one the label shows, else counted on from the
   * list's last item. Null when it is no list item: not in a list (\ls) and without a list label,
   * or at a level that shows no label (\levelnfc255).
   */
  protected listItem(label: string): { ordered: boolean; n?: number } | null {
    if (this.listId < 0 && !isNumberLabel(label) && !BULLET_LABEL.test(label)) return null;
    const level = Math.max(0, this.listLevel);
    const override = this.listOverrides.get(this.listId);
    const def = override ? this.listDefs.get(override.listId)?.[level] : undefined;
    if (!def) {
      if (!isNumberLabel(label)) return { ordered: false };
      const n = labelNumber(label);
      return n === undefined ? { ordered: true } : { ordered: true, n };
    }
    if (def.nfc === NFC_NONE) return null;
    if (def.nfc === NFC_BULLET) return { ordered: false };
    // As in Word, the overrides of one list continue one count; an override that restarts a level
    // (\listoverridestartat) restarts it where it first numbers that level.
    const key = `id${override!.listId}`;
    let counts = this.listCounters.get(key);
    if (!counts) this.listCounters.set(key, (counts = []));
    counts.length = Math.min(counts.length, level + 1);
    const restart = override!.starts[level];
    const first = `${this.listId}:${level}`;
    let next = counts[level] !== undefined ? counts[level]! + 1 : def.start;
    if (restart !== undefined && !this.restartedLists.has(first)) {
      this.restartedLists.add(first);
      next = restart;
    }
    const n = labelNumber(label, def.nfc) ?? next;
    counts[level] = n;
    return { ordered: true, n };
  }

  protected flushFloats(): void {
    if (!this.floats.length || this.sink !== this.body) return;
    for (const n of this.floats) this.body.add(n);
    this.floats = [];
  }

  /** A paragraph of a table cell: a list item when it has a list label, else a paragraph. */
  protected cellParagraph(content: Inline[], listText: string): void {
    if (isBlank(content)) return;
    const item = this.listItem(listText);
    if (item) this.tbl.cell.addListItem(Math.max(0, this.listLevel), item.ordered, item.n, content);
    else this.tbl.cell.add({ kind: 'paragraph', content });
  }

  protected endCell(): void {
    this.flushBytes();
    if (this.para.length) {
      const content = trimInlines(mergeText(this.para));
      this.para = [];
      this.cellParagraph(content, this.listText.trim());
    }
    const idx = this.tbl.rowCells.length;
    this.tbl.rowCells.push({
      content: blocksToCellInlines(this.tbl.cell.nodes()),
      merge: this.tbl.rowDef.merges[idx] ?? 'none',
    });
    this.tbl.cell = new BlockSink();
    this.listText = '';
  }

  protected endRow(): void {
    if (this.para.length || this.tbl.cell.blocks.length) this.endCell();
    if (this.tbl.rowCells.length)
      this.tbl.tableRows.push({ cells: this.tbl.rowCells, bounds: [this.tbl.rowDef.left, ...this.tbl.rowDef.bounds] });
    this.tbl.rowCells = [];
  }

  protected flushTable(): void {
    const raw: RawRow[] = this.tbl.tableRows.map((r) => {
      const cells: TableCell[] = [];
      const bounds: number[] = [r.bounds[0] ?? 0];
      const vmerge: RawRow['vmerge'] = [];
      r.cells.forEach((c, k) => {
        const right = r.bounds[k + 1];
        // A horizontally merged cell widens the cell before it.
        if (c.merge === 'h' && cells.length) {
          if (right !== undefined) bounds[bounds.length - 1] = right;
          return;
        }
        cells.push(cell(c.content));
        bounds.push(right ?? bounds[bounds.length - 1]! + 1000);
        vmerge.push(c.merge === 'vstart' ? 'start' : c.merge === 'v' ? 'cont' : 'none');
      });
      return { cells, bounds, vmerge };
    });
    this.tbl.tableRows = [];
    const rows = buildTable(raw);
    if (rows.length === 0 || rows.every((r) => r.every((c) => isBlank(c.content)))) return;
    compactSpans(rows);
    if (rows.length === 1 && rows[0]!.length === 1) {
      this.sink.add({ kind: 'paragraph', content: rows[0]![0]!.content });
      return;
    }
    this.sink.add({ kind: 'table', rows: boundTable(rows) });
  }

  protected resetParagraph(): void {
    this.parStyle = -1;
    this.outline = -1;
    this.listLevel = -1;
    this.listId = -1;
    this.inTable = false;
  }

  protected pushSink(kind: Dest): void {
    this.flushBytes();
    this.sinkStack.push({
      sink: this.sink,
      para: this.para,
      kind,
      tbl: this.tbl,
      saved: [this.parStyle, this.outline, this.listLevel, this.listId, this.inTable, this.listText],
    });
    this.sink = new BlockSink();
    this.tbl = newTableState();
    this.para = [];
    this.listText = '';
    this.resetParagraph();
  }

  protected popSink(): void {
    const top = this.sinkStack.pop();
    if (!top) return;
    const savedInTable = (top.saved as unknown[])[4] as boolean;
    // Close the sub-document's last paragraph, outside any table.
    this.inTable = false;
    if (this.para.length) {
      const wasBody = this.sink;
      this.endParagraph();
      this.sink = wasBody;
    }
    // A table the sub-document ends with is complete.
    if (this.tbl.rowCells.length || this.tbl.cell.blocks.length) this.endRow();
    if (this.tbl.tableRows.length) this.flushTable();
    const nodes = this.sink.blocks;
    this.sink = top.sink;
    this.tbl = top.tbl;
    this.para = top.para;
    const saved = top.saved as [number, number, number, number, boolean, string];
    [this.parStyle, this.outline, this.listLevel, this.listId, , this.listText] = saved;
    this.inTable = savedInTable;
    if (top.kind === 'header') this.headers.push(nodes.map((b) => ({ ...b, type: 'page_header' as const })));
    else if (top.kind === 'footer') this.footers.push(nodes.map((b) => ({ ...b, type: 'page_footer' as const })));
    else if (top.kind === 'footnote') {
      const label = String(++this.noteCounter);
      this.para.push({ type: 'noteRef', label });
      this.notes.push({
        node: {
          kind: 'note',
          label,
          children: nodes.length ? nodes.map((b) => b.node) : [{ kind: 'paragraph', content: [] }],
        },
      });
    } else if (top.kind === 'textbox') {
      this.floats.push(...nodes.map((b) => b.node));
    } else if (top.kind === 'annotation') {
      const label = `comment-${++this.commentCounter}`;
      this.para.push({ type: 'noteRef', label });
      const children = withAuthor(
        nodes.map((b) => b.node),
        this.commentAuthor,
      );
      this.commentAuthor = '';
      this.comments.push({
        node: { kind: 'note', label, children: children.length ? children : [{ kind: 'paragraph', content: [] }] },
      });
    }
  }
}
