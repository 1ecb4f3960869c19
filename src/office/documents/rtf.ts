/**
 * RTF → document model: paragraphs, headings (from the stylesheet's "heading N" styles or
 * \outlinelevel), lists (\ls/\ilvl: bullet or number by the list table's level format, the number
 * the \listtext label shows), tables (\trowd ... \cell ... \row, with horizontal and vertical
 * merges; also in headers, footers and notes), bold/italic/strike/super/sub (\super or \up),
 * hyperlink fields, footnotes as GFM notes, headers before the body and footers after it, pictures.
 * Text: \uN escapes (with \ucN fallback skipping) and \'hh bytes decoded in the code page of the
 * current font's charset or the document's \ansicpg (through iconv-lite); text in a Symbol or
 * Wingdings font through `symbol-fonts.ts`.
 */
import iconv from 'iconv-lite';
import { ParseError } from '../../errors.js';
import type { DocBlock, DocModel, ImageInline, Inline, Node, TableCell, TextInline } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
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
  removedImageSrc,
  trimInlines,
  withAuthor,
  type RawRow,
} from './common.js';
import { symbolChar, symbolFontOf, symbolText, type SymbolFont } from './symbol-fonts.js';

const CHARSET_CP: Record<number, string> = {
  0: '',
  1: '',
  2: 'symbol',
  77: 'macintosh',
  128: 'cp932',
  129: 'cp949',
  130: 'johab',
  134: 'gbk',
  136: 'big5',
  161: 'cp1253',
  162: 'cp1254',
  163: 'cp1258',
  177: 'cp1255',
  178: 'cp1256',
  186: 'cp1257',
  204: 'cp1251',
  222: 'cp874',
  238: 'cp1250',
  255: 'cp437',
};

const MAX_DEPTH = 1000;

/** Destinations whose text goes into paragraphs. */
const TEXT_DESTS: ReadonlySet<Dest> = new Set<Dest>([
  'body',
  'fldrslt',
  'header',
  'footer',
  'footnote',
  'annotation',
  'textbox',
]);

interface State {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  sup: boolean;
  sub: boolean;
  hidden: boolean;
  uc: number;
  font: number;
  /** What the group's text goes to. */
  dest: Dest;
  href?: string;
}

type Dest =
  | 'body'
  | 'skip'
  | 'fonttbl'
  | 'stylesheet'
  | 'fldinst'
  | 'fldrslt'
  | 'info'
  | 'listtext'
  | 'pict'
  | 'header'
  | 'footer'
  | 'footnote'
  | 'annotation'
  | 'textbox'
  | 'infoField'
  | 'listtable'
  | 'listoverridetable'
  // A drawn shape's property ({\sp}), its name ({\sn}), its value ({\sv}) and the picture value of pib.
  | 'shapeProp'
  | 'shapePropName'
  | 'shapePropValue'
  | 'shapePicture';

const SKIP_DESTS = new Set([
  'colortbl',
  'filetbl',
  'revtbl',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'mmathPr',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'pgdsctbl',
  'private',
  'bkmkstart',
  'bkmkend',
  'nonshppict',
  'objdata',
  'objclass',
  'template',
  'docvar',
  'xe',
  'tc',
  'fchars',
  'lchars',
  'pntxta',
  'pntxtb',
  'pnseclvl',
  'wgrffmtfilter',
  'ftnsep',
  'ftnsepc',
  'ftncn',
  'aftnsep',
  'aftnsepc',
  'aftncn',
  'userprops',
  'atnid',
  'atndate',
  'atnref',
  'atrfstart',
  'atrfend',
  'panose',
  'falt',
  'fname',
  'listpicture',
  'passwordhash',
  'blipuid',
  'defchp',
  'defpap',
  'mmath',
  'comment',
  'operator',
]);

const KNOWN_WORDS = new Set([
  'annotation',
  'ansicpg',
  'atnauthor',
  'author',
  'b',
  'bullet',
  'cell',
  'cellx',
  'clmgf',
  'clmrg',
  'clvmgf',
  'clvmrg',
  'column',
  'company',
  'deleted',
  'dibitmap',
  'dn',
  'doccomm',
  'emdash',
  'emfblip',
  'emspace',
  'endash',
  'enspace',
  'f',
  'fcharset',
  'field',
  'fldinst',
  'fldrslt',
  'fonttbl',
  'footer',
  'footerf',
  'footerl',
  'footerr',
  'footnote',
  'header',
  'headerf',
  'headerl',
  'headerr',
  'i',
  'ilvl',
  'info',
  'intbl',
  'itap',
  'jpegblip',
  'keywords',
  'ldblquote',
  'levelnfc',
  'levelnfcn',
  'levelstartat',
  'lfolevel',
  'line',
  'list',
  'listid',
  'listlevel',
  'listoverride',
  'listoverridestartat',
  'listoverridetable',
  'listtable',
  'listtext',
  'lquote',
  'ls',
  'mac',
  'macpict',
  'nestcell',
  'nestrow',
  'nosupersub',
  'object',
  'operator',
  'outlinelevel',
  'page',
  'par',
  'pard',
  'pc',
  'pca',
  'pict',
  'plain',
  'pngblip',
  'pntext',
  'qmspace',
  'rdblquote',
  'result',
  'row',
  'rquote',
  's',
  'sect',
  'shp',
  'shprslt',
  'shptxt',
  'sn',
  'sp',
  'strike',
  'striked',
  'stylesheet',
  'sub',
  'subject',
  'super',
  'sv',
  'tab',
  'title',
  'trleft',
  'trowd',
  'uc',
  'up',
  'v',
  'wbitmap',
  'wmetafile',
]);

const ROW_DEFINITION_WORDS = new Set(['trowd', 'trleft', 'cellx', 'clmgf', 'clmrg', 'clvmgf', 'clvmrg']);

interface Para {
  inlines: Inline[];
}

/** A level of a list definition (\listlevel): its number format (\levelnfc) and first number. */
interface ListLevelDef {
  nfc: number;
  start: number;
}

/** \levelnfc values: 23 is a bullet, 255 no number at all; 1/2 roman and 3/4 letter numbering. */
const NFC_BULLET = 23;
const NFC_NONE = 255;
const NFC_ROMAN = new Set([1, 2]);
const NFC_LETTER = new Set([3, 4]);

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };

function romanValue(s: string): number | undefined {
  let total = 0;
  const t = s.toLowerCase();
  for (let k = 0; k < t.length; k++) {
    const v = ROMAN[t[k]!];
    if (v === undefined) return undefined;
    const next = ROMAN[t[k + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total || undefined;
}

/** Word's letter numbering: a … z, then aa … zz (the letter repeated). */
function letterValue(s: string): number | undefined {
  const t = s.toLowerCase();
  if (!/^([a-z])\1*$/.test(t)) return undefined;
  return (t.length - 1) * 26 + t.charCodeAt(0) - 96;
}

/**
 * The number a list label shows for its own level: the last figure of "3.", "1.2.4.", "(c)", "iv)"
 * or "Step 7:", read by the level's number format when known (an "i" is roman in a roman list, a
 * letter in a lettered one). Undefined when the label holds no number.
 */
function labelNumber(label: string, nfc?: number): number | undefined {
  const tokens = label.match(/[0-9]+|[A-Za-z]+/g);
  const last = tokens?.[tokens.length - 1];
  if (!last) return undefined;
  if (/^[0-9]+$/.test(last)) return Number(last);
  if (nfc !== undefined && NFC_ROMAN.has(nfc)) return romanValue(last);
  if (nfc !== undefined && NFC_LETTER.has(nfc)) return letterValue(last);
  // Unknown format: a lone letter other than i is a letter; longer runs of roman digits are roman.
  if (last.length === 1 && !/^[iI]$/.test(last)) return letterValue(last);
  return romanValue(last) ?? letterValue(last);
}

/** A label that numbers its item: "3.", "1.2.", "(a)", "iv)"; a lone "o" or "§" is a bullet glyph. */
function isNumberLabel(label: string): boolean {
  return /^[(\[]?\d+(?:[.-]\d+)*[.):\]]?$/.test(label) || /^[(\[]?(?:\d+[.-])*[A-Za-z]{1,4}[.)\]]$/.test(label);
}

const BULLET_LABEL = /^[•·o§▪◦■□➢✓\-*–]$/;

interface RowDef {
  merges: ('none' | 'h' | 'hstart' | 'v' | 'vstart')[];
  bounds: number[];
  left: number;
}

type Merge = RowDef['merges'][number];

interface TableState {
  rowDef: RowDef;
  pendingMerges: Merge;
  /** The blocks of the open cell. */
  cell: BlockSink;
  rowCells: { content: Inline[]; merge: Merge }[];
  tableRows: { cells: { content: Inline[]; merge: Merge }[]; bounds: number[] }[];
}

function newTableState(): TableState {
  return {
    rowDef: { merges: [], bounds: [], left: 0 },
    pendingMerges: 'none',
    cell: new BlockSink(),
    rowCells: [],
    tableRows: [],
  };
}

class RtfReader {
  private stack: State[] = [];
  private st: State;
  private fonts = new Map<number, string>();
  /** Fonts whose codes are glyphs (Symbol, Wingdings), by font number. */
  private symbolFonts = new Map<number, SymbolFont>();
  private ansiCp = 'cp1252';
  private styles = new Map<number, string>();
  private styleGroup: { num: number; name: string } | null = null;
  /** The emphasis each paragraph style (\sN of the style sheet) gives its text. */
  private readonly styleFormats = new Map<number, { bold: boolean; italic: boolean; strike: boolean }>();
  private fontGroup: { num: number; charset: number; name: string } | null = null;
  // Paragraph state.
  private para: Inline[] = [];
  private parStyle = -1;
  private outline = -1;
  private listLevel = -1;
  private listId = -1;
  private listText = '';
  /** The list table: list id → its levels; \ls override number → the list it numbers (and restarts). */
  private readonly listDefs = new Map<number, ListLevelDef[]>();
  private readonly listOverrides = new Map<number, { listId: number; starts: (number | undefined)[] }>();
  private listDef: ListLevelDef[] | null = null;
  private overrideDef: { listId: number; starts: (number | undefined)[]; level: number; startAt: boolean } | null =
    null;
  /** Numbers reached per list and level, for labels that do not show their number. */
  private readonly listCounters = new Map<string, number[]>();
  /** (\ls, level) pairs whose restart has been applied. */
  private readonly restartedLists = new Set<string>();
  private inTable = false;
  /** The table being read; each sub-document (header, footer, note, text box) has its own. */
  private tbl: TableState = newTableState();
  // Output.
  readonly body = new BlockSink();
  /** The blocks of each header and footer (\header, \footerl, ...), one entry per sub-document. */
  readonly headers: DocBlock[][] = [];
  readonly footers: DocBlock[][] = [];
  readonly notes: DocBlock[] = [];
  readonly metadata: Record<string, string> = {};
  private noteCounter = 0;
  private commentCounter = 0;
  private commentAuthor = '';
  /** Text box contents waiting for the end of the paragraph that anchors them. */
  private floats: Node[] = [];
  readonly comments: DocBlock[] = [];
  private bytes: number[] = [];
  private fldinst = '';
  private infoKey = '';
  private infoText = '';
  /**
   * The drawn shape being read (\shp, a floating picture or box): the depth of its group, its
   * properties (\sp: \sn name, \sv value) and the picture its pib property holds.
   */
  private shape: { depth: number; props: Map<string, string>; image?: ImageInline } | null = null;
  /** Properties of an inline picture ({\*\picprop} inside \pict), when no shape holds it. */
  private picProps = new Map<string, string>();
  private spName = '';
  private spValue = '';
  private pictHex: string[] = [];
  private pictType = '';
  private removeBase64: boolean;
  private sinkStack: { sink: BlockSink; para: Inline[]; kind: Dest; tbl: TableState; saved: unknown }[] = [];
  private sink: BlockSink;
  private steps = 0;

  constructor(
    private readonly src: string,
    options: { removeBase64: boolean; deadline: number },
    private readonly deadline = options.deadline,
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

  private codepage(): string {
    const cs = this.fonts.get(this.st.font);
    return cs || this.ansiCp;
  }

  /** The symbol font the current text is set in, if any (style names and field instructions stay as written). */
  private symbolFont(): SymbolFont | undefined {
    const d = this.st.dest;
    return TEXT_DESTS.has(d) || d === 'listtext' ? this.symbolFonts.get(this.st.font) : undefined;
  }

  /** The font table entry being read is complete: its code page and whether it is a symbol font. */
  private commitFont(): void {
    const g = this.fontGroup;
    if (!g) return;
    this.fonts.set(g.num, CHARSET_CP[g.charset] ?? '');
    const sym = symbolFontOf(g.name.replace(/;[\s\S]*$/, ''));
    if (sym) this.symbolFonts.set(g.num, sym);
    else this.symbolFonts.delete(g.num);
  }

  private flushBytes(): void {
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

  private emit(text: string): void {
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

  private isContents(): boolean {
    return /^(toc|contents)\s*\d/i.test(this.styles.get(this.parStyle) ?? '');
  }

  private endParagraph(): void {
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
  private listItem(label: string): { ordered: boolean; n?: number } | null {
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

  private flushFloats(): void {
    if (!this.floats.length || this.sink !== this.body) return;
    for (const n of this.floats) this.body.add(n);
    this.floats = [];
  }

  /** A paragraph of a table cell: a list item when it has a list label, else a paragraph. */
  private cellParagraph(content: Inline[], listText: string): void {
    if (isBlank(content)) return;
    const item = this.listItem(listText);
    if (item) this.tbl.cell.addListItem(Math.max(0, this.listLevel), item.ordered, item.n, content);
    else this.tbl.cell.add({ kind: 'paragraph', content });
  }

  private endCell(): void {
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

  private endRow(): void {
    if (this.para.length || this.tbl.cell.blocks.length) this.endCell();
    if (this.tbl.rowCells.length)
      this.tbl.tableRows.push({ cells: this.tbl.rowCells, bounds: [this.tbl.rowDef.left, ...this.tbl.rowDef.bounds] });
    this.tbl.rowCells = [];
  }

  private flushTable(): void {
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

  private resetParagraph(): void {
    this.parStyle = -1;
    this.outline = -1;
    this.listLevel = -1;
    this.listId = -1;
    this.inTable = false;
  }

  private pushSink(kind: Dest): void {
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

  private popSink(): void {
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

  private tick(): void {
    if ((++this.steps & 16383) === 0 && Date.now() > this.deadline) {
      throw new ParseError('TIMEOUT', 'The RTF document could not be converted within the time limit.');
    }
  }

  run(): void {
    const s = this.src;
    const n = s.length;
    let i = 0;
    // Each group remembers which sub-document (header, footnote, ...) it opened, to close it.
    const opened: boolean[] = [];
    let skipChars = 0;
    while (i < n) {
      this.tick();
      const ch = s.charCodeAt(i);
      if (ch === 123 /* { */) {
        this.flushBytes();
        if (this.stack.length >= MAX_DEPTH)
          throw new ParseError('RESOURCE_LIMIT', `The RTF groups are nested more than ${MAX_DEPTH} deep.`);
        this.stack.push(this.st);
        this.st = { ...this.st };
        opened.push(false);
        i++;
        // An ignorable destination: {\*\name ...}.
        if (s.startsWith('\\*', i)) {
          const m = /^\\\*\s*\\([a-zA-Z]+)(-?\d+)? ?/.exec(s.slice(i, i + 64));
          const word = m?.[1] ?? '';
          if (word === 'fldinst') {
            this.st.dest = 'fldinst';
            this.fldinst = '';
            i += m![0].length;
          } else if (
            word === 'shppict' ||
            word === 'shptxt' ||
            word === 'shpinst' ||
            word === 'footnote' ||
            word === 'annotation' ||
            word === 'atnauthor' ||
            word === 'listtable' ||
            word === 'listoverridetable' ||
            word === 'picprop'
          ) {
            // Destinations we read: only the \* marker is consumed; the word is handled below.
            i += 2;
          } else if (this.st.dest !== 'skip') {
            this.st.dest = 'skip';
            i += m ? m[0].length : 2;
          } else i += 2;
        }
        continue;
      }
      if (ch === 125 /* } */) {
        this.flushBytes();
        const st = this.st;
        if (st.dest === 'stylesheet' && this.styleGroup && this.stack[this.stack.length - 1]?.dest === 'stylesheet') {
          this.styles.set(this.styleGroup.num, this.styleGroup.name.replace(/;.*$/s, '').trim());
          if (st.bold || st.italic || st.strike)
            this.styleFormats.set(this.styleGroup.num, { bold: st.bold, italic: st.italic, strike: st.strike });
          this.styleGroup = null;
        }
        if (st.dest === 'fonttbl' && this.fontGroup) {
          this.commitFont();
          if (this.stack[this.stack.length - 1]?.dest === 'fonttbl') this.fontGroup = null;
        }
        if (st.dest === 'infoField' && this.stack[this.stack.length - 1]?.dest !== 'infoField') {
          const v = this.infoText.trim();
          if (this.infoKey === '#author') this.commentAuthor = v;
          else if (v && this.infoKey) this.metadata[this.infoKey] = v;
        }
        if (st.dest === 'pict' && this.stack[this.stack.length - 1]?.dest !== 'pict') this.endPicture();
        if (st.dest === 'shapeProp' && this.stack[this.stack.length - 1]?.dest !== 'shapeProp') {
          (this.shape?.props ?? this.picProps).set(this.spName.trim(), this.spValue);
        }
        if (this.shape && this.stack.length === this.shape.depth) this.endShape();
        if (opened.pop()) this.popSink();
        const prev = this.stack.pop();
        if (prev) {
          // Leaving a field instruction: a HYPERLINK sets the link of the field's result.
          if (st.dest === 'fldinst' && prev.dest !== 'fldinst') {
            const m = /HYPERLINK\s+(?:\\l\s+)?"([^"]+)"/i.exec(this.fldinst) ?? /HYPERLINK\s+(\S+)/i.exec(this.fldinst);
            // Links inside the document (bookmarks) have no address outside it: only their text is kept.
            if (m && !/\\l\s/.test(this.fldinst) && !m[1]!.startsWith('#')) prev.href = m[1];
            // Page numbers and references to them mean nothing without pages.
            if (/^\s*(PAGE|NUMPAGES|SECTIONPAGES|PAGEREF)\b/i.test(this.fldinst)) prev.hidden = true;
          }
          this.st = prev;
        }
        i++;
        continue;
      }
      if (ch === 92 /* \ */) {
        const next = s.charCodeAt(i + 1);
        // Control symbols.
        if (next === 39 /* ' */) {
          const hex = s.slice(i + 2, i + 4);
          i += 4;
          if (skipChars > 0) {
            skipChars--;
            continue;
          }
          const b = parseInt(hex, 16);
          if (Number.isFinite(b)) {
            if (this.st.dest === 'pict') continue;
            this.bytes.push(b);
          }
          continue;
        }
        if (!((next >= 65 && next <= 90) || (next >= 97 && next <= 122))) {
          i += 2;
          if (skipChars > 0 && next !== 123 && next !== 125 && next !== 92) {
            skipChars--;
            continue;
          }
          switch (next) {
            case 126:
              this.flushBytes();
              this.emit('\u00a0');
              break; // \~
            case 95:
              this.flushBytes();
              this.emit('\u2011');
              break; // \_
            case 45:
              break; // \- optional hyphen
            case 92:
              this.flushBytes();
              this.emit('\\');
              break;
            case 123:
              this.flushBytes();
              this.emit('{');
              break;
            case 125:
              this.flushBytes();
              this.emit('}');
              break;
            case 10:
            case 13:
              this.flushBytes();
              this.par();
              break;
            case 9:
              this.flushBytes();
              this.emit(' ');
              break;
            default:
              break;
          }
          continue;
        }
        // Control word.
        let j = i + 1;
        while (j < n) {
          const c = s.charCodeAt(j);
          if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) j++;
          else break;
        }
        const word = s.slice(i + 1, j);
        let k = j;
        if (s.charCodeAt(k) === 45 || (s.charCodeAt(k) >= 48 && s.charCodeAt(k) <= 57)) {
          k++;
          while (k < n && s.charCodeAt(k) >= 48 && s.charCodeAt(k) <= 57) k++;
        }
        const param = k > j ? Number(s.slice(j, k)) : undefined;
        if (s.charCodeAt(k) === 32) k++;
        i = k;
        if (word === 'bin' && param !== undefined && param > 0) {
          i += param;
          continue;
        }
        if (skipChars > 0 && word !== 'par') {
          skipChars--;
          continue;
        }
        if (word === 'u') {
          this.flushBytes();
          let code = param ?? 0;
          if (code < 0) code += 65536;
          const sym = code >= 0xf020 && code <= 0xf0ff ? this.symbolFont() : undefined;
          this.emit(sym ? symbolChar(sym, code) : String.fromCharCode(code));
          skipChars = this.st.uc;
          continue;
        }
        this.control(word, param, opened);
        continue;
      }
      if (ch === 13 || ch === 10) {
        i++;
        continue;
      }
      // Plain text run.
      let j = i;
      while (j < n) {
        const c = s.charCodeAt(j);
        if (c === 92 || c === 123 || c === 125 || c === 13 || c === 10) break;
        j++;
      }
      let text = s.slice(i, j);
      i = j;
      if (skipChars > 0) {
        const drop = Math.min(skipChars, text.length);
        text = text.slice(drop);
        skipChars -= drop;
      }
      if (!text) continue;
      if (this.st.dest === 'pict') {
        this.pictHex.push(text);
        continue;
      }
      if (this.st.dest === 'fonttbl') {
        if (this.fontGroup) this.fontGroup.name += text;
        continue;
      }
      this.flushBytes();
      // Plain RTF text is in the document code page too (bytes ≥ 0x80 are rare but legal).
      if (/[\x80-\xff]/.test(text)) {
        for (let q = 0; q < text.length; q++) this.bytes.push(text.charCodeAt(q));
        this.flushBytes();
      } else {
        const sym = this.symbolFont();
        this.emit(sym ? symbolText(sym, text) : text);
      }
    }
    this.flushBytes();
    while (this.sinkStack.length) this.popSink();
    if (this.para.length) this.endParagraph();
    if (this.inTable || this.tbl.rowCells.length) this.endRow();
    if (this.tbl.tableRows.length) this.flushTable();
    this.flushFloats();
  }

  private par(): void {
    if (TEXT_DESTS.has(this.st.dest)) this.endParagraph();
  }

  private control(word: string, param: number | undefined, opened: boolean[]): void {
    const st = this.st;
    // Most control words (fonts, spacing, layout) change nothing we read: skip the long switch.
    if (!KNOWN_WORDS.has(word)) {
      if (SKIP_DESTS.has(word)) st.dest = 'skip';
      return;
    }
    const on = param === undefined || param !== 0;
    // Row definitions in skipped groups (a nested table's {\*\nesttableprops ...}) are not the
    // definition of the row being read.
    if (st.dest === 'skip' && ROW_DEFINITION_WORDS.has(word)) return;
    switch (word) {
      // Document.
      case 'ansicpg':
        if (param) this.ansiCp = param === 10000 ? 'macintosh' : `cp${param}`;
        return;
      case 'mac':
        this.ansiCp = 'macintosh';
        return;
      case 'pc':
        this.ansiCp = 'cp437';
        return;
      case 'pca':
        this.ansiCp = 'cp850';
        return;
      case 'uc':
        st.uc = param ?? 1;
        return;
      // Destinations.
      case 'fonttbl':
        st.dest = 'fonttbl';
        return;
      case 'stylesheet':
        st.dest = 'stylesheet';
        return;
      case 'info':
        st.dest = 'info';
        return;
      case 'title':
      case 'author':
      case 'subject':
      case 'keywords':
      case 'doccomm':
      case 'company':
      case 'operator':
        if (st.dest === 'info') {
          st.dest = 'infoField';
          this.infoKey = word === 'doccomm' ? 'description' : word;
          this.infoText = '';
        } else st.dest = 'skip';
        return;
      case 'fldrslt':
        if (st.dest !== 'skip') st.dest = 'body';
        return;
      case 'listtext':
      case 'pntext':
        st.dest = 'listtext';
        this.listText = '';
        return;
      case 'pict':
        if (st.dest === 'skip') return;
        st.dest = 'pict';
        this.pictHex = [];
        this.pictType = '';
        if (!this.shape) this.picProps = new Map();
        return;
      // Drawn shapes: floating pictures are the pib property of a shape.
      case 'shp':
        if (st.dest !== 'skip') this.shape = { depth: this.stack.length, props: new Map() };
        return;
      case 'shprslt':
        // The shape's result for readers without shapes: a copy of its picture.
        if (this.shape?.image) st.dest = 'skip';
        return;
      case 'sp':
        if (st.dest === 'skip') return;
        st.dest = 'shapeProp';
        this.spName = '';
        this.spValue = '';
        return;
      case 'sn':
        if (st.dest === 'shapeProp') st.dest = 'shapePropName';
        return;
      case 'sv':
        if (st.dest === 'shapeProp') st.dest = this.spName.trim() === 'pib' ? 'shapePicture' : 'shapePropValue';
        return;
      case 'pngblip':
        this.pictType = 'image/png';
        return;
      case 'jpegblip':
        this.pictType = 'image/jpeg';
        return;
      case 'emfblip':
        this.pictType = 'image/x-emf';
        return;
      case 'wmetafile':
        this.pictType = 'image/x-wmf';
        return;
      case 'macpict':
        this.pictType = 'image/pict';
        return;
      case 'dibitmap':
      case 'wbitmap':
        this.pictType = 'image/bmp';
        return;
      case 'header':
      case 'headerl':
      case 'headerr':
      case 'headerf':
      case 'footer':
      case 'footerl':
      case 'footerr':
      case 'footerf':
        if (st.dest === 'skip') return;
        st.dest = word.startsWith('header') ? 'header' : 'footer';
        this.pushSink(st.dest);
        opened[opened.length - 1] = true;
        return;
      case 'atnauthor':
        if (st.dest === 'skip') return;
        st.dest = 'infoField';
        this.infoKey = '#author';
        this.infoText = '';
        return;
      case 'shptxt':
        // The text of a shape (text box): its paragraphs follow the paragraph that anchors it.
        if (st.dest === 'skip') return;
        st.dest = 'textbox';
        this.pushSink('textbox');
        opened[opened.length - 1] = true;
        return;
      case 'annotation':
        if (st.dest === 'skip') return;
        st.dest = 'annotation';
        this.pushSink('annotation');
        opened[opened.length - 1] = true;
        return;
      case 'footnote':
        if (st.dest === 'skip') return;
        st.dest = 'footnote';
        this.pushSink('footnote');
        opened[opened.length - 1] = true;
        return;
      case 'field':
      case 'fldinst':
        if (word === 'fldinst') {
          st.dest = 'fldinst';
          this.fldinst = '';
        }
        return;
      case 'object':
      case 'result':
        return;
      case 'f':
        if (st.dest === 'fonttbl') {
          // Fonts listed without a group of their own each start at their \f.
          this.commitFont();
          this.fontGroup = { num: param ?? 0, charset: 0, name: '' };
          this.fonts.set(param ?? 0, '');
        } else {
          this.flushBytes();
          st.font = param ?? 0;
        }
        return;
      case 'fcharset':
        if (this.fontGroup) {
          this.fontGroup.charset = param ?? 0;
          this.fonts.set(this.fontGroup.num, CHARSET_CP[param ?? 0] ?? '');
        }
        return;
      case 's':
        if (st.dest === 'stylesheet') this.styleGroup = { num: param ?? 0, name: '' };
        else if (st.dest !== 'listtext') this.parStyle = param ?? 0;
        return;
      case 'outlinelevel':
        if (st.dest !== 'stylesheet' && st.dest !== 'listtext') this.outline = param ?? -1;
        return;
      // Paragraphs.
      case 'par':
        this.flushBytes();
        this.par();
        return;
      case 'pard':
        this.flushBytes();
        // A \pard inside a list label group does not end the paragraph that owns the label.
        if (st.dest !== 'listtext') this.resetParagraph();
        return;
      case 'line':
        this.flushBytes();
        this.para.push({ type: 'break' });
        return;
      case 'tab':
        this.flushBytes();
        // In contents entries the tab leads to the page number, which is dropped at the paragraph's end.
        if (st.dest !== 'listtext') this.emit(this.isContents() ? '\u0000' : ' ');
        return;
      case 'ls':
        if (st.dest === 'listoverridetable') {
          if (this.overrideDef) this.listOverrides.set(param ?? -1, this.overrideDef);
        } else this.listId = param ?? -1;
        return;
      // The list table and the list override table.
      case 'listtable':
      case 'listoverridetable':
        if (st.dest !== 'skip') st.dest = word;
        return;
      case 'list':
        if (st.dest === 'listtable') this.listDef = [];
        return;
      case 'listlevel':
        if (st.dest === 'listtable') this.listDef?.push({ nfc: 0, start: 1 });
        return;
      case 'levelnfc':
      case 'levelnfcn': {
        const lvl = st.dest === 'listtable' ? this.listDef?.[this.listDef.length - 1] : undefined;
        if (lvl) lvl.nfc = param ?? 0;
        return;
      }
      case 'levelstartat': {
        if (st.dest === 'listtable') {
          const lvl = this.listDef?.[this.listDef.length - 1];
          if (lvl) lvl.start = param ?? 1;
        } else if (st.dest === 'listoverridetable' && this.overrideDef?.startAt && this.overrideDef.level >= 0) {
          this.overrideDef.starts[this.overrideDef.level] = param ?? 1;
        }
        return;
      }
      case 'listid':
        if (st.dest === 'listtable' && this.listDef) this.listDefs.set(param ?? 0, this.listDef);
        else if (st.dest === 'listoverridetable' && this.overrideDef) this.overrideDef.listId = param ?? 0;
        return;
      case 'listoverride':
        if (st.dest === 'listoverridetable') this.overrideDef = { listId: -1, starts: [], level: -1, startAt: false };
        return;
      case 'lfolevel':
        if (this.overrideDef) {
          this.overrideDef.level++;
          this.overrideDef.startAt = false;
        }
        return;
      case 'listoverridestartat':
        if (this.overrideDef) this.overrideDef.startAt = true;
        return;
      case 'ilvl':
        this.listLevel = param ?? 0;
        return;
      // Tables.
      case 'trleft':
        this.tbl.rowDef.left = param ?? 0;
        return;
      case 'trowd':
        this.tbl.rowDef = { merges: [], bounds: [], left: 0 };
        this.tbl.pendingMerges = 'none';
        return;
      case 'clmgf':
        this.tbl.pendingMerges = 'hstart';
        return;
      case 'clmrg':
        this.tbl.pendingMerges = 'h';
        return;
      case 'clvmgf':
        this.tbl.pendingMerges = 'vstart';
        return;
      case 'clvmrg':
        this.tbl.pendingMerges = 'v';
        return;
      case 'cellx':
        this.tbl.rowDef.bounds.push(param ?? 0);
        this.tbl.rowDef.merges.push(this.tbl.pendingMerges);
        this.tbl.pendingMerges = 'none';
        return;
      case 'intbl':
        this.inTable = true;
        return;
      case 'itap':
        if ((param ?? 1) >= 1) this.inTable = true;
        return;
      case 'nestcell':
      case 'nestrow':
        // A table nested in a cell is flattened into the outer cell's text.
        this.flushBytes();
        if (st.dest !== 'skip') this.para.push({ type: 'text', text: ' ' });
        return;
      case 'cell':
        this.flushBytes();
        if (st.dest === 'skip') return;
        this.inTable = true;
        this.endCell();
        return;
      case 'row':
        this.flushBytes();
        this.endRow();
        return;
      // Characters.
      case 'plain':
        st.bold = st.italic = st.strike = st.sup = st.sub = st.hidden = false;
        return;
      case 'b':
        st.bold = on;
        return;
      case 'i':
        st.italic = on;
        return;
      case 'strike':
      case 'striked':
        st.strike = on;
        return;
      case 'super':
        st.sup = on;
        st.sub = false;
        return;
      case 'sub':
        st.sub = on;
        st.sup = false;
        return;
      case 'nosupersub':
        st.sup = st.sub = false;
        return;
      // Text raised or lowered (by half-points) is how some writers, LibreOffice among them, set
      // superscripts and subscripts.
      case 'up':
        st.sup = (param ?? 6) > 0;
        if (st.sup) st.sub = false;
        return;
      case 'dn':
        st.sub = (param ?? 6) > 0;
        if (st.sub) st.sup = false;
        return;
      case 'v':
        st.hidden = on;
        return;
      // Deleted text of a tracked change.
      case 'deleted':
        st.hidden = on;
        return;
      case 'emdash':
        this.flushBytes();
        this.emit('—');
        return;
      case 'endash':
        this.flushBytes();
        this.emit('–');
        return;
      case 'bullet':
        this.flushBytes();
        this.emit('•');
        return;
      case 'lquote':
        this.flushBytes();
        this.emit('‘');
        return;
      case 'rquote':
        this.flushBytes();
        this.emit('’');
        return;
      case 'ldblquote':
        this.flushBytes();
        this.emit('“');
        return;
      case 'rdblquote':
        this.flushBytes();
        this.emit('”');
        return;
      case 'emspace':
      case 'enspace':
      case 'qmspace':
        this.flushBytes();
        this.emit(' ');
        return;
      case 'sect':
        // A section break ends the paragraph it is in (Word writes \par before it, then nothing is open).
        this.flushBytes();
        if (this.para.length) this.par();
        return;
      case 'page':
      case 'column':
        // The text after a page or column break starts a new line of the same paragraph.
        this.flushBytes();
        if (TEXT_DESTS.has(st.dest)) this.para.push({ type: 'break' });
        return;
      default:
        if (SKIP_DESTS.has(word)) st.dest = 'skip';
        return;
    }
  }

  private endPicture(): void {
    const hex = this.pictHex.join('').replace(/[^0-9a-fA-F]/g, '');
    this.pictHex = [];
    if (!hex || this.st.hidden) return;
    const mime = this.pictType || 'application/octet-stream';
    const src = this.removeBase64
      ? removedImageSrc(mime)
      : `data:${mime};base64,${Buffer.from(hex.length % 2 ? hex.slice(0, -1) : hex, 'hex').toString('base64')}`;
    const parent = this.stack[this.stack.length - 1];
    if (parent && (parent.dest === 'skip' || parent.dest === 'pict')) return;
    const image: ImageInline = { type: 'image', alt: this.pictureAlt(this.shape?.props ?? this.picProps), src };
    if (this.shape && parent?.dest === 'shapePicture') this.shape.image = image;
    this.para.push(image);
  }

  /** A picture's description: the wzDescription property of its shape or picture. */
  private pictureAlt(props: Map<string, string>): string {
    return (props.get('wzDescription') ?? '').trim();
  }

  /** The shape's group closed: its description may have come after its picture. */
  private endShape(): void {
    const shape = this.shape!;
    this.shape = null;
    if (shape.image && !shape.image.alt) shape.image.alt = this.pictureAlt(shape.props);
  }
}

function mergeText(inlines: Inline[]): Inline[] {
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

export function readRtf(ctx: ReaderContext): DocModel {
  const src = Buffer.from(ctx.bytes.buffer, ctx.bytes.byteOffset, ctx.bytes.byteLength).toString('latin1');
  if (!/^\s*\{\\rtf/.test(src.slice(0, 64)))
    throw new ParseError('MALFORMED', 'The file does not start with an RTF header ({\\rtf).');
  const reader = new RtfReader(src, { removeBase64: ctx.options.removeBase64Images, deadline: ctx.deadline });
  const warnings: string[] = [];
  try {
    reader.run();
  } catch (err) {
    if (err instanceof ParseError) throw err;
    warnings.push(`Part of the RTF could not be read: ${(err as Error).message}`);
  }
  const metadata: DocModel['metadata'] = { ...reader.metadata };
  return {
    contentType: ctx.contentType,
    pages: [
      {
        pageNumber: 1,
        width: null,
        height: null,
        status: warnings.length ? 'partial' : 'ok',
        blocks: [
          ...dedupe(reader.headers),
          ...reader.body.blocks,
          ...dedupe(reader.footers),
          ...reader.notes,
          ...reader.comments,
        ],
      },
    ],
    metadata,
    warnings,
  };
}

/**
 * Headers for left, right and first pages, and those of later sections, often repeat one another:
 * each distinct header (or footer) is kept once, whole, as the other readers keep them. Lines that
 * several different footers share ("Effective October 1, 2012") stay in each of them.
 */
function dedupe(parts: DocBlock[][]): DocBlock[] {
  const seen = new Set<string>();
  const out: DocBlock[] = [];
  for (const blocks of parts) {
    if (!blocks.length) continue;
    const k = JSON.stringify(blocks.map((b) => b.node));
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(...blocks);
  }
  return out;
}
