/**
 * The RTF tokenizer: groups, control symbols, control words and plain text, each control word
 * handed to the part of the document it sets (document, destinations, sub-documents, paragraphs,
 * tables, characters). What it builds is kept by `builder.ts`.
 */
import { ParseError } from '../../../errors.js';
import type { ImageInline } from '../../../model/document.js';
import { removedImageSrc } from '../common.js';
import { symbolChar, symbolText } from '../symbol-fonts.js';
import { CHARSET_CP, MAX_DEPTH, TEXT_DESTS, SKIP_DESTS, KNOWN_WORDS, ROW_DEFINITION_WORDS } from './words.js';
import { RtfBuilder } from './builder.js';

export class RtfReader extends RtfBuilder {
  private tick(): void {
    if ((++this.steps & 16383) === 0 && Date.now() > this.deadline) {
      throw new ParseError('TIMEOUT', 'The RTF document could not be converted within the time limit.');
    }
  }

  run(): void {
    const s = this.src;
    const n = s.length;
    let i = 0;
    while (i < n) {
      this.tick();
      const ch = s.charCodeAt(i);
      if (ch === 123 /* { */) i = this.openGroup(i);
      else if (ch === 125 /* } */) i = this.closeGroup(i);
      else if (ch === 92 /* \ */) i = this.controlSequence(i);
      else if (ch === 13 || ch === 10) i++;
      else i = this.plainText(i);
    }
    this.flushBytes();
    while (this.sinkStack.length) this.popSink();
    if (this.para.length) this.endParagraph();
    if (this.inTable || this.tbl.rowCells.length) this.endRow();
    if (this.tbl.tableRows.length) this.flushTable();
    this.flushFloats();
  }

  /** `{`: a group opens with a copy of the state; returns where reading goes on. */
  private openGroup(at: number): number {
    const s = this.src;
    let i = at;
    this.flushBytes();
    if (this.stack.length >= MAX_DEPTH)
      throw new ParseError('RESOURCE_LIMIT', `The RTF groups are nested more than ${MAX_DEPTH} deep.`);
    this.stack.push(this.st);
    this.st = { ...this.st };
    this.opened.push(false);
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
    return i;
  }

  /** `}`: the group's destination is finished, and the state before it comes back. */
  private closeGroup(i: number): number {
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
    if (this.opened.pop()) this.popSink();
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
    return i + 1;
  }

  /** A control symbol (`\~`, `\'hh`) or control word (`\b0`, `\u8212`); returns where reading goes on. */
  private controlSequence(at: number): number {
    const s = this.src;
    const n = s.length;
    let i = at;
    const next = s.charCodeAt(i + 1);
    // Control symbols.
    if (next === 39 /* ' */) {
      const hex = s.slice(i + 2, i + 4);
      i += 4;
      if (this.skipChars > 0) {
        this.skipChars--;
        return i;
      }
      const b = parseInt(hex, 16);
      if (Number.isFinite(b)) {
        if (this.st.dest === 'pict') return i;
        this.bytes.push(b);
      }
      return i;
    }
    if (!((next >= 65 && next <= 90) || (next >= 97 && next <= 122))) {
      i += 2;
      if (this.skipChars > 0 && next !== 123 && next !== 125 && next !== 92) {
        this.skipChars--;
        return i;
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
      return i;
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
      return i;
    }
    if (this.skipChars > 0 && word !== 'par') {
      this.skipChars--;
      return i;
    }
    if (word === 'u') {
      this.flushBytes();
      let code = param ?? 0;
      if (code < 0) code += 65536;
      const sym = code >= 0xf020 && code <= 0xf0ff ? this.symbolFont() : undefined;
      this.emit(sym ? symbolChar(sym, code) : String.fromCharCode(code));
      this.skipChars = this.st.uc;
      return i;
    }
    this.control(word, param, this.opened);
    return i;
  }

  /** A run of plain text up to the next group or control sequence; returns where it ends. */
  private plainText(at: number): number {
    const s = this.src;
    const n = s.length;
    let i = at;

    let j = i;
    while (j < n) {
      const c = s.charCodeAt(j);
      if (c === 92 || c === 123 || c === 125 || c === 13 || c === 10) break;
      j++;
    }
    let text = s.slice(i, j);
    i = j;
    if (this.skipChars > 0) {
      const drop = Math.min(this.skipChars, text.length);
      text = text.slice(drop);
      this.skipChars -= drop;
    }
    if (!text) return i;
    if (this.st.dest === 'pict') {
      this.pictHex.push(text);
      return i;
    }
    if (this.st.dest === 'fonttbl') {
      if (this.fontGroup) this.fontGroup.name += text;
      return i;
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
    return i;
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
    if (
      this.controlDocument(word, param) ||
      this.controlDestinations(word, param) ||
      this.controlSubDocuments(word, param, opened) ||
      this.controlParagraphs(word, param) ||
      this.controlTables(word, param) ||
      this.controlCharacters(word, param, on)
    )
      return;
    if (SKIP_DESTS.has(word)) st.dest = 'skip';
  }

  /** Document-wide settings: code page, Unicode skip count. True when `word` is one of them. */
  private controlDocument(word: string, param: number | undefined): boolean {
    const st = this.st;
    switch (word) {
      // Document.
      case 'ansicpg':
        if (param) this.ansiCp = param === 10000 ? 'macintosh' : `cp${param}`;
        return true;
      case 'mac':
        this.ansiCp = 'macintosh';
        return true;
      case 'pc':
        this.ansiCp = 'cp437';
        return true;
      case 'pca':
        this.ansiCp = 'cp850';
        return true;
      case 'uc':
        st.uc = param ?? 1;
        return true;
      default:
        return false;
    }
  }

  /** Groups whose text goes somewhere of its own: tables of fonts and styles, information, pictures and shapes. True when `word` is one of them. */
  private controlDestinations(word: string, param: number | undefined): boolean {
    const st = this.st;
    switch (word) {
      // Destinations.
      case 'fonttbl':
        st.dest = 'fonttbl';
        return true;
      case 'stylesheet':
        st.dest = 'stylesheet';
        return true;
      case 'info':
        st.dest = 'info';
        return true;
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
        return true;
      case 'fldrslt':
        if (st.dest !== 'skip') st.dest = 'body';
        return true;
      case 'listtext':
      case 'pntext':
        st.dest = 'listtext';
        this.listText = '';
        return true;
      case 'pict':
        if (st.dest === 'skip') return true;
        st.dest = 'pict';
        this.pictHex = [];
        this.pictType = '';
        if (!this.shape) this.picProps = new Map();
        return true;
      // Drawn shapes: floating pictures are the pib property of a shape.
      case 'shp':
        if (st.dest !== 'skip') this.shape = { depth: this.stack.length, props: new Map() };
        return true;
      case 'shprslt':
        // The shape's result for readers without shapes: a copy of its picture.
        if (this.shape?.image) st.dest = 'skip';
        return true;
      case 'sp':
        if (st.dest === 'skip') return true;
        st.dest = 'shapeProp';
        this.spName = '';
        this.spValue = '';
        return true;
      case 'sn':
        if (st.dest === 'shapeProp') st.dest = 'shapePropName';
        return true;
      case 'sv':
        if (st.dest === 'shapeProp') st.dest = this.spName.trim() === 'pib' ? 'shapePicture' : 'shapePropValue';
        return true;
      case 'pngblip':
        this.pictType = 'image/png';
        return true;
      case 'jpegblip':
        this.pictType = 'image/jpeg';
        return true;
      case 'emfblip':
        this.pictType = 'image/x-emf';
        return true;
      case 'wmetafile':
        this.pictType = 'image/x-wmf';
        return true;
      case 'macpict':
        this.pictType = 'image/pict';
        return true;
      case 'dibitmap':
      case 'wbitmap':
        this.pictType = 'image/bmp';
        return true;
      default:
        return false;
    }
  }

  /** Sub-documents (headers, footers, notes, comments, text boxes), fields, fonts and styles. True when `word` is one of them. */
  private controlSubDocuments(word: string, param: number | undefined, opened: boolean[]): boolean {
    const st = this.st;
    switch (word) {
      case 'header':
      case 'headerl':
      case 'headerr':
      case 'headerf':
      case 'footer':
      case 'footerl':
      case 'footerr':
      case 'footerf':
        if (st.dest === 'skip') return true;
        st.dest = word.startsWith('header') ? 'header' : 'footer';
        this.pushSink(st.dest);
        opened[opened.length - 1] = true;
        return true;
      case 'atnauthor':
        if (st.dest === 'skip') return true;
        st.dest = 'infoField';
        this.infoKey = '#author';
        this.infoText = '';
        return true;
      case 'shptxt':
        // The text of a shape (text box): its paragraphs follow the paragraph that anchors it.
        if (st.dest === 'skip') return true;
        st.dest = 'textbox';
        this.pushSink('textbox');
        opened[opened.length - 1] = true;
        return true;
      case 'annotation':
        if (st.dest === 'skip') return true;
        st.dest = 'annotation';
        this.pushSink('annotation');
        opened[opened.length - 1] = true;
        return true;
      case 'footnote':
        if (st.dest === 'skip') return true;
        st.dest = 'footnote';
        this.pushSink('footnote');
        opened[opened.length - 1] = true;
        return true;
      case 'field':
      case 'fldinst':
        if (word === 'fldinst') {
          st.dest = 'fldinst';
          this.fldinst = '';
        }
        return true;
      case 'object':
      case 'result':
        return true;
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
        return true;
      case 'fcharset':
        if (this.fontGroup) {
          this.fontGroup.charset = param ?? 0;
          this.fonts.set(this.fontGroup.num, CHARSET_CP[param ?? 0] ?? '');
        }
        return true;
      case 's':
        if (st.dest === 'stylesheet') this.styleGroup = { num: param ?? 0, name: '' };
        else if (st.dest !== 'listtext') this.parStyle = param ?? 0;
        return true;
      case 'outlinelevel':
        if (st.dest !== 'stylesheet' && st.dest !== 'listtext') this.outline = param ?? -1;
        return true;
      default:
        return false;
    }
  }

  /** Paragraphs, and the list table that numbers them. True when `word` is one of them. */
  private controlParagraphs(word: string, param: number | undefined): boolean {
    const st = this.st;
    switch (word) {
      // Paragraphs.
      case 'par':
        this.flushBytes();
        this.par();
        return true;
      case 'pard':
        this.flushBytes();
        // A \pard inside a list label group does not end the paragraph that owns the label.
        if (st.dest !== 'listtext') this.resetParagraph();
        return true;
      case 'line':
        this.flushBytes();
        this.para.push({ type: 'break' });
        return true;
      case 'tab':
        this.flushBytes();
        // In contents entries the tab leads to the page number, which is dropped at the paragraph's end.
        if (st.dest !== 'listtext') this.emit(this.isContents() ? '\u0000' : ' ');
        return true;
      case 'ls':
        if (st.dest === 'listoverridetable') {
          if (this.overrideDef) this.listOverrides.set(param ?? -1, this.overrideDef);
        } else this.listId = param ?? -1;
        return true;
      // The list table and the list override table.
      case 'listtable':
      case 'listoverridetable':
        if (st.dest !== 'skip') st.dest = word;
        return true;
      case 'list':
        if (st.dest === 'listtable') this.listDef = [];
        return true;
      case 'listlevel':
        if (st.dest === 'listtable') this.listDef?.push({ nfc: 0, start: 1 });
        return true;
      case 'levelnfc':
      case 'levelnfcn': {
        const lvl = st.dest === 'listtable' ? this.listDef?.[this.listDef.length - 1] : undefined;
        if (lvl) lvl.nfc = param ?? 0;
        return true;
      }
      case 'levelstartat': {
        if (st.dest === 'listtable') {
          const lvl = this.listDef?.[this.listDef.length - 1];
          if (lvl) lvl.start = param ?? 1;
        } else if (st.dest === 'listoverridetable' && this.overrideDef?.startAt && this.overrideDef.level >= 0) {
          this.overrideDef.starts[this.overrideDef.level] = param ?? 1;
        }
        return true;
      }
      case 'listid':
        if (st.dest === 'listtable' && this.listDef) this.listDefs.set(param ?? 0, this.listDef);
        else if (st.dest === 'listoverridetable' && this.overrideDef) this.overrideDef.listId = param ?? 0;
        return true;
      case 'listoverride':
        if (st.dest === 'listoverridetable') this.overrideDef = { listId: -1, starts: [], level: -1, startAt: false };
        return true;
      case 'lfolevel':
        if (this.overrideDef) {
          this.overrideDef.level++;
          this.overrideDef.startAt = false;
        }
        return true;
      case 'listoverridestartat':
        if (this.overrideDef) this.overrideDef.startAt = true;
        return true;
      case 'ilvl':
        this.listLevel = param ?? 0;
        return true;
      default:
        return false;
    }
  }

  /** Table rows and cells. True when `word` is one of them. */
  private controlTables(word: string, param: number | undefined): boolean {
    const st = this.st;
    switch (word) {
      // Tables.
      case 'trleft':
        this.tbl.rowDef.left = param ?? 0;
        return true;
      case 'trowd':
        this.tbl.rowDef = { merges: [], bounds: [], left: 0 };
        this.tbl.pendingMerges = 'none';
        return true;
      case 'clmgf':
        this.tbl.pendingMerges = 'hstart';
        return true;
      case 'clmrg':
        this.tbl.pendingMerges = 'h';
        return true;
      case 'clvmgf':
        this.tbl.pendingMerges = 'vstart';
        return true;
      case 'clvmrg':
        this.tbl.pendingMerges = 'v';
        return true;
      case 'cellx':
        this.tbl.rowDef.bounds.push(param ?? 0);
        this.tbl.rowDef.merges.push(this.tbl.pendingMerges);
        this.tbl.pendingMerges = 'none';
        return true;
      case 'intbl':
        this.inTable = true;
        return true;
      case 'itap':
        if ((param ?? 1) >= 1) this.inTable = true;
        return true;
      case 'nestcell':
      case 'nestrow':
        // A table nested in a cell is flattened into the outer cell's text.
        this.flushBytes();
        if (st.dest !== 'skip') this.para.push({ type: 'text', text: ' ' });
        return true;
      case 'cell':
        this.flushBytes();
        if (st.dest === 'skip') return true;
        this.inTable = true;
        this.endCell();
        return true;
      case 'row':
        this.flushBytes();
        this.endRow();
        return true;
      default:
        return false;
    }
  }

  /** Character formatting and the special characters written as words. True when `word` is one of them. */
  private controlCharacters(word: string, param: number | undefined, on: boolean): boolean {
    const st = this.st;
    switch (word) {
      // Characters.
      case 'plain':
        st.bold = st.italic = st.strike = st.sup = st.sub = st.hidden = false;
        return true;
      case 'b':
        st.bold = on;
        return true;
      case 'i':
        st.italic = on;
        return true;
      case 'strike':
      case 'striked':
        st.strike = on;
        return true;
      case 'super':
        st.sup = on;
        st.sub = false;
        return true;
      case 'sub':
        st.sub = on;
        st.sup = false;
        return true;
      case 'nosupersub':
        st.sup = st.sub = false;
        return true;
      // Text raised or lowered (by half-points) is how some writers, LibreOffice among them, set
      // superscripts and subscripts.
      case 'up':
        st.sup = (param ?? 6) > 0;
        if (st.sup) st.sub = false;
        return true;
      case 'dn':
        st.sub = (param ?? 6) > 0;
        if (st.sub) st.sup = false;
        return true;
      case 'v':
        st.hidden = on;
        return true;
      // Deleted text of a tracked change.
      case 'deleted':
        st.hidden = on;
        return true;
      case 'emdash':
        this.flushBytes();
        this.emit('—');
        return true;
      case 'endash':
        this.flushBytes();
        this.emit('–');
        return true;
      case 'bullet':
        this.flushBytes();
        this.emit('•');
        return true;
      case 'lquote':
        this.flushBytes();
        this.emit('‘');
        return true;
      case 'rquote':
        this.flushBytes();
        this.emit('’');
        return true;
      case 'ldblquote':
        this.flushBytes();
        this.emit('“');
        return true;
      case 'rdblquote':
        this.flushBytes();
        this.emit('”');
        return true;
      case 'emspace':
      case 'enspace':
      case 'qmspace':
        this.flushBytes();
        this.emit(' ');
        return true;
      case 'sect':
        // A section break ends the paragraph it is in (Word writes \par before it, then nothing is open).
        this.flushBytes();
        if (this.para.length) this.par();
        return true;
      case 'page':
      case 'column':
        // The text after a page or column break starts a new line of the same paragraph.
        this.flushBytes();
        if (TEXT_DESTS.has(st.dest)) this.para.push({ type: 'break' });
        return true;
      default:
        return false;
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
