/**
 * Legacy PowerPoint 97-2003 (.ppt) from the binary "PowerPoint Document" stream ([MS-PPT]). No
 * maintained npm package reads slide text from .ppt, so this walks the records itself, with the
 * project's small OLE2 reader for the compound file (`cfb` when that cannot read it):
 *
 * - The current edit (Current User stream → UserEditAtom chain → PersistDirectoryAtoms) maps persist
 *   ids to record offsets, so incrementally saved files show their latest state.
 * - Slides come in the order of the slide list (SlideListWithText, instance 0). Text of a slide is in
 *   its placeholders' TextCharsAtom/TextBytesAtom records there, and in the text boxes of the slide's
 *   own drawing (OutlineTextRefAtom points back into the list).
 * - Shapes are placed by their client anchors and read top-to-bottom, left-to-right, title first.
 * - Paragraph indent levels and bullet flags come from StyleTextPropAtom (bulleted paragraphs become
 *   nested lists), bold, italic, superscript and subscript from its character runs, automatic
 *   numbering from the PowerPoint 2000 extension (StyleTextProp9Atom), and tables from groups
 *   flagged as tables. Hyperlinks: an InteractiveInfo with its TxInteractiveInfoAtom range after the
 *   text, its target in the document's ExObjList.
 * - Speaker notes (the notes page's body text) follow the slide's content under `### Notes`.
 *
 * When the persist directory is damaged, the reader falls back to the text atoms of the slide list
 * in stream order and says so in a warning.
 */
import { ParseError } from '../../errors.js';
import { cfbStream, readCfb, type CfbContainer } from '../../containers/compound.js';
import { OleFile } from '../../containers/ole.js';
import type { DocModel, DocPage, Inline, Node, TableCell, TextInline } from '../../model/document.js';
import type { ReaderContext } from '../../readers/reader.js';
import { paragraphsToNodes, slidePage, trimInlines, type PlacedItem, type SlideParagraph } from './common.js';

const RT = {
  Document: 0x03e8,
  DocumentAtom: 0x03e9,
  Slide: 0x03ee,
  SlideAtom: 0x03ef,
  Notes: 0x03f0,
  SlidePersistAtom: 0x03f3,
  OutlineTextRefAtom: 0x0f9e,
  TextHeaderAtom: 0x0f9f,
  TextCharsAtom: 0x0fa0,
  StyleTextPropAtom: 0x0fa1,
  TextBytesAtom: 0x0fa8,
  SlideListWithText: 0x0ff0,
  UserEditAtom: 0x0ff5,
  PersistDirectoryAtom: 0x1772,
  SpgrContainer: 0xf003,
  SpContainer: 0xf004,
  FSPGR: 0xf009,
  FOPT: 0xf00b,
  TertiaryFOPT: 0xf122,
  ClientAnchor: 0xf010,
  ChildAnchor: 0xf00f,
  ClientTextbox: 0xf00d,
  ClientData: 0xf011,
  BinaryTagData: 0x138b,
  StyleTextProp9Atom: 0x0fac,
  ExObjList: 0x0409,
  ExHyperlink: 0x0fd7,
  ExHyperlinkAtom: 0x0fd3,
  CString: 0x0fba,
  InteractiveInfo: 0x0ff2,
  InteractiveInfoAtom: 0x0ff3,
  TxInteractiveInfoAtom: 0x0fdf,
} as const;

/** InteractiveInfoAtom.action of a hyperlink ([MS-PPT] 2.13.15). */
const ACTION_HYPERLINK = 4;

// Decoders are stateless between whole-buffer calls; creating one per text atom costs more than the decoding.
const UTF16 = new TextDecoder('utf-16le');
const LATIN1 = new TextDecoder('latin1');

const TITLE_TYPES = new Set([0, 6]);
const BODY_TYPES = new Set([1, 5, 7, 8]);
const NOTES_TYPE = 2;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
type Transform = (b: Box) => Box;

interface Rec {
  type: number;
  instance: number;
  container: boolean;
  /** Offset of the record's data. */
  start: number;
  end: number;
}

class Stream {
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  header(at: number): Rec | null {
    if (at < 0 || at + 8 > this.bytes.length) return null;
    const verInst = this.view.getUint16(at, true);
    const type = this.view.getUint16(at + 2, true);
    const len = this.view.getUint32(at + 4, true);
    const start = at + 8;
    const end = Math.min(this.bytes.length, start + len);
    return { type, instance: verInst >> 4, container: (verInst & 0xf) === 0xf, start, end };
  }

  children(rec: Rec): Rec[] {
    const out: Rec[] = [];
    let p = rec.start;
    while (p + 8 <= rec.end) {
      const h = this.header(p);
      if (!h) break;
      out.push(h);
      if (h.end <= p) break;
      p = h.end;
    }
    return out;
  }

  u32(at: number): number {
    return at + 4 <= this.bytes.length ? this.view.getUint32(at, true) : 0;
  }

  i32(at: number): number {
    return at + 4 <= this.bytes.length ? this.view.getInt32(at, true) : 0;
  }

  i16(at: number): number {
    return at + 2 <= this.bytes.length ? this.view.getInt16(at, true) : 0;
  }

  u16(at: number): number {
    return at + 2 <= this.bytes.length ? this.view.getUint16(at, true) : 0;
  }
}

interface TextRun {
  type: number;
  text: string;
  /** Paragraph property runs (indent level, bullet flag), each over `count` characters. */
  paras: { level: number; bullet: boolean | undefined; count: number }[];
  /** Character property runs (bold, italic, raised or lowered), each over `count` characters. */
  chars: { count: number; bold: boolean; italic: boolean; pp9rt: number; position: number }[];
  /** Hyperlinks on character ranges [begin, end) of the text. */
  links: { begin: number; end: number; href: string }[];
}

/** Hyperlink targets of the document (ExObjList → ExHyperlink): exHyperlinkId → address. */
type Hyperlinks = Map<number, string>;

function decodeText(s: Stream, rec: Rec): string {
  const data = s.bytes.subarray(rec.start, rec.end);
  if (rec.type === RT.TextCharsAtom) return UTF16.decode(data.subarray(0, data.length & ~1));
  return LATIN1.decode(data);
}

/** Paragraph runs of a StyleTextPropAtom ([MS-PPT] 2.9.44 TextPFRun / TextPFException). */
function paragraphProps(s: Stream, rec: Rec, textLength: number): { paras: TextRun['paras']; end: number } {
  const out: TextRun['paras'] = [];
  let p = rec.start;
  let covered = 0;
  while (covered <= textLength && p + 10 <= rec.end) {
    const count = s.u32(p);
    const level = s.u16(p + 4);
    const mask = s.u32(p + 6);
    p += 10;
    let bullet: boolean | undefined;
    const bit = (n: number): boolean => (mask & (1 << n)) !== 0;
    if (mask & 0x0f) {
      const flags = s.u16(p);
      if (bit(0)) bullet = (flags & 1) === 1;
      p += 2;
    }
    if (bit(7)) p += 2; // bulletChar
    if (bit(4)) p += 2; // bulletFontRef
    if (bit(6)) p += 2; // bulletSize
    if (bit(5)) p += 4; // bulletColor
    if (bit(11)) p += 2; // textAlignment
    if (bit(12)) p += 2; // lineSpacing
    if (bit(13)) p += 2; // spaceBefore
    if (bit(14)) p += 2; // spaceAfter
    if (bit(8)) p += 2; // leftMargin
    if (bit(10)) p += 2; // indent
    if (bit(15)) p += 2; // defaultTabSize
    if (bit(20)) p += 2 + 4 * s.u16(p); // tabStops
    if (bit(16)) p += 2; // fontAlign
    if (mask & 0x000e0000) p += 2; // wrapFlags
    if (bit(21)) p += 2; // textDirection
    if (bit(23)) p += 2; // bulletBlip
    if (bit(24)) p += 4; // bulletAutoNumberScheme
    if (bit(25)) p += 2; // bulletHasAutoNumberScheme
    // One run may span several paragraphs: count is in characters, each paragraph ends with \r.
    out.push({ level: Math.min(8, level), bullet, count });
    covered += count;
    if (count === 0) break;
  }
  return { paras: out, end: p };
}

/** Character runs of a StyleTextPropAtom ([MS-PPT] 2.9.45 TextCFRun / TextCFException): bold and italic. */
function charProps(s: Stream, start: number, end: number, textLength: number): TextRun['chars'] {
  const out: TextRun['chars'] = [];
  let p = start;
  let covered = 0;
  while (covered <= textLength && p + 8 <= end) {
    const count = s.u32(p);
    const mask = s.u32(p + 4);
    p += 8;
    const bit = (n: number): boolean => (mask & (1 << n)) !== 0;
    let style = 0;
    if (mask & 0x3ebf) {
      style = s.u16(p);
      p += 2;
    }
    if (bit(16)) p += 2; // fontRef
    if (bit(21)) p += 2; // oldEAFontRef
    if (bit(22)) p += 2; // ansiFontRef
    if (bit(23)) p += 2; // symbolFontRef
    if (bit(17)) p += 2; // fontSize
    if (bit(18)) p += 4; // color
    let position = 0;
    if (bit(19)) {
      position = s.i16(p); // percent of the font size: above the baseline > 0, below < 0
      p += 2;
    }
    if (bit(20)) p += 4; // pp10runid
    if (bit(24)) p += 2; // newEAFontRef
    if (bit(25)) p += 2; // csFontRef
    if (bit(26)) p += 4; // pp11ext
    // fontStyle bits 10-13 index the run's PowerPoint 2000 properties (StyleTextProp9Atom).
    out.push({
      count,
      bold: bit(0) && (style & 1) === 1,
      italic: bit(1) && (style & 2) === 2,
      pp9rt: (style >> 10) & 0xf,
      position,
    });
    covered += count;
    if (count === 0) break;
  }
  return out;
}

/** Auto-numbering of a StyleTextProp9 entry: the scheme's first number, or null when it has none. */
type Numbering = (number | null)[];

/**
 * The numbering of a shape's PowerPoint 2000 extension (ClientData → ProgTags → "___PPT9" binary
 * tag → StyleTextProp9Atom, [MS-PPT]): entry i says whether paragraphs whose character run
 * has pp9rt = i are auto-numbered, and from which number.
 */
function pp9Numbering(s: Stream, clientData: Rec | undefined): Numbering {
  const out: Numbering = [];
  if (!clientData) return out;
  const find = (rec: Rec, type: number, depth = 0): Rec | undefined => {
    for (const c of s.children(rec)) {
      if (c.type === type) return c;
      if (c.container && depth < 6) {
        const hit = find(c, type, depth + 1);
        if (hit) return hit;
      }
    }
    return undefined;
  };
  const blob = find(clientData, RT.BinaryTagData);
  const atom = blob ? s.children(blob).find((c) => c.type === RT.StyleTextProp9Atom) : undefined;
  if (!atom) return out;
  let p = atom.start;
  while (p + 12 <= atom.end && out.length < 64) {
    const pf = s.u32(p);
    p += 4;
    let hasNumber = false;
    let start = 1;
    if (pf & (1 << 23)) p += 2; // bulletBlipRef
    if (pf & (1 << 25)) {
      hasNumber = s.u16(p) === 1;
      p += 2;
    }
    if (pf & (1 << 24)) {
      start = s.u16(p + 2) || 1;
      p += 4;
    }
    const cf = s.u32(p);
    p += 4;
    if (cf & (1 << 20)) p += 4; // pp10runid
    const si = s.u32(p);
    p += 4;
    if (si & 1) p += 2; // spellInfo
    if (si & 2) p += 2; // lang
    if (si & 4) p += 2; // altLang
    if (si & (1 << 6)) p += 2; // bidi
    if (si & (1 << 5)) p += 4; // pp10runid, grammarError
    if (si & (1 << 9)) p += 4 + 4 * s.u32(p); // smartTags
    out.push(hasNumber ? start : null);
  }
  return out;
}

function runParagraphs(run: TextRun, numbering: Numbering = []): SlideParagraph[] {
  const texts = run.text.replace(/\r$/, '').split('\r');
  // Expand the character-counted runs to per-paragraph properties.
  const props: { level: number; bullet: boolean | undefined }[] = [];
  const runs = run.paras;
  let ri = 0;
  let left = runs[0]?.count ?? Infinity;
  for (const t of texts) {
    const r = runs[ri];
    props.push(r ? { level: r.level, bullet: r.bullet } : { level: 0, bullet: undefined });
    left -= t.length + 1;
    while (left <= 0 && ri < runs.length - 1) {
      ri++;
      left += runs[ri]!.count;
    }
  }
  const defaultBullet = BODY_TYPES.has(run.type);
  let offset = 0;
  return texts.map((t, i) => {
    const content = styledInlines(t, offset, run);
    const start = numbering.length ? numberingAt(run.chars, offset, numbering) : null;
    offset += t.length + 1;
    const pr = props[i]!;
    const bullet = pr.bullet ?? defaultBullet;
    if (!bullet || TITLE_TYPES.has(run.type)) return { content };
    return start === null
      ? { content, level: pr.level, ordered: false }
      : { content, level: pr.level, ordered: true, start };
  });
}

/** The auto-numbering start of the character run at `offset`, or null when it is not numbered. */
function numberingAt(chars: TextRun['chars'], offset: number, numbering: Numbering): number | null {
  let at = 0;
  for (const c of chars) {
    if (offset < at + c.count) return numbering[c.pp9rt] ?? null;
    at += c.count;
  }
  return null;
}

/**
 * A paragraph's inlines (the text at `offset` of the run) with the bold, italic, superscript and
 * subscript of the character runs and the hyperlinks that cover each piece.
 */
function styledInlines(t: string, offset: number, run: TextRun): Inline[] {
  const { chars, links } = run;
  if (!chars.length && !links.length) return lineInlines(t);
  const end = offset + t.length;
  // Pieces start where a character run or a link starts or ends.
  const cuts = new Set<number>([offset, end]);
  let at = 0;
  for (const c of chars) {
    at += c.count;
    if (at > offset && at < end) cuts.add(at);
  }
  for (const l of links) for (const b of [l.begin, l.end]) if (b > offset && b < end) cuts.add(b);
  const bounds = [...cuts].sort((a, b) => a - b);
  const out: Inline[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const from = bounds[k]!;
    const c = charRunAt(chars, from);
    const href = links.find((l) => from >= l.begin && from < l.end)?.href;
    for (const inline of lineInlines(t.slice(from - offset, bounds[k + 1]! - offset))) {
      if (inline.type !== 'text') {
        out.push(inline);
        continue;
      }
      const styled: TextInline = { ...inline };
      if (c?.bold) styled.bold = true;
      if (c?.italic) styled.italic = true;
      if (c && c.position > 0) styled.superscript = true;
      if (c && c.position < 0) styled.subscript = true;
      if (href) styled.href = href;
      out.push(styled);
    }
  }
  return out;
}

/** The character run covering the character at `pos` of the run's text. */
function charRunAt(chars: TextRun['chars'], pos: number): TextRun['chars'][number] | undefined {
  let at = 0;
  for (const c of chars) {
    if (pos < at + c.count) return c;
    at += c.count;
  }
  return undefined;
}

function lineInlines(t: string): Inline[] {
  const out: Inline[] = [];
  // Vertical tab is a soft line break; other control characters are field placeholders.
  t.split('\x0b').forEach((part, i) => {
    if (i) out.push({ type: 'break' });
    const clean = part.replace(/[\x00-\x08\x0c-\x1f]/g, '');
    if (clean) out.push({ type: 'text', text: clean });
  });
  return out;
}

/**
 * Text runs of a record list: TextHeaderAtom, then chars or bytes, then optional style, and the
 * text's hyperlinks: an InteractiveInfo (mouse click, action "hyperlink") followed by the
 * TxInteractiveInfoAtom of the characters it covers.
 */
function collectRuns(s: Stream, recs: Rec[], out: TextRun[], hyperlinks: Hyperlinks): void {
  let type = 4;
  let href: string | undefined;
  for (const r of recs) {
    if (r.type === RT.TextHeaderAtom) type = s.u32(r.start);
    else if (r.type === RT.TextCharsAtom || r.type === RT.TextBytesAtom)
      out.push({ type, text: decodeText(s, r), paras: [], chars: [], links: [] });
    else if (r.type === RT.InteractiveInfo) {
      const atom = r.instance === 0 ? s.children(r).find((k) => k.type === RT.InteractiveInfoAtom) : undefined;
      href = atom && s.bytes[atom.start + 8] === ACTION_HYPERLINK ? hyperlinks.get(s.u32(atom.start + 4)) : undefined;
    } else if (r.type === RT.TxInteractiveInfoAtom) {
      if (href && out.length) out[out.length - 1]!.links.push({ begin: s.u32(r.start), end: s.u32(r.start + 4), href });
      href = undefined;
    } else if (r.type === RT.StyleTextPropAtom && out.length) {
      const last = out[out.length - 1]!;
      if (!last.paras.length) {
        const { paras, end } = paragraphProps(s, r, last.text.length);
        last.paras = paras;
        last.chars = charProps(s, end, r.end, last.text.length);
      }
    }
  }
}

interface SlideEntry {
  persistId: number;
  /** The slide's (or notes page's) id, which SlideAtom.notesIdRef refers to. */
  slideId: number;
  runs: TextRun[];
}

/**
 * The document's hyperlink targets: each ExHyperlink's id (ExHyperlinkAtom) and address (its CString
 * of instance 1). Only web, mail and FTP addresses are kept: others point into the presentation.
 */
function hyperlinkTargets(s: Stream, doc: Rec): Hyperlinks {
  const out: Hyperlinks = new Map();
  for (const list of s.children(doc)) {
    if (list.type !== RT.ExObjList) continue;
    for (const link of s.children(list)) {
      if (link.type !== RT.ExHyperlink) continue;
      const kids = s.children(link);
      const atom = kids.find((k) => k.type === RT.ExHyperlinkAtom);
      const target = kids.find((k) => k.type === RT.CString && k.instance === 1);
      if (!atom || !target) continue;
      const address = UTF16.decode(s.bytes.subarray(target.start, target.start + ((target.end - target.start) & ~1)))
        .replace(/\0+$/, '')
        .trim();
      if (/^(https?|mailto|ftp):/i.test(address)) out.set(s.u32(atom.start), address);
    }
  }
  return out;
}

function slideList(s: Stream, doc: Rec, instance: number, hyperlinks: Hyperlinks): SlideEntry[] {
  const out: SlideEntry[] = [];
  for (const slwt of s.children(doc)) {
    if (slwt.type !== RT.SlideListWithText || slwt.instance !== instance) continue;
    let current: SlideEntry | null = null;
    let pending: Rec[] = [];
    const flush = (): void => {
      if (current) collectRuns(s, pending, current.runs, hyperlinks);
      pending = [];
    };
    for (const r of s.children(slwt)) {
      if (r.type === RT.SlidePersistAtom) {
        flush();
        current = { persistId: s.u32(r.start), slideId: s.u32(r.start + 12), runs: [] };
        out.push(current);
      } else pending.push(r);
    }
    flush();
  }
  return out;
}

class PptReader {
  readonly warnings: string[] = [];
  private persist = new Map<number, number>();
  private hyperlinks: Hyperlinks = new Map();

  constructor(
    private readonly s: Stream,
    private readonly currentUser: Uint8Array | undefined,
    private readonly ctx: ReaderContext,
  ) {}

  private loadPersist(): number | null {
    if (!this.currentUser || this.currentUser.length < 20) return null;
    const cu = new DataView(this.currentUser.buffer, this.currentUser.byteOffset, this.currentUser.byteLength);
    let offset = cu.getUint32(16, true);
    let docRef: number | null = null;
    const seen = new Set<number>();
    while (offset > 0 && !seen.has(offset) && seen.size < 10000) {
      seen.add(offset);
      const edit = this.s.header(offset);
      if (!edit || edit.type !== RT.UserEditAtom) break;
      docRef ??= this.s.u32(edit.start + 16);
      const dirAt = this.s.u32(edit.start + 12);
      const dir = this.s.header(dirAt);
      if (dir && dir.type === RT.PersistDirectoryAtom) {
        let p = dir.start;
        while (p + 4 <= dir.end) {
          const word = this.s.u32(p);
          const first = word & 0xfffff;
          const n = word >>> 20;
          p += 4;
          for (let k = 0; k < n && p + 4 <= dir.end; k++, p += 4) {
            // Newer edits come first in the chain: keep the first offset seen for an id.
            if (!this.persist.has(first + k)) this.persist.set(first + k, this.s.u32(p));
          }
        }
      }
      offset = this.s.u32(edit.start + 8);
    }
    return docRef;
  }

  private record(persistId: number, type: number): Rec | null {
    const at = this.persist.get(persistId);
    if (at === undefined) return null;
    const r = this.s.header(at);
    return r && r.type === type ? r : null;
  }

  /** The document container: through the persist directory, else the last one in the stream. */
  private document(): Rec | null {
    const ref = this.loadPersist();
    if (ref !== null) {
      const doc = this.record(ref, RT.Document);
      if (doc) return doc;
    }
    let p = 0;
    let last: Rec | null = null;
    while (p + 8 <= this.s.bytes.length) {
      const h = this.s.header(p);
      if (!h || h.end <= p) break;
      if (h.type === RT.Document) last = h;
      p = h.end;
    }
    if (last)
      this.warnings.push(
        'The PowerPoint edit history could not be followed; the last document record in the file was used.',
      );
    return last;
  }

  read(): DocModel {
    const doc = this.document();
    if (!doc) throw new ParseError('MALFORMED', 'The PowerPoint file has no document record: it cannot be read.');
    const docAtom = this.s.children(doc).find((r) => r.type === RT.DocumentAtom);
    const extent = docAtom ? { width: this.s.i32(docAtom.start), height: this.s.i32(docAtom.start + 4) } : null;
    const size = extent && extent.width > 0 && extent.height > 0 ? extent : null;
    const pageSize = size ? { width: Math.round(size.width / 8), height: Math.round(size.height / 8) } : null;

    this.hyperlinks = hyperlinkTargets(this.s, doc);
    const slides = slideList(this.s, doc, 0, this.hyperlinks);
    const notesById = new Map(slideList(this.s, doc, 2, this.hyperlinks).map((e) => [e.slideId, e]));
    const pages: DocPage[] = [];
    slides.forEach((entry, i) => {
      if (this.ctx.signal.aborted) throw this.ctx.signal.reason;
      const slide = this.record(entry.persistId, RT.Slide);
      const items: PlacedItem[] = [];
      let notes: Node[] = [];
      const usedRuns = new Set<number>();
      let seq = 0;
      if (slide) {
        this.shapes(
          slide,
          entry.runs,
          usedRuns,
          items,
          () => seq++,
          (t) => t !== NOTES_TYPE,
        );
        const slideAtom = this.s.children(slide).find((r) => r.type === RT.SlideAtom);
        const notesId = slideAtom ? this.s.u32(slideAtom.start + 16) : 0;
        const listed = notesId ? notesById.get(notesId) : undefined;
        if (listed) notes = this.notes(listed.persistId, listed);
      }
      // Placeholder text the drawing did not reference (or no drawing at all): in list order.
      entry.runs.forEach((run, k) => {
        if (usedRuns.has(k)) return;
        const nodes = paragraphsToNodes(runParagraphs(run));
        if (nodes.length)
          items.push({ box: null, title: TITLE_TYPES.has(run.type), nodes: this.titleNodes(run, nodes), seq: seq++ });
      });
      pages.push(slidePage(i + 1, items, notes, size, pageSize));
    });
    return { contentType: this.ctx.contentType, pages, metadata: { numPages: pages.length }, warnings: this.warnings };
  }

  private titleNodes(run: TextRun, nodes: Node[]): Node[] {
    if (!TITLE_TYPES.has(run.type)) return nodes;
    const content: Inline[] = [];
    for (const n of nodes) {
      if (n.kind !== 'paragraph') continue;
      if (content.length) content.push({ type: 'text', text: ' ' });
      content.push(...n.content);
    }
    return [{ kind: 'paragraph', content }];
  }

  /** A shape's anchor: client anchors are in slide units, child anchors in the group's space. */
  private anchorOf(kids: Rec[], tf: Transform): Box | null {
    const a = kids.find((k) => k.type === RT.ClientAnchor);
    if (a) {
      const s = this.s;
      return a.end - a.start >= 16
        ? {
            y: s.i32(a.start),
            x: s.i32(a.start + 4),
            w: s.i32(a.start + 8) - s.i32(a.start + 4),
            h: s.i32(a.start + 12) - s.i32(a.start),
          }
        : {
            y: s.i16(a.start),
            x: s.i16(a.start + 2),
            w: s.i16(a.start + 4) - s.i16(a.start + 2),
            h: s.i16(a.start + 6) - s.i16(a.start),
          };
    }
    const c = kids.find((k) => k.type === RT.ChildAnchor);
    if (c) {
      const l = this.s.i32(c.start);
      const t = this.s.i32(c.start + 4);
      return tf({ x: l, y: t, w: this.s.i32(c.start + 8) - l, h: this.s.i32(c.start + 12) - t });
    }
    return null;
  }

  /**
   * Walks the OfficeArt shapes of a slide (or notes) drawing. Shapes in groups are placed through
   * the group's coordinate space (OfficeArtFSPGR) onto the group's own anchor. `accept` filters
   * text by its TextHeaderAtom type.
   */
  private shapes(
    container: Rec,
    listRuns: TextRun[],
    used: Set<number>,
    items: PlacedItem[],
    nextSeq: () => number,
    accept: (type: number) => boolean,
    tf: Transform = (b) => b,
    depth = 0,
  ): void {
    if (depth > 64) return;
    for (const r of this.s.children(container)) {
      if (!r.container) continue;
      if (r.type === RT.SpgrContainer) {
        const kids = this.s.children(r);
        const head = kids[0];
        let inner = tf;
        if (head && head.type === RT.SpContainer) {
          const headKids = this.s.children(head);
          const box = this.anchorOf(headKids, tf);
          const fspgr = headKids.find((k) => k.type === RT.FSPGR);
          if (box && fspgr) {
            const l = this.s.i32(fspgr.start);
            const t = this.s.i32(fspgr.start + 4);
            const w = this.s.i32(fspgr.start + 8) - l;
            const h = this.s.i32(fspgr.start + 12) - t;
            const sx = w > 0 ? box.w / w : 1;
            const sy = h > 0 ? box.h / h : 1;
            inner = (b) => ({ x: box.x + (b.x - l) * sx, y: box.y + (b.y - t) * sy, w: b.w * sx, h: b.h * sy });
          }
        }
        const rest = { ...r, start: head ? head.end : r.start };
        if (head && head.type === RT.SpContainer && this.isTableGroup(this.s.children(head))) {
          const table = this.tableFromGroup(rest, listRuns, used, inner);
          if (table) {
            items.push({ ...table, seq: nextSeq() });
            continue;
          }
        }
        this.shapes(rest, listRuns, used, items, nextSeq, accept, inner, depth + 1);
        continue;
      }
      if (r.type === RT.SpContainer) {
        const kids = this.s.children(r);
        const box = this.anchorOf(kids, tf);
        const tb = kids.find((k) => k.type === RT.ClientTextbox);
        const picture = tb ? null : this.pictureAlt(kids);
        if (picture)
          items.push({
            box,
            nodes: [{ kind: 'figure', alt: picture.alt, src: `${picture.name}.jpg` }],
            seq: nextSeq(),
          });
        if (tb) {
          const inner = this.s.children(tb);
          const runs: TextRun[] = [];
          const ref = inner.find((k) => k.type === RT.OutlineTextRefAtom);
          if (ref) {
            const idx = this.s.u32(ref.start);
            const run = listRuns[idx];
            if (run) {
              used.add(idx);
              runs.push(run);
            }
          } else collectRuns(this.s, inner, runs, this.hyperlinks);
          const numbering = pp9Numbering(
            this.s,
            kids.find((k) => k.type === RT.ClientData),
          );
          for (const run of runs) {
            if (!accept(run.type)) continue;
            const nodes = paragraphsToNodes(runParagraphs(run, numbering));
            if (nodes.length)
              items.push({ box, title: TITLE_TYPES.has(run.type), nodes: this.titleNodes(run, nodes), seq: nextSeq() });
          }
        }
        continue;
      }
      this.shapes(r, listRuns, used, items, nextSeq, accept, tf, depth + 1);
    }
  }

  /**
   * A picture shape's description (alt text, shape option wzDescription) and name (wzName), read from
   * the complex part of its option tables; null when the shape is no picture or has no description.
   */
  private pictureAlt(kids: Rec[]): { alt: string; name: string } | null {
    let isPicture = false;
    let alt = '';
    let name = '';
    for (const k of kids) {
      if (k.type !== RT.FOPT && k.type !== RT.TertiaryFOPT) continue;
      const n = k.instance;
      let complex = k.start + n * 6;
      for (let i = 0; i < n && k.start + i * 6 + 6 <= k.end; i++) {
        const opid = this.s.u16(k.start + i * 6);
        const op = this.s.u32(k.start + i * 6 + 2);
        const pid = opid & 0x3fff;
        if (pid === 0x0104) isPicture = true; // pib: the picture's blip
        if (opid & 0x8000) {
          if (complex + op > k.end) break;
          if (pid === 0x0381 || pid === 0x0380) {
            const text = UTF16.decode(this.s.bytes.subarray(complex, complex + (op & ~1)))
              .replace(/\0+$/, '')
              .trim();
            if (pid === 0x0381) alt = text;
            else name = text;
          }
          complex += op;
        }
      }
    }
    if (!isPicture || !alt) return null;
    return { alt, name: name.replace(/[^\p{L}\p{N}_]/gu, '') || 'image' };
  }

  /** A group whose shape options carry tableProperties (0x039F): PowerPoint's way to store a table. */
  private isTableGroup(headKids: Rec[]): boolean {
    for (const k of headKids) {
      if (k.type !== RT.FOPT && k.type !== RT.TertiaryFOPT) continue;
      for (let i = 0; i < k.instance && k.start + i * 6 + 6 <= k.end; i++) {
        const pid = this.s.u16(k.start + i * 6) & 0x3fff;
        if (pid === 0x039f && this.s.u32(k.start + i * 6 + 2) !== 0) return true;
      }
    }
    return false;
  }

  /** Rebuilds a table from its cell shapes: rows and columns from their edges, spans from their extent. */
  private tableFromGroup(
    group: Rec,
    listRuns: TextRun[],
    used: Set<number>,
    tf: Transform,
  ): Omit<PlacedItem, 'seq'> | null {
    const cells: { box: Box; content: Inline[] }[] = [];
    for (const r of this.s.children(group)) {
      if (r.type !== RT.SpContainer) continue;
      const kids = this.s.children(r);
      const box = this.anchorOf(kids, tf);
      if (!box || box.w <= 0 || box.h <= 0) continue; // border lines
      const content: Inline[] = [];
      const tb = kids.find((k) => k.type === RT.ClientTextbox);
      if (tb) {
        const inner = this.s.children(tb);
        const runs: TextRun[] = [];
        const ref = inner.find((k) => k.type === RT.OutlineTextRefAtom);
        if (ref) {
          const run = listRuns[this.s.u32(ref.start)];
          if (run) {
            used.add(this.s.u32(ref.start));
            runs.push(run);
          }
        } else collectRuns(this.s, inner, runs, this.hyperlinks);
        for (const run of runs) {
          for (const p of runParagraphs(run)) {
            const c = trimInlines(p.content);
            if (!c.length) continue;
            if (content.length) content.push({ type: 'break' });
            content.push(...c);
          }
        }
      }
      cells.push({ box, content });
    }
    if (cells.length < 2) return null;
    const edges = (vals: number[]): number[] => {
      const sorted = [...vals].sort((a, b) => a - b);
      const out: number[] = [];
      for (const v of sorted) if (!out.length || v - out[out.length - 1]! > 2) out.push(v);
      return out;
    };
    const xs = edges(cells.map((c) => c.box.x));
    const ys = edges(cells.map((c) => c.box.y));
    const index = (edgesList: number[], v: number): number => {
      let best = 0;
      for (let i = 0; i < edgesList.length; i++)
        if (Math.abs(edgesList[i]! - v) < Math.abs(edgesList[best]! - v)) best = i;
      return best;
    };
    const span = (edgesList: number[], from: number, end: number): number => {
      let n = 0;
      for (const e of edgesList) if (e >= from - 2 && e < end - 2) n++;
      return Math.max(1, n);
    };
    const rows: TableCell[][] = ys.map(() => []);
    const placed = cells
      .map((c) => ({ ...c, r: index(ys, c.box.y), col: index(xs, c.box.x) }))
      .sort((a, b) => a.r - b.r || a.col - b.col);
    for (const c of placed) {
      const cell: TableCell = { content: c.content };
      const cs = span(xs, c.box.x, c.box.x + c.box.w);
      const rs = span(ys, c.box.y, c.box.y + c.box.h);
      if (cs > 1) cell.colSpan = cs;
      if (rs > 1) cell.rowSpan = rs;
      rows[c.r]!.push(cell);
    }
    const x0 = Math.min(...cells.map((c) => c.box.x));
    const y0 = Math.min(...cells.map((c) => c.box.y));
    const x1 = Math.max(...cells.map((c) => c.box.x + c.box.w));
    const y1 = Math.max(...cells.map((c) => c.box.y + c.box.h));
    return { box: { x: x0, y: y0, w: x1 - x0, h: y1 - y0 }, nodes: [{ kind: 'table', rows }] };
  }

  private notes(persistId: number, listed: SlideEntry): Node[] {
    const container = this.record(persistId, RT.Notes);
    const items: PlacedItem[] = [];
    let seq = 0;
    // The notes page also holds the slide image and header/footer placeholders: keep notes text only.
    if (container)
      this.shapes(
        container,
        listed.runs,
        new Set(),
        items,
        () => seq++,
        (t) => t === NOTES_TYPE,
      );
    if (!items.length) {
      for (const run of listed.runs)
        if (run.type === NOTES_TYPE)
          items.push({ box: null, nodes: paragraphsToNodes(runParagraphs(run)), seq: seq++ });
    }
    return items.flatMap((i) => i.nodes);
  }
}

export function readPpt(ctx: ReaderContext): DocModel {
  let find: (name: string) => Uint8Array | undefined;
  try {
    // The small reader takes only the streams asked for (the pictures, most of a typical file, are
    // never copied); `cfb` reads what it cannot.
    const ole = new OleFile(ctx.bytes);
    const streams = new Map<string, Uint8Array | undefined>();
    for (const name of ['PowerPoint Document', 'Current User', 'EncryptedSummary']) streams.set(name, ole.stream(name));
    find = (name) => streams.get(name);
  } catch {
    find = cfbStreams(ctx.bytes);
  }
  const main = find('PowerPoint Document');
  if (!main) throw new ParseError('MALFORMED', 'The PowerPoint file has no "PowerPoint Document" stream.');
  if (find('EncryptedSummary')) {
    throw new ParseError(
      'ENCRYPTED',
      'The presentation is password protected; it cannot be read without its password.',
    );
  }
  return new PptReader(new Stream(main), find('Current User'), ctx).read();
}

function cfbStreams(bytes: Uint8Array): (name: string) => Uint8Array | undefined {
  let container: CfbContainer;
  try {
    container = readCfb(bytes);
  } catch (err) {
    throw new ParseError(
      'MALFORMED',
      `The PowerPoint file's compound document cannot be read: ${(err as Error).message}`,
      { cause: err },
    );
  }
  return (name) => cfbStream(container, name);
}
