/**
 * Words → text lines. A "line" here is a run of words on one baseline with no wide gap inside, so that
 * the two columns of a page (or the cells of a table row) become separate lines.
 */
import { ideographsForRadicals } from './cjk-radicals.js';
import type { Box, TextItem } from './types.js';

/** A word set below this share of another's type size is smaller type (a superscript, an index, a footnote mark). */
const SMALLER_TYPE = 0.85;
/** A section's number as set before its heading: "4", "2.1", "3.2.1.", "IV.", "A.". */
export const SECTION_NUMBER = /^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[IVX]{1,4}\.|[A-Z]\.)$/;

/** Two words touch when the gap between them is at most this share of the type size, or they overlap by at most TOUCH_OVERLAP. */
const TOUCH_GAP = 0.35;
const TOUCH_OVERLAP = 0.1;
/** A small word sits against a row's word when their heights overlap by this share of the small word's (or the row's) height. */
const SHARED_HEIGHT = 0.3;

export interface Word extends Box {
  text: string;
  size: number;
  bold: boolean;
  italic: boolean;
  mono: boolean;
  rtl: boolean;
  confidence?: number;
  /** Link target and strikethrough of the word's run (see marks.ts). */
  href?: string;
  strike?: boolean;
}

export interface Line extends Box {
  words: Word[];
  /** Dominant font size. */
  size: number;
  text: string;
  bold: boolean;
  italic: boolean;
  mono: boolean;
  rtl: boolean;
}

// Ligatures and presentation forms that extraction leaves as single code points; compatibility
// normalisation (NFKC) is applied only to these ranges, where it cannot change meaning. Full-width
// letters and digits become ASCII; full-width punctuation is how CJK text is written ("，" "：" "（"),
// and stays as set.
const COMPAT_RANGES =
  /[\uFB00-\uFB4F\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A\u2000-\u200A\u2024-\u2026\u2044\u00A0\u3000\u2160-\u217F]/g;
const DROP = /[\u00AD\u200B-\u200D\u2060\uFEFF\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

const SPACING_ACCENT = /[\u02D8\u00A8\u02C6\u02DC\u02C7\u00B8\u02DA\u02DD]\s?\p{L}|\u00B4[aeiouyAEIOUY]/u;
const ACCENTS: Record<string, string> = {
  '\u02D8': '\u0306',
  '\u00B4': '\u0301',
  '\u0060': '\u0300',
  '\u00A8': '\u0308',
  '\u02C6': '\u0302',
  '\u02DC': '\u0303',
  '\u02C7': '\u030C',
  '\u00B8': '\u0327',
  '\u02DA': '\u030A',
  '\u02DD': '\u030B',
  '\u00AF': '\u0304',
};

export function normaliseText(s: string): string {
  let out = s.replace(DROP, '');
  out = out.replace(COMPAT_RANGES, (ch) =>
    ch === '\u00A0' || ch === '\u3000' || (ch >= '\u2000' && ch <= '\u200A') ? ' ' : ch.normalize('NFKC'),
  );
  // TeX's "ff" ligature in fonts without a usable encoding decodes as U+21B5 (↵): inside or at the end
  // of a word it can only be that.
  out = out.replace(/(?<=\p{L})\u21B5|\u21B5(?=\p{L})|^\u21B5$/gu, 'ff');
  // Private-use bullets of the Symbol / Wingdings fonts.
  out = out.replace(/[\uF0B7\uF0A7\uF076\uF0D8\uF0FC\uF06E\uF0A8]/g, '•');
  // Spacing accents placed before their letter (TeX output): combine them.
  if (SPACING_ACCENT.test(out)) {
    out = out
      .replace(
        /([\u02D8\u00A8\u02C6\u02DC\u02C7\u00B8\u02DA\u02DD])\s?(\p{L})|(\u00B4)([aeiouyAEIOUY])/gu,
        (_m, a1?: string, l1?: string, a2?: string, l2?: string) => (l1 ?? l2 ?? '') + (ACCENTS[a1 ?? a2 ?? ''] ?? ''),
      )
      .normalize('NFC');
  }
  out = ideographsForRadicals(out);
  // Quotes and dashes are kept as the author typed them; only odd spaces were flattened above.
  return out;
}

/** A letter of a script written without spaces between words and without case: Han, kana. */
export const WIDE_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Letters of the scripts set one em wide: Han, kana, Hangul. */
const WIDE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Splits runs that carry wide internal spacing ("Name     Value") into separate words, positioned by share of characters. */
function splitItem(it: TextItem): Word[] {
  const text = normaliseText(it.text);
  const base: Omit<Word, 'text' | 'x0' | 'x1'> = {
    y0: it.y0,
    y1: it.y1,
    size: it.fontSize,
    bold: it.bold,
    italic: it.italic,
    // CJK type is fixed-pitch by design (every ideograph an em wide), and its fonts say so: such a
    // run is prose, not code or a typed form.
    mono: !!it.monospace && !WIDE_SCRIPT.test(text),
    rtl: it.dir === 'rtl',
    ...(it.confidence !== undefined ? { confidence: it.confidence } : {}),
    ...(it.href ? { href: it.href } : {}),
    ...(it.strike ? { strike: true } : {}),
  };
  if (!/\S\s{3,}\S/.test(text) || it.dir === 'rtl') {
    const t = text.replace(/\s+/g, ' ');
    return t.trim() ? [{ ...base, text: t, x0: it.x0, x1: it.x1 }] : [];
  }
  const n = text.length;
  const w = (it.x1 - it.x0) / Math.max(1, n);
  const out: Word[] = [];
  const re = /\S+(?:\s{1,2}\S+)*/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push({
      ...base,
      text: m[0].replace(/\s+/g, ' '),
      x0: it.x0 + m.index * w,
      x1: it.x0 + (m.index + m[0].length) * w,
    });
  }
  return out;
}

const MARKER_ONLY =
  /^(?:[•●▪■◦○◆◇►▶‣⁃∙·\-–—*✓✔➢➤❖□☐❑]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)[.)]|\(\d{1,3}\)|\d{1,3}(?:\.\d{1,3})+\.?|\.\d{1,2})$/;

/** A number with a decimal point ("4.6"), which a list's section numbers look like too. */
const DECIMAL = /^\d{1,3}\.\d{1,3}$/;
/** Text that opens with a whole figure: an amount, a percentage, a year. */
const FIGURE_FIRST = /^[-+−(]?[$€£¥]?\d[\d.,]*%?\)?(?:\s|$)/u;
/** Text that is one figure and nothing else. */
const FIGURE_ONLY = /^[-+−(]?[$€£¥]?\d[\d.,]*%?\)?$/u;

export function isMarkerOnly(text: string): boolean {
  return MARKER_ONLY.test(text.trim());
}

/** The value at the middle (index ⌊total/2⌋) of the values repeated by their weights, without repeating them. */
export function weightedMedian(pairs: Array<[value: number, weight: number]>): number {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  let total = 0;
  for (const [, w] of sorted) total += w;
  const middle = Math.floor(total / 2);
  let seen = 0;
  for (const [v, w] of sorted) {
    seen += w;
    if (seen > middle) return v;
  }
  return sorted[sorted.length - 1]![0];
}

/** Characters other than white space. */
function visibleLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) continue;
    if (c > 0x7f && /\s/.test(s[i]!)) continue;
    n++;
  }
  return n;
}

/** Groups words into rows (shared baseline band), each row sorted in reading direction. */
export function buildRows(items: TextItem[]): Word[][] {
  const words: Word[] = [];
  for (const it of items) {
    if (it.x1 - it.x0 <= 0 && it.text.trim().length > 1) continue;
    for (const w of splitItem(it)) words.push(w);
  }
  words.sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2 || a.x0 - b.x0);
  // A row is anchored on the centre line of its main text; a word joins when its centre is close to
  // it. (Growing a band by every word would chain the offset baselines of two columns together.)
  interface Row {
    cy: number;
    h: number;
    words: Word[];
    size: number;
  }
  const rows: Row[] = [];
  for (const w of words) {
    const h = Math.max(0.5, w.y1 - w.y0);
    const cy = (w.y0 + w.y1) / 2;
    let best: Row | null = null;
    let bestD = Infinity;
    for (let i = rows.length - 1; i >= 0 && i >= rows.length - 8; i--) {
      const r = rows[i]!;
      const d = Math.abs(cy - r.cy);
      const small = w.size < r.size * SMALLER_TYPE || r.size < w.size * SMALLER_TYPE;
      const limit = Math.min(h, r.h) * (small ? 0.75 : 0.35);
      if (d <= limit && d < bestD) {
        best = r;
        bestD = d;
      }
    }
    if (best) {
      // The anchor stays put: moving it towards a big word would let the next line join too.
      best.words.push(w);
    } else rows.push({ cy, h, words: [w], size: w.size });
  }
  // (Drop caps first: a row anchored on one, as tall as its lines, would draw the lines around it in
  // as its raised or lowered runs.)
  placeDropCaps(rows);
  reattachScripts(rows);
  reattachFractionParts(rows);
  mergeScriptRows(rows);
  mergeFenceRows(rows);
  return rows.filter((r) => r.words.length).map((r) => joinAccents(dedupe(r.words.sort((a, b) => a.x0 - b.x0))));
}

/**
 * A drop cap: a paragraph's first letter set large, sunk into the paragraph's first lines, which are
 * indented past it. Its box reaches down over those lines, so it would stand as a tall line of its
 * own, or make the line it joined as tall as itself and part it from the lines it spans. A capital
 * alone, set at least twice the size of the text beside it, with two rows or more of that text
 * starting just right of it at one indent, goes into the first of them as that line's first letter,
 * set in the line's size and height: joined to the line's first word when that word goes on from it,
 * in lower case with no space between ("D" + "rop caps"), a word of its own otherwise ("A" + "long
 * time ago"). Rows are changed in place.
 */
function placeDropCaps(rows: Array<{ cy: number; h: number; words: Word[]; size: number }>): void {
  // (Only a letter set at least twice the size of the smallest rows is looked at further.)
  let least = Infinity;
  for (const r of rows) least = Math.min(least, r.size);
  for (const row of rows) {
    for (const cap of [...row.words]) {
      if (cap.size < least * 2 || !/^\p{Lu}$/u.test(cap.text.trim())) continue;
      // The rows the cap stands beside, each with its text starting right of it at one indent.
      const beside: Array<{ row: (typeof rows)[number]; first: Word }> = [];
      for (const r of rows) {
        if (r.cy < cap.y0 || r.cy > cap.y1) continue;
        let first: Word | null = null;
        for (const w of r.words) {
          if (w === cap || w.size * 2 > cap.size || w.x0 < cap.x1 - w.size * 0.2 || w.x0 - cap.x1 > w.size * 1.5)
            continue;
          if (!first || w.x0 < first.x0) first = w;
        }
        if (!first || first.y0 < cap.y0 - first.size * 0.3 || first.y1 > cap.y1 + first.size * 0.3) continue;
        // Nothing of the row between the cap and its text.
        if (r.words.some((w) => w !== cap && w.x1 <= first.x0 && w.x0 >= cap.x0)) continue;
        beside.push({ row: r, first });
      }
      if (beside.length < 2) continue;
      const indent = beside[0]!.first.x0;
      if (!beside.every((b) => Math.abs(b.first.x0 - indent) < b.first.size * 0.5)) continue;
      beside.sort((a, b) => a.first.y0 - b.first.y0);
      const { row: target, first } = beside[0]!;
      row.words.splice(row.words.indexOf(cap), 1);
      if (/^\p{Ll}/u.test(first.text) && first.x0 - cap.x1 < first.size * 0.2) {
        first.text = cap.text.trim() + first.text;
        first.x0 = cap.x0;
      } else target.words.push({ ...cap, text: cap.text.trim(), y0: first.y0, y1: first.y1, size: first.size });
    }
  }
}

/** A letter with a combining accent as one precomposed character, or null when Unicode has none. */
function compose(letter: string, spacingAccent: string): string | null {
  const mark = ACCENTS[spacingAccent];
  if (!mark || !/^\p{L}$/u.test(letter)) return null;
  const c = (letter + mark).normalize('NFC');
  return c.length === 1 ? c : null;
}

/**
 * TeX builds accented letters from two glyphs, the accent drawn over the letter by kerning back, and
 * extraction can leave them in separate runs: "Baudiˇ" then "s", or a raised "ˇ" over the "S" of
 * "Sedivy". normaliseText joins them inside one run; this joins them across runs, by position: an
 * accent at the end of a run that the next run starts under (kerned back over it), or a run that is
 * only an accent, over a letter of another run. Only where Unicode has the precomposed letter.
 */
function joinAccents(words: Word[]): Word[] {
  let changed = false;
  // Lone accents first: the letter under an accent's centre, in whichever run covers it.
  for (const w of words) {
    // Every word of every row passes here: only short ones can be a lone accent.
    if (w.text.length > 3) continue;
    const accent = w.text.trim();
    if (accent.length !== 1 || !(accent in ACCENTS)) continue;
    const cx = (w.x0 + w.x1) / 2;
    for (const o of words) {
      if (o === w || o.x0 > cx || o.x1 < cx || !o.text.trim() || o.text.trim().length === 1) continue;
      const k = Math.min(o.text.length - 1, Math.floor(((cx - o.x0) / Math.max(0.01, o.x1 - o.x0)) * o.text.length));
      const c = compose(o.text[k]!, accent);
      if (c) {
        o.text = o.text.slice(0, k) + c + o.text.slice(k + 1);
        w.text = '';
        changed = true;
      }
      break;
    }
  }
  // Then an accent ending a run whose next run starts under it.
  let prev: Word | null = null;
  for (const w of words) {
    if (!w.text) continue;
    const last = prev?.text[prev.text.length - 1];
    // An acute before a consonant is more often an apostrophe typed as one ("Norway´s") than ś or ń.
    if (
      prev &&
      last &&
      last in ACCENTS &&
      w.x0 < prev.x1 - 0.1 &&
      (last !== '\u00B4' || /^[aeiouyAEIOUY]/.test(w.text))
    ) {
      const c = compose(w.text[0]!, last);
      if (c) {
        prev.text = prev.text.slice(0, -1);
        w.text = c + w.text.slice(1);
        changed = true;
      }
    }
    prev = w;
  }
  return changed ? words.filter((w) => w.text.length > 0) : words;
}

/**
 * A superscript (or subscript) that joined the wrong row: its centre lay nearer the line above (or
 * below) than its own, which happens where lines are set tight, as in tables ("G.+BM25⁽¹⁾" under a
 * row of figures). A small word that touches no full-size word of its row but sits against one of
 * the next or previous row, overlapping that word's height, moves there.
 */
function reattachScripts(rows: Array<{ cy: number; h: number; words: Word[]; size: number }>): void {
  const mainSize = (ws: Word[]): number => ws.reduce((m, w) => Math.max(m, w.size), 0);
  const touches = (w: Word, m: Word, size: number): boolean => {
    const gap = Math.max(m.x0 - w.x1, w.x0 - m.x1);
    return gap <= size * TOUCH_GAP && gap >= -size * TOUCH_OVERLAP;
  };
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    // Rows of ordinary length only: each small word is compared with the words of three rows.
    if (r.words.length < 2 || r.words.length > 400) continue;
    const size = mainSize(r.words);
    const moved = new Set<Word>();
    for (const w of r.words) {
      if (w.size >= size * SMALLER_TYPE || w.text.trim().length > 8) continue;
      if (r.words.some((m) => m !== w && m.size >= size * SMALLER_TYPE && touches(w, m, size))) continue;
      for (const j of [i + 1, i - 1]) {
        const o = rows[j];
        if (!o || !o.words.length || o.words.length > 400) continue;
        const oSize = mainSize(o.words);
        if (w.size >= oSize * SMALLER_TYPE) continue;
        const host = o.words.find(
          (m) =>
            m.size >= oSize * SMALLER_TYPE &&
            touches(w, m, oSize) &&
            Math.min(w.y1, m.y1) - Math.max(w.y0, m.y0) >= (w.y1 - w.y0) * SHARED_HEIGHT,
        );
        if (!host) continue;
        o.words.push(w);
        moved.add(w);
        break;
      }
    }
    if (moved.size) r.words = r.words.filter((w) => !moved.has(w));
  }
}

const FRACTION_SLASH = /[⁄∕/]/u;

/**
 * A stacked fraction's numerator and denominator set at full size, raised and lowered by half an em
 * beside a slash on the baseline (groff's \u and \d, some DTP styles of "1⁄4 inch"): too large for
 * scripts and too far off the baseline to join their line, they stood as rows of their own (or joined
 * the next line's raised numerators) and tore the sentence apart, or looked like a table's cells. A
 * number of up to four digits in another row that ends where a slash starts (a numerator) or starts
 * where a slash ends (a denominator), within three quarters of the slash's height of its centre,
 * moves to the slash's row. Words of its own row are not looked at: a date "12/05" is one row anyway.
 */
function reattachFractionParts(rows: Array<{ cy: number; h: number; words: Word[]; size: number }>): void {
  // The slashes of each row: a numerator or denominator is looked for in the three rows each side.
  const slashes = new Map<number, Word[]>();
  for (let i = 0; i < rows.length; i++) {
    if (rows[i]!.words.length > 400) continue;
    for (const w of rows[i]!.words) {
      const t = w.text.trim();
      if (t && (FRACTION_SLASH.test(t[0]!) || FRACTION_SLASH.test(t[t.length - 1]!)))
        (slashes.get(i) ?? slashes.set(i, []).get(i)!).push(w);
    }
  }
  if (!slashes.size) return;
  const touches = (w: Word, m: Word): boolean => {
    const t = m.text.trim();
    if (Math.abs((w.y0 + w.y1) / 2 - (m.y0 + m.y1) / 2) > (m.y1 - m.y0) * 0.75) return false;
    const gap = m.size * TOUCH_GAP;
    const numerator = FRACTION_SLASH.test(t[0]!) && Math.abs(m.x0 - w.x1) <= gap;
    const denominator = FRACTION_SLASH.test(t[t.length - 1]!) && Math.abs(w.x0 - m.x1) <= gap;
    return numerator || denominator;
  };
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.words.length > 400) continue;
    const moved = new Set<Word>();
    for (const w of r.words) {
      if (!/^\d{1,4}$/.test(w.text.trim())) continue;
      let host: { row: number; w: Word } | null = null;
      for (let j = Math.max(0, i - 3); j <= i + 3 && !host; j++) {
        if (j === i) continue;
        const m = slashes.get(j)?.find((s) => touches(w, s));
        if (m) host = { row: j, w: m };
      }
      if (!host) continue;
      // At full size it is set on the slash's band: a line as tall as both rows would stand apart
      // from the lines around it. A smaller part keeps its place, which makes it a script.
      const m = host.w;
      rows[host.row]!.words.push(w.size >= m.size * SMALLER_TYPE ? { ...w, y0: m.y0, y1: m.y1 } : w);
      moved.add(w);
    }
    if (moved.size) r.words = r.words.filter((w) => !moved.has(w));
  }
}

/**
 * A row of only small runs (superscripts, subscripts, footnote markers) raised or lowered so far
 * that it did not join the line it belongs to: it goes back into that line when it overlaps the
 * line's band and each of its runs touches a word of the line on the left or right.
 */
function mergeScriptRows(rows: Array<{ cy: number; h: number; words: Word[]; size: number }>): void {
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (!r.words.length || r.words.length > 12 || !r.words.every((w) => w.text.trim().length <= 8)) continue;
    const top = Math.min(...r.words.map((w) => w.y0)),
      bottom = Math.max(...r.words.map((w) => w.y1));
    let target: (typeof rows)[number] | null = null;
    for (let j = Math.max(0, i - 3); j < Math.min(rows.length, i + 4); j++) {
      const o = rows[j]!;
      if (o === r || !o.words.length) continue;
      // The line's own text (a row may be anchored on a superscript that came first).
      let oSize = 0;
      for (const w of o.words) oSize = Math.max(oSize, w.size);
      if (!r.words.every((w) => w.size < oSize * SMALLER_TYPE)) continue;
      let oTop = Infinity,
        oBottom = -Infinity;
      for (const w of o.words)
        if (w.size >= oSize * SMALLER_TYPE) {
          oTop = Math.min(oTop, w.y0);
          oBottom = Math.max(oBottom, w.y1);
        }
      if (Math.min(bottom, oBottom) - Math.max(top, oTop) < (bottom - top) * SHARED_HEIGHT) continue;
      const attached = r.words.every((w) =>
        o.words.some((m) => {
          const gap = Math.max(m.x0 - w.x1, w.x0 - m.x1);
          return gap <= oSize * TOUCH_GAP && gap >= -oSize * TOUCH_OVERLAP;
        }),
      );
      if (attached && (!target || Math.abs(o.cy - r.cy) < Math.abs(target.cy - r.cy))) target = o;
    }
    if (target) {
      target.words.push(...r.words);
      r.words = [];
    }
  }
}

const FENCE_ONLY = /^\s*[()[\]{}|‖⟨⟩⌈⌉⌊⌋]+\s*$/u;

/**
 * Tall brackets of a displayed formula, drawn as glyphs of a larger or extension font whose origin
 * sits above the baseline (as TeX sets them): their text box overlaps the formula's line only at its
 * top, so they joined the row above (or came as a row of their own: "( )" over each equation). A
 * bracket that stands against no word of its row goes to the row it overlaps by at least 15% of the
 * smaller height, when it stands against a word of that row.
 */
function mergeFenceRows(rows: Array<{ cy: number; h: number; words: Word[]; size: number }>): void {
  const against = (w: Word, m: Word, size: number): boolean => {
    const gap = Math.max(m.x0 - w.x1, w.x0 - m.x1);
    return gap <= size * 0.5 && gap >= -size * 0.2;
  };
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.words.length > 400) continue;
    const moved = new Set<Word>();
    for (const w of r.words) {
      if (!FENCE_ONLY.test(w.text)) continue;
      if (r.words.some((m) => m !== w && !FENCE_ONLY.test(m.text) && against(w, m, Math.min(w.size, m.size)))) continue;
      let target: (typeof rows)[number] | null = null;
      let best = 0;
      for (let j = Math.max(0, i - 3); j < Math.min(rows.length, i + 4); j++) {
        const o = rows[j]!;
        if (o === r || !o.words.length || o.words.length > 400) continue;
        let oSize = 0;
        for (const m of o.words) oSize = Math.max(oSize, m.size);
        let oTop = Infinity,
          oBottom = -Infinity;
        for (const m of o.words)
          if (m.size >= oSize * SMALLER_TYPE) {
            oTop = Math.min(oTop, m.y0);
            oBottom = Math.max(oBottom, m.y1);
          }
        const overlap = Math.min(w.y1, oBottom) - Math.max(w.y0, oTop);
        if (overlap < Math.min(w.y1 - w.y0, oBottom - oTop) * 0.15 || overlap <= best) continue;
        if (o.words.some((m) => !FENCE_ONLY.test(m.text) && against(w, m, oSize))) {
          target = o;
          best = overlap;
        }
      }
      if (target) {
        target.words.push(w);
        moved.add(w);
      }
    }
    if (moved.size) r.words = r.words.filter((w) => !moved.has(w));
  }
}

/** Drops text painted twice at (almost) the same place, a common way of faking bold. */
function dedupe(words: Word[]): Word[] {
  const out: Word[] = [];
  for (const w of words) {
    // Words are in x order, so a copy sits among the last few kept (bounded: hostile rows are long).
    let dup = false;
    for (let k = out.length - 1; k >= 0 && k >= out.length - 6; k--) {
      const o = out[k]!;
      if (
        o.text === w.text &&
        Math.abs(o.x0 - w.x0) < Math.max(1.5, w.size * 0.2) &&
        Math.abs(o.y0 - w.y0) < w.size * 0.3
      ) {
        dup = true;
        break;
      }
    }
    if (!dup) out.push(w);
  }
  return out;
}

const RELATION = /^\s*(?:=|:=|≤|≥|≈|≡|∝|∼|≃|≠)\s*$/u;
const RELATION_IN = /[=≤≥≈≡∝∼≃≠]/u;
const EQUATION_NUMBER = /^\s*\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)\s*$/;

/**
 * A line that stops on a joining word ("… Fabrication and", "… the"): the text goes on on the next
 * line, whether in a paragraph or in a table cell.
 */
export const ENDS_ON_JOINING_WORD = /\s(?:&|and|or|of|for|the|to|in|on|at|by|with|from|a|an)$/u;

/** Text that ends a sentence: a stop, perhaps inside a closing quote or bracket. */
/** A line opening with a raised, smaller number: a note's mark. */
export function noteMarked(L: Line): boolean {
  const first = L.words[0];
  return (
    !!first &&
    L.words.length > 1 &&
    /^\d{1,3}$/.test(first.text.trim()) &&
    first.size < L.size * SMALLER_TYPE &&
    first.y1 < L.y1 - L.size * 0.1
  );
}

export const ENDS_SENTENCE = /[.!?:;。]["”’)\]]?$/;

/** A line that must go on: it ends on a hyphen, a comma or another joining sign, or on a joining word. */
export function endsOpen(text: string): boolean {
  return /[-,;/&]$/u.test(text) || ENDS_ON_JOINING_WORD.test(text);
}

/**
 * A displayed equation with its number: a relation sign, and a number in parentheses set apart from
 * the formula by two ems or more at the line's end ("P(s) = softmax(Wx + b)      (3)").
 */
export function isNumberedEquation(line: Line): boolean {
  const ws = line.words;
  const last = ws[ws.length - 1],
    before = ws[ws.length - 2];
  if (!last || !before || !EQUATION_NUMBER.test(last.text)) return false;
  return last.x0 - before.x1 >= line.size * 2 && ws.some((w) => w !== last && RELATION_IN.test(w.text));
}

/**
 * A gap inside a displayed equation, which would otherwise split the row: its relation sign stands
 * about an em from both sides where equations are aligned on it (LaTeX's eqnarray), less than the
 * gutter between two columns, and its number stands flush right, alone at the end of the row.
 * Asked only of gaps wide enough to split, so ordinary word spaces cost no test.
 */
function equationGap(row: Word[], i: number, cur: Word[], gap: number, size: number): boolean {
  const w = row[i]!,
    prev = cur[cur.length - 1]!,
    next = row[i + 1];
  if (gap < size * 1.3 && (RELATION.test(prev.text) || RELATION.test(w.text))) return true;
  return (
    gap < size * 20 &&
    EQUATION_NUMBER.test(w.text) &&
    (!next || next.x0 - w.x1 > size) &&
    cur.some((x) => RELATION_IN.test(x.text))
  );
}

/**
 * Splits one row into lines at gaps wider than a column gutter, and assembles each line's text.
 * `gutter` says where a narrower gap is a column gutter all the same (see narrowGutters).
 */
export function splitRow(
  row: Word[],
  gapFactor = 1.0,
  spanned?: (x0: number, x1: number, size: number) => boolean,
  gutter?: (left: Word, right: Word) => boolean,
): Line[] {
  if (!row.length) return [];
  const rtlChars = row.reduce((n, w) => n + (w.rtl ? w.text.length : 0), 0);
  const total = row.reduce((n, w) => n + w.text.length, 0);
  const rtl = rtlChars > total / 2;
  const groups: Word[][] = [];
  let cur: Word[] = [];
  for (let i = 0; i < row.length; i++) {
    const w = row[i]!;
    const prev = cur[cur.length - 1];
    if (prev) {
      const gap = w.x0 - prev.x1;
      const size = Math.max(4, Math.min(prev.size, w.size));
      // A number or bullet with its text at a tab stop: numbers often hang well left of the text.
      // (Or Word's second-level bullet, an "o" in a fixed-pitch face before text in another.)
      // (Not a decimal figure among figures: "4.6" reads like a section number, but with a figure
      // after it, or a figure alone before it in the row, it is a value in a table's column, and
      // the wide space after it is a gutter.)
      const before = groups[groups.length - 1];
      const value =
        DECIMAL.test(prev.text.trim()) &&
        (FIGURE_FIRST.test(w.text.trim()) ||
          (!!before &&
            FIGURE_ONLY.test(
              before
                .map((b) => b.text)
                .join(' ')
                .trim(),
            )));
      const markerLead =
        cur.length === 1 &&
        (isMarkerOnly(prev.text) || (prev.text.trim() === 'o' && prev.mono && !w.mono)) &&
        gap < size * 8 &&
        !value;
      // A section number set larger before its heading on the same baseline (a numbered badge): one line.
      const badge = cur.length === 1 && /^\d{1,2}$/.test(prev.text) && prev.size >= w.size * 1.2 && gap < w.size * 2.5;
      // A section number set apart from its heading by a quad ("4  Conclusion", both bold, one size).
      const numberedHead =
        cur.length === 1 &&
        SECTION_NUMBER.test(prev.text.trim()) &&
        prev.bold === true &&
        w.bold === true &&
        Math.abs(prev.size - w.size) < 0.5 &&
        /^\p{Lu}\p{Ll}/u.test(w.text) &&
        gap < size * 2.5;
      // A label in bold followed after a wide space by plain text ("Name:   value") is two cells.
      const styleBreak = gap > size * 0.6 && prev.bold !== w.bold;
      // A wide space that the lines above and below run through is a stretched word space of
      // justified text, not a gutter.
      if (
        (gap > size * gapFactor || styleBreak || (gutter && gutter(prev, w))) &&
        !markerLead &&
        !badge &&
        !numberedHead &&
        !(spanned && !styleBreak && gap < size * 4 && spanned(prev.x1, w.x0, size)) &&
        !equationGap(row, i, cur, gap, size)
      ) {
        groups.push(cur);
        cur = [];
      }
    }
    cur.push(w);
  }
  if (cur.length) groups.push(cur);
  return groups.map((g) => makeLine(rtl ? [...g].reverse() : g, rtl));
}

export function makeLine(words: Word[], rtl: boolean): Line {
  let text = '';
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (i > 0) {
      const p = words[i - 1]!;
      const gap = rtl ? p.x0 - w.x1 : w.x0 - p.x1;
      const needSpace = gap > Math.min(p.size, w.size) * 0.12 && !text.endsWith(' ') && !w.text.startsWith(' ');
      if (needSpace) text += ' ';
    }
    text += w.text;
  }
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  let boldChars = 0,
    italicChars = 0,
    monoChars = 0,
    chars = 0;
  // The dominant size: the median over characters, each word counting for at most 50 of them.
  const weights: Array<[size: number, weight: number]> = [];
  let oneSize = true;
  for (const w of words) {
    x0 = Math.min(x0, w.x0);
    y0 = Math.min(y0, w.y0);
    x1 = Math.max(x1, w.x1);
    y1 = Math.max(y1, w.y1);
    const n = visibleLength(w.text);
    chars += n;
    if (w.bold) boldChars += n;
    if (w.italic) italicChars += n;
    if (w.mono) monoChars += n;
    if (n > 0) {
      if (weights.length && weights[0]![0] !== w.size) oneSize = false;
      weights.push([w.size, Math.min(n, 50)]);
    }
  }
  const c = Math.max(1, chars);
  const size = !weights.length ? 0 : oneSize ? weights[0]![0] : weightedMedian(weights);
  return {
    words,
    x0,
    y0,
    x1,
    y1,
    text: text.replace(/\s+/g, ' ').trim(),
    size: size || words[0]!.size,
    bold: boldChars / c > 0.6,
    italic: italicChars / c > 0.8,
    mono: monoChars / c > 0.8,
    rtl,
  };
}

/** A column gutter narrower than a line split allows, and the rows it parts. */
export interface NarrowGutter {
  /** Where the right column's lines start. */
  x: number;
  /** Index of the first and last row it parts. */
  from: number;
  to: number;
}

/**
 * Column gutters narrower than an em (two justified columns set 8 pt apart in 10 pt type): a gap
 * that small is no wider than the stretched word spaces of justified text, so the rows that run
 * across both columns are not split at it. What marks such a gutter is that the right column's lines
 * all start at one x: four rows or more have a word starting there (within 0.8 pt) after a space of
 * a third of an em or more, with running text on both sides (eight ems each way without a wider
 * break), and no row between them runs a word across it. Word spaces of justified lines fall
 * anywhere; they do not line up row after row, and prose on both sides keeps a list's numbers and
 * a form's values, which line up too, out of it.
 */
export function narrowGutters(rows: readonly Word[][]): NarrowGutter[] {
  interface Hit {
    x: number;
    row: number;
    size: number;
  }
  const hits: Hit[] = [];
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    for (let i = 1; i < r.length; i++) {
      const p = r[i - 1]!,
        w = r[i]!;
      const size = Math.max(4, Math.min(p.size, w.size));
      const gap = w.x0 - p.x1;
      if (gap < size * 0.3 || gap > size * 4) continue;
      if (runLength(r, i - 1, -1) < size * 8 || runLength(r, i, 1) < size * 8) continue;
      hits.push({ x: w.x0, row: k, size });
    }
  }
  if (hits.length < 4) return [];
  hits.sort((a, b) => a.x - b.x);
  const out: NarrowGutter[] = [];
  let s = 0;
  while (s < hits.length) {
    let e = s + 1;
    while (e < hits.length && hits[e]!.x - hits[e - 1]!.x <= 0.8 && hits[e]!.x - hits[s]!.x <= 1.6) e++;
    if (e - s >= 4) {
      const group = hits.slice(s, e).sort((a, b) => a.row - b.row);
      const x = group.reduce((m, h) => m + h.x, 0) / group.length;
      // Runs of hits with no row between them that crosses x.
      let run: Hit[] = [group[0]!];
      const flush = (): void => {
        if (run.length < 4) return;
        // The rows just before and after the run whose word at x has too short a run of text to be a
        // hit (a paragraph's last line in the right column, "board.") are parted at the gutter too,
        // while no word crosses it.
        const size = run[0]!.size;
        const startsAtX = (k: number): boolean =>
          rows[k]!.some((w, i) => i > 0 && Math.abs(w.x0 - x) <= 0.8 && w.x0 - rows[k]![i - 1]!.x1 >= size * 0.3);
        const crosses = (k: number): boolean => rows[k]!.some((w) => w.x0 < x - 0.8 && w.x1 > x - size * 0.15);
        // (Past a few rows with text on the left only, the right column's space before a heading: the
        // heading's row is parted too, "4  Conclusion" beside the left column's line.)
        const leftOnly = (k: number): boolean => rows[k]!.every((w) => w.x1 < x - size * 0.15);
        const reach = (k: number, dir: 1 | -1): number => {
          for (let j = k + dir, skipped = 0; j >= 0 && j < rows.length && !crosses(j); j += dir) {
            if (startsAtX(j)) {
              k = j;
              skipped = 0;
            } else if (!leftOnly(j) || ++skipped > 3) break;
          }
          return k;
        };
        const from = reach(run[0]!.row, -1),
          to = reach(run[run.length - 1]!.row, 1);
        out.push({ x, from, to });
      };
      for (let g = 1; g < group.length; g++) {
        const a = run[run.length - 1]!,
          b = group[g]!;
        let crossed = false;
        for (let k = a.row + 1; k < b.row && !crossed; k++)
          crossed = rows[k]!.some((w) => w.x0 < x - 0.8 && w.x1 > x - b.size * 0.15);
        if (crossed || b.row === a.row) {
          if (b.row !== a.row) {
            flush();
            run = [b];
          }
          continue;
        }
        run.push(b);
      }
      flush();
    }
    s = e;
  }
  return out;
}

/** How far a row's text runs from word i in one direction before a break wider than an em. */
function runLength(r: readonly Word[], i: number, dir: 1 | -1): number {
  let j = i;
  while (j + dir >= 0 && j + dir < r.length) {
    const a = dir === 1 ? r[j]! : r[j + dir]!,
      b = dir === 1 ? r[j + dir]! : r[j]!;
    if (b.x0 - a.x1 > Math.max(4, Math.min(a.size, b.size))) break;
    j += dir;
  }
  return dir === 1 ? r[j]!.x1 - r[i]!.x0 : r[i]!.x1 - r[j]!.x0;
}
