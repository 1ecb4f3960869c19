/**
 * Text runs read from a page's operator list, in the shape of pdf.js's text content.
 *
 * The text pass needs the operator list anyway (rulings, rectangles, images, font flags), and pdf.js
 * builds it with every glyph shown: its Unicode value, its width and whether it is a space. Its text
 * content is a second interpretation of the same content stream, with a text state cloned for every
 * glyph, and measured at two thirds of the pdf.js time of a text page. This module follows the text
 * state through the operator list instead (as pdf.js's canvas does when it paints: text matrix,
 * line matrix, font and size, character and word spacing, horizontal scaling, rise, save/restore,
 * form XObjects) and groups glyphs into runs with pdf.js's own rules for where a run ends and where a
 * gap is a space (fractions of the font size: 0.102 a space, 0.6 a new run, -0.2 a run going back,
 * a quarter of the height off the baseline a new run; a new run at marked-content boundaries and
 * form XObjects).
 *
 * It answers null where pdf.js's text content does more than this follows: vertical writing, Type3
 * fonts (glyph procedures with their own matrices), right-to-left scripts (reordered by pdf.js's
 * bidi), a font it cannot see, a negative font size or horizontal scaling. The caller then asks pdf.js for the text
 * content of that page, as before.
 */
import { dingbatText, isDingbatsFont } from './dingbats.js';
import { mul, type Matrix } from './matrix.js';
import { OPS as OP } from './ops.js';
import type { PdfOperatorList, PdfTextContent, PdfTextItem } from './pdfjs-types.js';

/** What the runs need of a font; pdf.js's font object as the operator list's `setFont` names it. */
export interface FontFacts {
  fontMatrix?: number[];
  vertical?: boolean;
  isType3Font?: boolean;
  ascent?: number;
  descent?: number;
  fallbackName?: string;
  name?: string;
}

interface GlyphLike {
  unicode?: string;
  width?: number;
  isSpace?: boolean;
  originalCharCode?: number;
}

// pdf.js's getTextContent thresholds, in units of the font size.
const SPACE_MIN = 0.102;
const SPACE_MAX = 0.6;
const BACK_MAX = -0.2;
const VERTICAL_SHIFT = 0.25;

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
const FONT_IDENTITY = [0.001, 0, 0, 0.001, 0, 0];
// Strong right-to-left letters: pdf.js reorders such runs into logical order, which this does not.
const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;
const WHITE = /^\s+$/;
// Combining marks are drawn over the glyph before them: no gap test, as in pdf.js.
const MARK = /^\p{M}+$/u;
// Zero-width format characters (joiners, direction marks, soft hyphen) that pdf.js leaves out.
const FORMAT = /^[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]+$/;

interface State {
  ctm: Matrix;
  font: string | null;
  size: number;
  hScale: number;
  charSpacing: number;
  wordSpacing: number;
  leading: number;
  rise: number;
  tm: Matrix;
  x: number;
  y: number;
  lineX: number;
  lineY: number;
}

interface Run {
  font: string;
  size: number;
  /** Unit vector of the run's baseline and its origin, in user space. */
  ux: number;
  uy: number;
  ox: number;
  oy: number;
  /** Where the last glyph ended. */
  ex: number;
  ey: number;
  /** Font size along and across the baseline, in user space. */
  em: number;
  height: number;
  transform: number[];
  parts: string[];
  /** Where each part starts along the baseline, from the origin (user space); it runs to where the next one starts. */
  starts: number[];
  /** A space glyph was passed since the last character (pdf.js writes one space for it). */
  pendingSpace: boolean;
  endsWithSpace: boolean;
}

/**
 * The spacing a string shows between all its letters, in units of the font size, past which a gap is
 * a space. Letter-spaced headings and code listings that set every character in a wider cell space
 * every letter alike, and pdf.js's fixed threshold of 0.102 then reads every letter, or every token
 * ("cv2 . imread ("), as a word. The gaps are measured as drawn (character spacing and positioning
 * numbers together: some producers set a wide character spacing and take it back after every glyph).
 * Counted only on longer strings (at least eight gaps, more than half of them at least 0.03 wide)
 * whose median gap is small (at most 0.15, a listing's cell) or shared by nearly all gaps (within 0.02
 * for four in five, at most 0.6: letter spacing); math set with thin spaces (". . . , p") keeps
 * pdf.js's reading.
 */
function tracking(glyphs: Array<GlyphLike | number>, st: State): number {
  // Eight gaps need nine glyphs.
  if (glyphs.length < 9) return 0;
  // Most strings have few positive gaps: counted first, sorted only when they may be spaced.
  let n = 0;
  let spaced = 0;
  let gap: number | null = null;
  for (const g of glyphs) {
    if (typeof g === 'number') {
      if (gap !== null) gap -= (g * st.size) / 1000;
      continue;
    }
    const white = isWhite(g.unicode ?? '');
    if (gap !== null && !white) {
      if (n < GAPS.length) GAPS[n] = gap / st.size;
      if (gap / st.size >= 0.03) spaced++;
      n++;
    }
    gap = white ? null : st.charSpacing + (g.isSpace ? st.wordSpacing : 0);
  }
  if (n < 8 || spaced * 2 <= n) return 0;
  const gaps = GAPS.subarray(0, Math.min(n, GAPS.length)).sort();
  const median = gaps[gaps.length >> 1]!;
  if (median <= 0.15) return median;
  let alike = 0;
  for (const x of gaps) if (Math.abs(x - median) <= 0.02) alike++;
  return median <= 0.6 && alike * 5 >= gaps.length * 4 ? median : 0;
}
const GAPS = new Float64Array(256);

/** An empty string or white space (the common one-character cases without a pattern). */
function isWhite(u: string): boolean {
  if (!u) return true;
  if (u.length === 1) {
    const c = u.charCodeAt(0);
    if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
    if (c === 0xa0) return true;
    if (c < 0x2000 && c !== 0x1680) return false;
  }
  return WHITE.test(u);
}

/** Characters below U+0300 (Latin, with its accents precomposed) need none of the checks by pattern. */
function plainLatin(u: string): boolean {
  return u.length === 1 && u.charCodeAt(0) < 0x300 && u.charCodeAt(0) !== 0xad;
}

/** Distance of a point from a run's origin along its baseline. */
function along(run: Run, x: number, y: number): number {
  return (x - run.ox) * run.ux + (y - run.oy) * run.uy;
}

function addPart(run: Run, part: string, start: number): void {
  run.parts.push(part);
  run.starts.push(start);
}

/**
 * Where each character of a run's text starts along its baseline, and where the last one ends: the
 * characters of a glyph that writes several (a ligature written out, a surrogate pair) share its
 * width. Null when normalising the parts one by one would not give the run's text (then the layout
 * estimates the positions from the run's width).
 */
function charEdges(
  run: Run,
  joined: string,
  str: string,
  width: number,
  normalize: (s: string) => string,
): number[] | null {
  const parts = str === joined ? run.parts : run.parts.map(normalize);
  if (parts !== run.parts && parts.join('') !== str) return null;
  const edges: number[] = [];
  let last = 0;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    const start = run.starts[k]!,
      w = Math.max(0, (run.starts[k + 1] ?? width) - start);
    for (let j = 0; j < part.length; j++) {
      // Glyphs kerned back over the one before still start no earlier than it.
      last = Math.min(width, Math.max(last, start + (w * j) / part.length));
      edges.push(last);
    }
  }
  edges.push(Math.max(last, width));
  return edges;
}

/** What the text pass of one page keeps: the items written, the run being built, the fonts met. */
interface PageText {
  items: PdfTextItem[];
  styles: PdfTextContent['styles'];
  facts: Map<string, FontFacts | null>;
  fontOf: (id: string) => FontFacts | null;
  normalize: (s: string) => string;
  run: Run | null;
  /** The page's visible box. */
  vx0: number;
  vy0: number;
  vx1: number;
  vy1: number;
}

/** The run being built, written out as an item (when it holds more than white space). */
function flushRun(page: PageText): void {
  const run = page.run;
  if (!run) return;
  const joined = run.parts.join('');
  const str = page.normalize(joined);
  if (str.trim()) {
    const width = Math.max(0, along(run, run.ex, run.ey));
    const r = run;
    // Worked out only for the runs of pages that have links or lines to cut them at.
    const glyphEdges = (): number[] | null => charEdges(r, joined, str, width, page.normalize);
    page.items.push({
      str,
      dir: 'ltr',
      transform: run.transform,
      width,
      height: run.height,
      fontName: run.font,
      hasEOL: false,
      glyphEdges,
    });
  }
  page.run = null;
}

/**
 * The glyphs of one showText, added to the page's runs, and the text position moved past them.
 * False where this does not follow pdf.js (the caller then answers null).
 */
function showGlyphs(glyphs: Array<GlyphLike | number>, st: State, page: PageText): boolean {
  // pdf.js shows no text without a font: one not seen here is one this did not follow.
  if (!st.font) return false;
  if (st.size === 0) return true;
  let f = page.facts.get(st.font);
  if (f === undefined) {
    f = page.fontOf(st.font);
    page.facts.set(st.font, f);
  }
  if (!f || f.vertical || f.isType3Font) return false;
  if (!(st.font in page.styles))
    page.styles[st.font] = { fontFamily: f.fallbackName, ascent: f.ascent, descent: f.descent, vertical: false };
  const dingbats = isDingbatsFont(f.name);
  const fm = f.fontMatrix && f.fontMatrix.length >= 6 ? f.fontMatrix : FONT_IDENTITY;
  const widthScale = st.size * fm[0]!;
  const b = mul(st.ctm, st.tm);
  const sx = Math.hypot(b[0], b[1]);
  const sy = Math.hypot(b[2], b[3]);
  if (!(sx > 0) || !(sy > 0)) {
    return true;
  }
  const ux = b[0] / sx,
    uy = b[1] / sx;
  const em = st.size * sx;
  const height = st.size * sy;
  const hs = st.hScale;
  // Mirrored text (negative horizontal scaling) runs backwards along its baseline.
  if (!(hs > 0)) return false;
  const spaceMin = SPACE_MIN + tracking(glyphs, st);
  let adv = 0;
  for (const g of glyphs) {
    if (typeof g === 'number') {
      adv -= (g * st.size) / 1000;
      continue;
    }
    const w = (Number(g.width) || 0) * widthScale;
    const spacing = st.charSpacing + (g.isSpace ? st.wordSpacing : 0);
    const px = st.x + adv * hs;
    const py = st.y + st.rise;
    adv += w + spacing;
    const u = dingbats ? dingbatText(g.unicode ?? '', g.originalCharCode) : (g.unicode ?? '');
    const plain = plainLatin(u);
    if (!plain && u && RTL.test(u)) return false;
    const ox = b[0] * px + b[2] * py + b[4];
    const oy = b[1] * px + b[3] * py + b[5];
    const gw = w * hs * sx;
    // Glyphs outside the page's box are not page text (pdf.js leaves them out too).
    if (ox + gw < page.vx0 || ox > page.vx1 || oy < page.vy0 || oy > page.vy1) continue;
    if (u && isWhite(u)) {
      if (page.run) page.run.pendingSpace = true;
      continue;
    }
    if (!plain && u && FORMAT.test(u)) continue;
    if (!plain && page.run && u && MARK.test(u) && page.run.font === st.font) {
      addPart(page.run, u, along(page.run, page.run.ex, page.run.ey));
      continue;
    }
    let cont = false;
    let space = false;
    const run = page.run;
    if (run && run.font === st.font && run.size === st.size && Math.abs(run.ux * ux + run.uy * uy - 1) < 1e-3) {
      const dx = ox - run.ex,
        dy = oy - run.ey;
      const ahead = (dx * ux + dy * uy) / em;
      const across = Math.abs(dy * ux - dx * uy);
      if (across <= run.height * VERTICAL_SHIFT && ahead >= BACK_MAX && ahead <= SPACE_MAX) {
        cont = true;
        space = ahead > spaceMin || run.pendingSpace;
      }
    }
    if (!cont) {
      flushRun(page);
      page.run = {
        font: st.font,
        size: st.size,
        ux,
        uy,
        ox,
        oy,
        ex: ox,
        ey: oy,
        em,
        height,
        transform: [b[0] * st.size * hs, b[1] * st.size * hs, b[2] * st.size, b[3] * st.size, ox, oy],
        parts: [],
        starts: [],
        pendingSpace: false,
        endsWithSpace: false,
      };
    } else if (space && !run!.endsWithSpace && run!.parts.length) {
      // The space written for a gap spans the gap.
      addPart(run!, ' ', along(run!, run!.ex, run!.ey));
      run!.endsWithSpace = true;
    }
    const r = page.run!;
    if (u) {
      addPart(r, u, along(r, ox, oy));
      r.endsWithSpace = false;
    }
    r.pendingSpace = false;
    r.ex = ox + gw * ux;
    r.ey = oy + gw * uy;
  }
  st.x += adv * hs;
  return true;
}

export function textFromOperators(
  ops: PdfOperatorList,
  fontOf: (id: string) => FontFacts | null,
  view: readonly number[],
  normalize: (s: string) => string,
): PdfTextContent | null {
  const [vx0 = -Infinity, vy0 = -Infinity, vx1 = Infinity, vy1 = Infinity] = view;
  const page: PageText = { items: [], styles: {}, facts: new Map(), fontOf, normalize, run: null, vx0, vy0, vx1, vy1 };
  let st: State = {
    ctm: IDENTITY,
    font: null,
    size: 0,
    hScale: 1,
    charSpacing: 0,
    wordSpacing: 0,
    leading: 0,
    rise: 0,
    tm: IDENTITY,
    x: 0,
    y: 0,
    lineX: 0,
    lineY: 0,
  };
  const stack: State[] = [];

  const moveText = (x: number, y: number): void => {
    st.lineX += x;
    st.lineY += y;
    st.x = st.lineX;
    st.y = st.lineY;
  };

  const { fnArray, argsArray } = ops;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    switch (fn) {
      case OP.save:
        stack.push(st);
        st = { ...st };
        if (stack.length > 1000) stack.shift();
        break;
      case OP.restore:
        st = stack.pop() ?? st;
        break;
      case OP.transform:
        if (args && args.length >= 6) st.ctm = mul(st.ctm, args.slice(0, 6).map(Number) as Matrix);
        break;
      case OP.beginMarkedContent:
      case OP.beginMarkedContentProps:
      case OP.endMarkedContent:
        // pdf.js ends a run at every marked-content boundary (the spans of tagged PDFs), and so at form XObjects.
        flushRun(page);
        break;
      case OP.paintFormXObjectBegin: {
        flushRun(page);
        stack.push(st);
        st = { ...st };
        const m = args?.[0] as ArrayLike<number> | null;
        if (m && m.length >= 6) st.ctm = mul(st.ctm, Array.from(m).slice(0, 6) as Matrix);
        break;
      }
      case OP.paintFormXObjectEnd:
        flushRun(page);
        st = stack.pop() ?? st;
        break;
      case OP.beginText:
        st.tm = IDENTITY;
        st.x = st.y = st.lineX = st.lineY = 0;
        break;
      case OP.endText:
        break;
      case OP.setCharSpacing:
        st.charSpacing = Number(args?.[0]) || 0;
        break;
      case OP.setWordSpacing:
        st.wordSpacing = Number(args?.[0]) || 0;
        break;
      case OP.setHScale:
        st.hScale = (Number(args?.[0]) || 0) / 100;
        break;
      case OP.setLeading:
        st.leading = -(Number(args?.[0]) || 0);
        break;
      case OP.setTextRise:
        st.rise = Number(args?.[0]) || 0;
        break;
      case OP.setGState: {
        // An ExtGState may set the font (its /Font entry), as pdf.js's canvas reads it.
        for (const entry of (args?.[0] as Array<[string, unknown]> | undefined) ?? []) {
          if (!Array.isArray(entry) || entry[0] !== 'Font') continue;
          const [id, size] = entry[1] as [unknown, unknown];
          if (!(Number(size) >= 0)) return null;
          st.font = String(id);
          st.size = Number(size);
        }
        break;
      }
      case OP.setFont: {
        const size = Number(args?.[1]);
        if (!(size >= 0)) return null;
        st.font = String(args?.[0]);
        st.size = size;
        break;
      }
      case OP.moveText:
        moveText(Number(args?.[0]) || 0, Number(args?.[1]) || 0);
        break;
      case OP.setLeadingMoveText: {
        const y = Number(args?.[1]) || 0;
        st.leading = y;
        moveText(Number(args?.[0]) || 0, y);
        break;
      }
      case OP.setTextMatrix: {
        const m = (
          Array.isArray(args?.[0]) || ArrayBuffer.isView(args?.[0]) ? args![0] : args
        ) as ArrayLike<number> | null;
        if (m && m.length >= 6) st.tm = [m[0]!, m[1]!, m[2]!, m[3]!, m[4]!, m[5]!];
        st.x = st.y = st.lineX = st.lineY = 0;
        break;
      }
      case OP.nextLine:
        moveText(0, st.leading);
        break;
      case OP.showSpacedText:
      case OP.nextLineShowText:
      case OP.nextLineSetSpacingShowText:
        // pdf.js turns these into showText; met unconverted, they are not what this follows.
        return null;
      case OP.showText: {
        const glyphs = args?.[0] as Array<GlyphLike | number> | undefined;
        if (!glyphs) break;
        if (!showGlyphs(glyphs, st, page)) return null;
        break;
      }
      default:
    }
  }
  flushRun(page);
  return { items: page.items, styles: page.styles };
}
