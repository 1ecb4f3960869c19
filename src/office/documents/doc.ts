/**
 * Legacy Word 97–2003 (.doc, the binary [MS-DOC] format) → document model, read from the OLE2
 * container with `cfb`: the piece table gives the text, paragraph properties (FKP pages) give table
 * cells and rows (nested tables too), heading styles (the fixed istd 1–9, else the style sheet's
 * names and outline levels), outline levels and list membership, character
 * properties give bold/italic/strike/super/subscript and hidden or deleted text. Fields keep their
 * shown result (HYPERLINK fields become links). Headers come before the body, footers after it,
 * footnotes and endnotes are GFM notes, comments are notes after them. Inline and floating PNG and
 * JPEG pictures are extracted (floating ones through `doc-drawings.ts`); metafiles are not.
 */
import iconv from 'iconv-lite';
import { ParseError } from '../../errors.js';
import type { DocBlock, DocModel, Inline } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
import type { BlockType } from '../../types.js';
import { cfbStream, readCfb, type CfbContainer } from '../../containers/compound.js';
import { OleFile } from '../../containers/ole.js';
import { floatingShapes, type FloatingShape } from './doc-drawings.js';
import { BlockSink, cell, CODE_STYLE, headingLevelOfStyleName, QUOTE_STYLE, withAuthor } from './common.js';
import { symbolChar, symbolFontOf, symbolRunText, type SymbolFont } from './symbol-fonts.js';
import {
  type Piece,
  type ParaProps,
  type CharProps,
  type Run,
  UTF16,
  malformed,
  readFkpRuns,
  findRun,
  DEFAULT_PARA,
  parsePapx,
  parseChpx,
} from './doc/properties.js';
import { type ParaStyle, ISTD_NIL, readStyleSheet } from './doc/styles.js';
import { StoryWalker, type NoteRef, type Story } from './doc/story.js';
import { summaryInformation } from './doc/summary.js';

class DocReader {
  private readonly view: DataView;
  private readonly table: Uint8Array;
  private readonly pieces: Piece[] = [];
  private readonly papx: Run<ParaProps>[];
  private readonly chpx: Run<CharProps>[];
  readonly charProps: CharProps[] = [{}];
  private readonly rgLw: number;
  private readonly rgFcLcb: number;
  private readonly cbRgFcLcb: number;
  readonly links: string[] = [];
  private noteCounter = 0;
  private commentCounter = 0;
  readonly usedRefs = new Set<number>();
  /** Paragraph styles of contents entries, whose tab and page number at the end are dropped. */
  readonly tocStyles = new Set<number>();
  private readonly paraStyles: Map<number, ParaStyle>;
  private readonly headingCache = new Map<number, number>();
  readonly textboxes: { start: number; end: number }[] = [];
  /** Drawn objects anchored in the main text, by the CP of their anchor. */
  floating = new Map<number, FloatingShape>();
  nextTextbox = 0;
  private readonly notes: DocBlock[] = [];
  private readonly comments: DocBlock[] = [];

  constructor(
    private readonly wordDoc: Uint8Array,
    tableStream: Uint8Array | undefined,
    readonly deadline: number,
    private readonly data?: Uint8Array,
    private readonly removeBase64 = true,
  ) {
    this.view = new DataView(wordDoc.buffer, wordDoc.byteOffset, wordDoc.byteLength);
    if (wordDoc.length < 0x200) throw malformed('the WordDocument stream is too short');
    const csw = this.view.getUint16(32, true);
    this.rgLw = 32 + 2 + csw * 2 + 2;
    const cslw = this.view.getUint16(32 + 2 + csw * 2, true);
    const cbAt = this.rgLw + cslw * 4;
    this.cbRgFcLcb = this.view.getUint16(cbAt, true);
    this.rgFcLcb = cbAt + 2;
    if (!tableStream) throw malformed('the table stream is missing');
    this.table = tableStream;
    this.readPieces();
    this.papx = readFkpRuns(wordDoc, this.table, ...this.fcLcb(13), (page, i, crun) => parsePapx(page, i, crun, data));
    const [fcStsh, lcbStsh] = this.fcLcb(1);
    // The style sheet is read once; character styles are needed only when a run names one.
    const sheet = readStyleSheet(this.table, fcStsh, lcbStsh, this.tocStyles);
    this.paraStyles = sheet.paras;
    const charStyles = (): Map<number, CharProps> => sheet.chars;
    this.chpx = readFkpRuns(wordDoc, this.table, ...this.fcLcb(12), (page, i, crun) =>
      parseChpx(page, i, crun, charStyles),
    );
  }

  /**
   * The heading level of a paragraph style, 0 for none: the fixed heading styles (istd 1–9), else
   * along the styles it is based on, a heading name ("heading 2", "Title") or an outline level.
   */
  styleHeading(istd: number): number {
    let level = this.headingCache.get(istd);
    if (level !== undefined) return level;
    level = 0;
    const seen = new Set<number>();
    for (let cur = istd; cur !== ISTD_NIL && !seen.has(cur) && seen.size < 20;) {
      seen.add(cur);
      if (cur >= 1 && cur <= 9) {
        level = cur;
        break;
      }
      const style = this.paraStyles.get(cur);
      if (!style) break;
      const named = headingLevelOfStyleName(style.name);
      if (named !== undefined || style.outline !== undefined) {
        level = named ?? style.outline! + 1;
        break;
      }
      cur = style.base;
    }
    this.headingCache.set(istd, level);
    return level;
  }

  lw(index: number): number {
    return this.view.getInt32(this.rgLw + index * 4, true);
  }

  fcLcb(index: number): [number, number] {
    if (index >= this.cbRgFcLcb) return [0, 0];
    const at = this.rgFcLcb + index * 8;
    if (at + 8 > this.wordDoc.length) return [0, 0];
    return [this.view.getUint32(at, true), this.view.getUint32(at + 4, true)];
  }

  private readPieces(): void {
    const [fcClx, lcbClx] = this.fcLcb(33);
    const t = this.table;
    const tv = new DataView(t.buffer, t.byteOffset, t.byteLength);
    if (lcbClx === 0 || fcClx + lcbClx > t.length) throw malformed('the piece table (CLX) is missing');
    let p = fcClx;
    const end = fcClx + lcbClx;
    while (p < end && t[p] === 0x01) {
      const cb = tv.getUint16(p + 1, true);
      p += 3 + cb;
    }
    if (t[p] !== 0x02) throw malformed('the piece table has no Pcdt');
    const lcb = tv.getUint32(p + 1, true);
    p += 5;
    const n = (lcb - 4) / 12;
    if (!Number.isInteger(n) || n <= 0 || p + lcb > t.length) throw malformed('the piece table has a bad size');
    for (let i = 0; i < n; i++) {
      const cpStart = tv.getUint32(p + i * 4, true);
      const cpEnd = tv.getUint32(p + (i + 1) * 4, true);
      const pcd = p + (n + 1) * 4 + i * 8;
      const fcRaw = tv.getUint32(pcd + 2, true);
      const compressed = (fcRaw & 0x40000000) !== 0;
      const fc = compressed ? (fcRaw & 0x3fffffff) / 2 : fcRaw;
      if (cpEnd > cpStart) this.pieces.push({ cpStart, cpEnd, fc, compressed });
    }
  }

  /** Text of the CP range with, per character, its FC and character-property index. */
  story(cpStart: number, cpEnd: number): Story {
    const parts: string[] = [];
    const len = Math.max(0, cpEnd - cpStart);
    const chars = new Uint32Array(len);
    const fcs = new Float64Array(len);
    const widths = new Uint8Array(len);
    const propIndex = new Map<Run<CharProps>, number>();
    for (const piece of this.pieces) {
      const s = Math.max(cpStart, piece.cpStart);
      const e = Math.min(cpEnd, piece.cpEnd);
      if (e <= s) continue;
      const w = piece.compressed ? 1 : 2;
      widths.fill(w, s - cpStart, e - cpStart);
      const fc0 = piece.fc + (s - piece.cpStart) * w;
      const bytes = this.wordDoc.subarray(fc0, Math.min(this.wordDoc.length, fc0 + (e - s) * w));
      let text = piece.compressed
        ? iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'cp1252')
        : UTF16.decode(bytes);
      if (text.length < e - s) text += '\u0000'.repeat(e - s - text.length);
      parts.push(text);
      let run: Run<CharProps> | undefined;
      for (let k = 0; k < e - s; k++) {
        const fc = fc0 + k * w;
        const at = s - cpStart + k;
        fcs[at] = fc;
        if (!run || fc < run.fcStart || fc >= run.fcEnd) run = findRun(this.chpx, fc);
        if (run) {
          let idx = propIndex.get(run);
          if (idx === undefined) {
            idx = this.charProps.length;
            this.charProps.push(run.props);
            propIndex.set(run, idx);
          }
          chars[at] = idx;
        }
      }
    }
    return { text: parts.join(''), chars, fcs, widths };
  }

  paraAt(fc: number): ParaProps {
    return findRun(this.papx, fc)?.props ?? DEFAULT_PARA;
  }

  /**
   * Whether the character at `fc` (`width` bytes) is the last of its paragraph: paragraph property
   * runs end right after a paragraph's end mark.
   */
  endsParagraph(fc: number, width: number): boolean {
    return findRun(this.papx, fc)?.fcEnd === fc + width;
  }

  private fontNames: string[] | undefined;

  /** Font names by index (ftc), from the font table (SttbfFfn: FFN records, the name at byte 39). */
  private fonts(): string[] {
    if (this.fontNames) return this.fontNames;
    const names: string[] = [];
    this.fontNames = names;
    const [fc, lcb] = this.fcLcb(15);
    const t = this.table;
    if (lcb < 4 || fc + lcb > t.length) return names;
    const end = fc + lcb;
    const cData = t[fc]! | (t[fc + 1]! << 8);
    let p = fc + 4;
    for (let k = 0; k < cData && p < end; k++) {
      const ffn = p + 1;
      const stop = Math.min(end, ffn + t[p]!);
      let name = '';
      for (let q = ffn + 39; q + 1 < stop; q += 2) {
        const c = t[q]! | (t[q + 1]! << 8);
        if (!c) break;
        name += String.fromCharCode(c);
      }
      names.push(name);
      p = stop;
    }
    return names;
  }

  private readonly symbolFontCache = new Map<number, SymbolFont | undefined>();

  symbolFont(ftc: number | undefined): SymbolFont | undefined {
    if (ftc === undefined) return undefined;
    if (!this.symbolFontCache.has(ftc)) this.symbolFontCache.set(ftc, symbolFontOf(this.fonts()[ftc]));
    return this.symbolFontCache.get(ftc);
  }

  /** Text of a run as Unicode when its fonts are symbol fonts. */
  fontText(cp: CharProps, text: string): string {
    return symbolRunText(text, this.symbolFont(cp.ftcAscii), this.symbolFont(cp.ftcOther ?? cp.ftcAscii));
  }

  /** An inserted symbol (sprmCSymbol): its character in its font. */
  symbol(ftc: number, code: number): string {
    const font = this.symbolFont(ftc);
    if (font) return symbolChar(font, code);
    if (code < 0x20 || (code >= 0xd800 && code <= 0xdfff) || (code >= 0xe000 && code <= 0xf8ff)) return '';
    return String.fromCharCode(code);
  }

  /** Reads a PLC of CPs with `cbData`-byte entries: returns the n+1 CPs. */
  plcCps(index: number, cbData: number): number[] {
    const [fc, lcb] = this.fcLcb(index);
    if (lcb < 4 || fc + lcb > this.table.length) return [];
    const n = Math.floor((lcb - 4) / (4 + cbData));
    const tv = new DataView(this.table.buffer, this.table.byteOffset, this.table.byteLength);
    const out: number[] = [];
    for (let i = 0; i <= n; i++) out.push(tv.getUint32(fc + i * 4, true));
    return out;
  }

  /**
   * The author of each of the `count` comments: the comment reference's ATRD (30 bytes after the
   * PLC's CPs) indexes with its ibst the author names of GrpXstAtnOwners (a run of Xst strings).
   */
  private commentAuthors(count: number): string[] {
    const names: string[] = [];
    const t = this.table;
    const tv = new DataView(t.buffer, t.byteOffset, t.byteLength);
    const [fcOwners, lcbOwners] = this.fcLcb(36);
    if (lcbOwners > 0 && fcOwners + lcbOwners <= t.length) {
      for (let p = fcOwners; p + 2 <= fcOwners + lcbOwners;) {
        const cch = tv.getUint16(p, true);
        if (p + 2 + cch * 2 > fcOwners + lcbOwners) break;
        names.push(UTF16.decode(t.subarray(p + 2, p + 2 + cch * 2)));
        p += 2 + cch * 2;
      }
    }
    const [fcRef, lcbRef] = this.fcLcb(4);
    const out: string[] = [];
    if (!names.length || fcRef + lcbRef > t.length) return out;
    const atrd = fcRef + (count + 1) * 4;
    for (let k = 0; k < count && atrd + k * 30 + 22 <= fcRef + lcbRef; k++) {
      out.push(names[tv.getUint16(atrd + k * 30 + 20, true)]?.trim() ?? '');
    }
    return out;
  }

  // ------------------------------------------------------------ conversion

  convert(): { body: DocBlock[]; headers: DocBlock[]; footers: DocBlock[]; notes: DocBlock[] } {
    const ccpText = Math.max(0, this.lw(3));
    const ccpFtn = Math.max(0, this.lw(4));
    const ccpHdd = Math.max(0, this.lw(5));
    const ccpAtn = Math.max(0, this.lw(7));
    const ccpEdn = Math.max(0, this.lw(8));
    const ftnStart = ccpText;
    const hddStart = ftnStart + ccpFtn;
    const atnStart = hddStart + ccpHdd;
    const ednStart = atnStart + ccpAtn;

    // Note references: CP in the main text → the note's CP range in its story.
    const refs = new Map<number, NoteRef>();
    const addRefs = (
      refIndex: number,
      txtIndex: number,
      cbRef: number,
      base: number,
      kind: 'footnote' | 'endnote' | 'comment',
    ): void => {
      const refCps = this.plcCps(refIndex, cbRef).slice(0, -1);
      const txt = this.plcCps(txtIndex, 0);
      const authors = kind === 'comment' ? this.commentAuthors(refCps.length) : [];
      refCps.forEach((cp, k) => {
        if (txt[k + 1] === undefined) return;
        const ref: NoteRef = { kind, start: base + txt[k]!, end: base + txt[k + 1]! };
        if (authors[k]) ref.author = authors[k];
        refs.set(cp, ref);
      });
    };
    if (ccpFtn) addRefs(2, 3, 2, ftnStart, 'footnote');
    if (ccpEdn) addRefs(46, 47, 2, ednStart, 'endnote');
    if (ccpAtn) addRefs(4, 5, 30, atnStart, 'comment');

    // Text box stories, in order; each is placed after the paragraph holding the next drawn-object
    // anchor of the main text, the ones left over after the body.
    const ccpTxbx = Math.max(0, this.lw(9));
    if (ccpTxbx) {
      const txbxStart = ednStart + ccpEdn;
      const cps = this.plcCps(56, 22);
      for (let k = 0; k + 2 < cps.length; k++) {
        const s = txbxStart + cps[k]!;
        const e = Math.min(txbxStart + cps[k + 1]!, txbxStart + ccpTxbx);
        if (e > s) this.textboxes.push({ start: s, end: e });
      }
    }
    this.floating = floatingShapes(this.table, this.wordDoc, this.fcLcb(40), this.fcLcb(50));
    const body = this.blocks(0, ccpText, refs);
    while (this.nextTextbox < this.textboxes.length) {
      const box = this.textboxes[this.nextTextbox++]!;
      body.push(...this.blocks(box.start, box.end, refs));
    }
    const headers: DocBlock[] = [];
    const footers: DocBlock[] = [];
    if (ccpHdd) {
      const cps = this.plcCps(11, 0);
      const seen = new Set<string>();
      // Six note separators, then six stories per section; a story after the last whole section is
      // the header document's closing guard, and no story reaches past the header document.
      const stories = 6 + Math.floor(Math.max(0, cps.length - 1 - 6) / 6) * 6;
      for (let i = 6; i < stories; i++) {
        const s = hddStart + cps[i]!;
        const e = Math.min(hddStart + cps[i + 1]!, hddStart + ccpHdd);
        if (e <= s) continue;
        const kind = [0, 1, 4].includes((i - 6) % 6) ? 'header' : 'footer';
        const blocks = this.blocks(s, e, refs, kind === 'header' ? 'page_header' : 'page_footer');
        const key = JSON.stringify(blocks.map((b) => b.node));
        if (!blocks.length || seen.has(key)) continue;
        seen.add(key);
        (kind === 'header' ? headers : footers).push(...blocks);
      }
    }
    return { body, headers, footers, notes: [...this.notes, ...this.comments] };
  }

  blocks(cpStart: number, cpEnd: number, refs: Map<number, NoteRef>, type?: BlockType): DocBlock[] {
    return new StoryWalker(this, cpStart, cpEnd, refs, type).walk();
  }

  /**
   * A paragraph of the body or of a table cell: a list item when it is numbered or bulleted, code or
   * a quotation when its style's name says so.
   */
  addParagraph(sink: BlockSink, content: Inline[], props: ParaProps): void {
    const styleName = (this.paraStyles.get(props.istd)?.name ?? '').trim().toLowerCase();
    if (props.ilfo > 0) {
      const level = Math.min(8, props.ilvl);
      const ordered = this.ordered(props.ilfo, level);
      sink.addListItem(level, ordered, ordered ? this.nextNumber(props.ilfo, level) : undefined, content);
    } else if (CODE_STYLE.test(styleName)) sink.addCodeLine(content);
    else if (QUOTE_STYLE.test(styleName)) sink.addQuoteParagraph(content);
    else sink.add({ kind: 'paragraph', content });
  }

  /**
   * An inline picture: the PICF record in the Data stream holds the image itself (inside OfficeArt
   * records); PNG and JPEG data are found by their signatures. Other kinds (metafiles) are left out.
   */
  picture(offset: number): Inline | undefined {
    const d = this.data;
    if (!d || offset + 4 > d.length) return undefined;
    const lcb = new DataView(d.buffer, d.byteOffset, d.byteLength).getUint32(offset, true);
    const end = Math.min(d.length, offset + lcb);
    return this.imageIn(d.subarray(offset, end));
  }

  /** The PNG or JPEG image inside a picture record or blip, found by its signature. */
  imageIn(region: Uint8Array): Inline | undefined {
    const find = (sig: number[], from = 0): number => {
      outer: for (let k = from; k + sig.length <= region.length; k++) {
        for (let q = 0; q < sig.length; q++) if (region[k + q] !== sig[q]) continue outer;
        return k;
      }
      return -1;
    };
    let mime = '';
    let start = find([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    let stop = -1;
    if (start >= 0) {
      mime = 'image/png';
      const iend = find([0x49, 0x45, 0x4e, 0x44], start);
      stop = iend >= 0 ? iend + 8 : region.length;
    } else {
      start = find([0xff, 0xd8, 0xff]);
      if (start >= 0) {
        mime = 'image/jpeg';
        stop = region.length;
        for (let k = region.length - 2; k > start; k--)
          if (region[k] === 0xff && region[k + 1] === 0xd9) {
            stop = k + 2;
            break;
          }
      }
    }
    if (!mime) return undefined;
    if (this.removeBase64) return { type: 'image', alt: '', src: `data:${mime};base64...` };
    return {
      type: 'image',
      alt: '',
      src: `data:${mime};base64,${Buffer.from(region.subarray(start, stop)).toString('base64')}`,
    };
  }

  /** Whether list (ilfo, ilvl) is numbered; from the list tables when they can be read. */
  ordered(ilfo: number, ilvl: number): boolean {
    return this.listFormats().get(ilfo)?.[ilvl] ?? false;
  }

  private readonly counters = new Map<number, number[]>();

  /**
   * Number of the next item of (list, level): numbering continues across interruptions and across
   * the list's overrides (LFOs of one LST), as in Word; an override that restarts a level
   * (LFOLVL fStartAt) restarts it where it first numbers that level.
   */
  nextNumber(ilfo: number, ilvl: number): number {
    const key = this.listIds.get(ilfo) ?? -ilfo;
    let c = this.counters.get(key);
    if (!c) this.counters.set(key, (c = []));
    for (let i = ilvl + 1; i < c.length; i++) c[i] = 0;
    const restart = this.listRestarts.get(ilfo)?.get(ilvl);
    const first = `${ilfo}:${ilvl}`;
    if (restart !== undefined && !this.restarted.has(first)) {
      this.restarted.add(first);
      c[ilvl] = restart;
    } else c[ilvl] = c[ilvl] ? c[ilvl]! + 1 : (this.listStarts.get(ilfo)?.[ilvl] ?? 1);
    return c[ilvl]!;
  }

  private readonly listIds = new Map<number, number>();
  private readonly listStarts = new Map<number, number[]>();
  /** Per list override (ilfo): the levels it restarts, with their first number. */
  private readonly listRestarts = new Map<number, Map<number, number>>();
  private readonly restarted = new Set<string>();

  private lists: Map<number, boolean[]> | undefined;

  /** ilfo → per-level "numbered" flags, from PlfLst (LSTF + LVLs) and PlfLfo. */
  private listFormats(): Map<number, boolean[]> {
    if (this.lists) return this.lists;
    this.lists = new Map();
    try {
      const t = this.table;
      const tv = new DataView(t.buffer, t.byteOffset, t.byteLength);
      const [fcLst, lcbLst] = this.fcLcb(73);
      const [fcLfo, lcbLfo] = this.fcLcb(74);
      if (!lcbLst || !lcbLfo) return this.lists;
      const cLst = tv.getInt16(fcLst, true);
      const byId = new Map<number, boolean[]>();
      const startsById = new Map<number, number[]>();
      let p = fcLst + 2 + cLst * 28;
      for (let k = 0; k < cLst; k++) {
        const lstf = fcLst + 2 + k * 28;
        const lsid = tv.getInt32(lstf, true);
        const simple = (t[lstf + 26]! & 1) !== 0;
        const nLvl = simple ? 1 : 9;
        const flags: boolean[] = [];
        const starts: number[] = [];
        for (let l = 0; l < nLvl; l++) {
          // LVLF (28 bytes): nfc at 4.
          const nfc = t[p + 4]!;
          flags.push(nfc !== 23 && nfc !== 255);
          starts.push(tv.getInt32(p, true) || 1);
          p = lvlEnd(t, p);
        }
        byId.set(lsid, flags);
        startsById.set(lsid, starts);
      }
      const cLfo = tv.getInt32(fcLfo, true);
      for (let k = 0; k < cLfo; k++) {
        const lsid = tv.getInt32(fcLfo + 4 + k * 16, true);
        const f = byId.get(lsid);
        if (f) this.lists.set(k + 1, f);
        this.listIds.set(k + 1, lsid);
        const st = startsById.get(lsid);
        if (st) this.listStarts.set(k + 1, st);
      }
      // After the LFOs, each one's LFOData: a CP, then its LFOLVLs (the level overrides): iStartAt,
      // then iLvl (4 bits), fStartAt and fFormatting; a full LVL follows when fFormatting is set.
      let q = fcLfo + 4 + cLfo * 16;
      for (let k = 0; k < cLfo && q + 4 <= fcLfo + lcbLfo; k++) {
        const count = t[fcLfo + 4 + k * 16 + 12]!;
        q += 4;
        for (let j = 0; j < count && q + 8 <= fcLfo + lcbLfo; j++) {
          const startAt = tv.getInt32(q, true);
          const bits = tv.getUint32(q + 4, true);
          q += 8;
          if (bits & 0x10) {
            let levels = this.listRestarts.get(k + 1);
            if (!levels) this.listRestarts.set(k + 1, (levels = new Map()));
            levels.set(bits & 0x0f, startAt);
          }
          if (bits & 0x20) q = lvlEnd(t, q);
        }
      }
    } catch {
      // Unreadable list tables: items stay bullets.
    }
    return this.lists;
  }

  note(ref: NoteRef, refs: Map<number, NoteRef>): string {
    const label = ref.kind === 'comment' ? `comment-${++this.commentCounter}` : String(++this.noteCounter);
    const blocks = ref.end > ref.start ? this.blocks(ref.start, ref.end, refs) : [];
    const nodes = blocks.map((b) => b.node);
    if (ref.kind === 'comment') withAuthor(nodes, ref.author ?? '');
    (ref.kind === 'comment' ? this.comments : this.notes).push({
      node: { kind: 'note', label, children: nodes.length ? nodes : [{ kind: 'paragraph', content: [] }] },
    });
    return label;
  }
}

/** The end of an LVL at `p`: its LVLF (28 bytes, grpprlChpx and grpprlPapx sizes at 24 and 25), those grpprls, then its number text (an Xst). */
function lvlEnd(t: Uint8Array, p: number): number {
  const end = p + 28 + t[p + 25]! + t[p + 24]!;
  return end + 2 + (t[end]! | (t[end + 1]! << 8)) * 2;
}

/** Root-level streams of the compound file: the small lazy reader first, `cfb` when it gives up. */
function openStreams(bytes: Uint8Array): (name: string) => Uint8Array | undefined {
  try {
    const ole = new OleFile(bytes);
    return (name) => ole.stream(name);
  } catch {
    let container: CfbContainer;
    try {
      container = readCfb(bytes);
    } catch (err) {
      throw new ParseError('MALFORMED', `The Word 97–2003 container cannot be read: ${(err as Error).message}`, {
        cause: err,
      });
    }
    return (name) => cfbStream(container, name);
  }
}

export function readDoc(ctx: ReaderContext): DocModel {
  const stream = openStreams(ctx.bytes);
  let wordDoc: Uint8Array | undefined;
  let tableStream: Uint8Array | undefined;
  let dataStream: Uint8Array | undefined;
  let summary: Uint8Array | undefined;
  try {
    wordDoc = stream('WordDocument');
    dataStream = stream('Data');
    summary = stream('\u0005SummaryInformation');
  } catch (err) {
    if (!wordDoc) throw malformed(`the WordDocument stream cannot be read (${(err as Error).message})`);
  }
  if (!wordDoc || wordDoc.length < 0x44) throw malformed('the WordDocument stream is missing');
  const view = new DataView(wordDoc.buffer, wordDoc.byteOffset, wordDoc.byteLength);
  const ident = view.getUint16(0, true);
  const nFib = view.getUint16(2, true);
  const flags = view.getUint16(0x0a, true);
  if (ident !== 0xa5ec && ident !== 0xa5dc) throw malformed('the file information block has a wrong signature');
  if (flags & 0x0100) throw new ParseError('ENCRYPTED', 'The Word document is password protected.');
  if (nFib < 101 || ident === 0xa5dc) {
    throw new ParseError(
      'UNSUPPORTED_FILE_TYPE',
      'Word 6.0/95 documents (and older) are not supported; save the document as .docx.',
    );
  }
  try {
    tableStream = stream(flags & 0x0200 ? '1Table' : '0Table');
  } catch (err) {
    throw malformed(`the table stream cannot be read (${(err as Error).message})`);
  }
  const reader = new DocReader(wordDoc, tableStream, ctx.deadline, dataStream, ctx.options.removeBase64Images);
  const { body, headers, footers, notes } = reader.convert();
  const metadata: DocModel['metadata'] = summaryInformation(summary);
  return {
    contentType: ctx.contentType,
    pages: [
      { pageNumber: 1, width: null, height: null, status: 'ok', blocks: [...headers, ...body, ...footers, ...notes] },
    ],
    metadata,
    warnings: [],
    links: reader.links,
  };
}
