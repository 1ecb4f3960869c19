/**
 * The text of .ppt records: text atoms with their paragraph and character property runs, automatic
 * numbering (StyleTextProp9Atom), hyperlinks, and the slide list that holds them.
 */
import type { Inline, TextInline } from '../../../model/document.js';
import type { SlideParagraph } from '../common.js';
import { RT, ACTION_HYPERLINK, UTF16, LATIN1, TITLE_TYPES, BODY_TYPES, type Rec, Stream } from './records.js';

export interface TextRun {
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
export type Hyperlinks = Map<number, string>;

export function decodeText(s: Stream, rec: Rec): string {
  const data = s.bytes.subarray(rec.start, rec.end);
  if (rec.type === RT.TextCharsAtom) return UTF16.decode(data.subarray(0, data.length & ~1));
  return LATIN1.decode(data);
}

/** Paragraph runs of a StyleTextPropAtom ([MS-PPT] 2.9.44 TextPFRun / TextPFException). */
export function paragraphProps(s: Stream, rec: Rec, textLength: number): { paras: TextRun['paras']; end: number } {
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
export function charProps(s: Stream, start: number, end: number, textLength: number): TextRun['chars'] {
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
export type Numbering = (number | null)[];

/**
 * The numbering of a shape's PowerPoint 2000 extension (ClientData → ProgTags → "___PPT9" binary
 * tag → StyleTextProp9Atom, [MS-PPT]): entry i says whether paragraphs whose character run
 * has pp9rt = i are auto-numbered, and from which number.
 */
export function pp9Numbering(s: Stream, clientData: Rec | undefined): Numbering {
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

export function runParagraphs(run: TextRun, numbering: Numbering = []): SlideParagraph[] {
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
export function numberingAt(chars: TextRun['chars'], offset: number, numbering: Numbering): number | null {
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
export function styledInlines(t: string, offset: number, run: TextRun): Inline[] {
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
export function charRunAt(chars: TextRun['chars'], pos: number): TextRun['chars'][number] | undefined {
  let at = 0;
  for (const c of chars) {
    if (pos < at + c.count) return c;
    at += c.count;
  }
  return undefined;
}

export function lineInlines(t: string): Inline[] {
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
export function collectRuns(s: Stream, recs: Rec[], out: TextRun[], hyperlinks: Hyperlinks): void {
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

export interface SlideEntry {
  persistId: number;
  /** The slide's (or notes page's) id, which SlideAtom.notesIdRef refers to. */
  slideId: number;
  runs: TextRun[];
}

/**
 * The document's hyperlink targets: each ExHyperlink's id (ExHyperlinkAtom) and address (its CString
 * of instance 1). Only web, mail and FTP addresses are kept: others point into the presentation.
 */
export function hyperlinkTargets(s: Stream, doc: Rec): Hyperlinks {
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

export function slideList(s: Stream, doc: Rec, instance: number, hyperlinks: Hyperlinks): SlideEntry[] {
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
