/**
 * Inline content of laid-out text: a line's words as runs with their emphasis and sub- or
 * superscript position, and the lines of a paragraph (or of a table cell) joined, with the
 * hyphens at line ends either closed up or kept.
 */
import type { Inline, TextInline } from '../model/document.js';
import { commonWordList } from '../redact/gazetteer.js';
import type { Line, Word } from './lines.js';

const CJK = /[\u3001-\u303F\u3040-\u30FF\u3400-\u9FFF\uF900-\uFAFF]/;

/**
 * A line of CJK text ends here: its last character is CJK, or punctuation after one (a full-width
 * comma or stop, made ASCII by normalisation). The next line then goes on without a space.
 */
function endsCjk(text: string): boolean {
  const last = text.slice(-1);
  return CJK.test(last) || (/[,.;:!?)]/.test(last) && CJK.test(text.slice(-2, -1)));
}

/**
 * Raised or lowered runs set below this share of the line's size are scripts. Word sets them at two
 * thirds, LibreOffice at 58%, browsers at "smaller" (five sixths, 83%).
 */
const SCRIPT_SIZE = 0.85;

/**
 * A note's mark wrapped to the head of a line: it belongs to the punctuation or the CJK text that ends
 * the line above ("…hardness." + "²"), with no space between.
 */
function noteMarkAfter(prev: TextInline, first: TextInline): boolean {
  return !!first.superscript && /^\d{1,3}$/.test(first.text) && (endsCjk(prev.text) || /[.,;:!?)]$/.test(prev.text));
}

function wordRuns(
  words: Word[],
  lineSize: number,
  rtl: boolean,
  marks: { bold: boolean; italic: boolean },
): TextInline[] {
  const runs: TextInline[] = [];
  const baselineMid = words.filter((w) => w.size >= lineSize * 0.9).map((w) => (w.y0 + w.y1) / 2);
  const mid = baselineMid.length ? baselineMid.reduce((a, b) => a + b, 0) / baselineMid.length : 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    let sep = '';
    if (i > 0) {
      const p = words[i - 1]!;
      const gap = rtl ? p.x0 - w.x1 : w.x0 - p.x1;
      if (gap > Math.min(p.size, w.size) * 0.12 && !p.text.endsWith(' ') && !w.text.startsWith(' ')) sep = ' ';
    }
    const sup =
      w.size < lineSize * SCRIPT_SIZE &&
      baselineMid.length > 0 &&
      (w.y0 + w.y1) / 2 < mid - lineSize * 0.15 &&
      /^[\w*†‡§,]{1,6}$/u.test(w.text.trim());
    // Lowered small runs (chemical formulas, indices) are subscripts.
    const sub =
      !sup &&
      w.size < lineSize * SCRIPT_SIZE &&
      baselineMid.length > 0 &&
      (w.y0 + w.y1) / 2 > mid + lineSize * 0.12 &&
      /^[\w*+\-−,]{1,6}$/u.test(w.text.trim()) &&
      i > 0 &&
      words[i - 1]!.size >= lineSize * 0.9 &&
      w.x0 - words[i - 1]!.x1 < lineSize * 0.3;
    const run: TextInline = { type: 'text', text: w.text };
    // Emphasis on a script run only splits the emphasis around it ("*d**<sub>i</sub>*").
    if (w.bold && !marks.bold && !sup && !sub) run.bold = true;
    if (w.italic && !marks.italic && !sup && !sub) run.italic = true;
    if (sup) run.superscript = true;
    if (sub) run.subscript = true;
    if (w.href) run.href = w.href;
    if (w.strike) run.strike = true;
    if (sep) runs.push(between(runs[runs.length - 1], run, sep));
    runs.push(run);
  }
  return runs;
}

/**
 * White space between two runs: inside a link or a strikethrough both carry (one link over two words
 * of two runs, or over the end of a line and the start of the next, stays one link).
 */
function between(prev: TextInline | undefined, next: TextInline, text: string): TextInline {
  const run: TextInline = { type: 'text', text };
  if (prev?.href && prev.href === next.href) run.href = prev.href;
  if (prev?.strike && next.strike) run.strike = true;
  return run;
}

/**
 * A link's address written out and broken over a line end ("https://example.org/reports/" and
 * "2024/summary"): both sides link to it, and what stands either side of the break is one piece of
 * the address.
 */
function addressGoesOn(prev: TextInline, next: TextInline): boolean {
  if (!prev.href || prev.href !== next.href) return false;
  const tail = /\S+$/.exec(prev.text)?.[0];
  const head = /^\S+/.exec(next.text)?.[0];
  return !!tail && !!head && prev.href.includes(tail + head);
}

export function blockInlines(lines: Line[], stripPrefix: string): Inline[] {
  const allBold = lines.every((l) => l.bold);
  const allItalic = lines.every((l) => l.italic);
  const out: TextInline[] = [];
  lines.forEach((line, li) => {
    let words = line.words;
    if (li === 0 && stripPrefix) {
      // Drop the list marker's words (or the marker part of the first word).
      let need = stripPrefix.replace(/\s+/g, '').length;
      const rest: Word[] = [];
      for (const w of words) {
        if (need <= 0) {
          rest.push(w);
          continue;
        }
        const t = w.text.replace(/^\s+/, '');
        const compact = t.replace(/\s+/g, '');
        if (compact.length <= need) {
          need -= compact.length;
          continue;
        }
        // Cut inside the word.
        let k = 0,
          seen = 0;
        while (k < t.length && seen < need) {
          if (!/\s/.test(t[k]!)) seen++;
          k++;
        }
        rest.push({ ...w, text: t.slice(k).replace(/^\s+/, '') });
        need = 0;
      }
      words = rest.filter((w) => w.text);
    }
    const runs = wordRuns(words, line.size, line.rtl, { bold: allBold, italic: allItalic });
    if (!runs.length) return;
    if (out.length) {
      const prev = out[out.length - 1]!;
      const first = runs[0]!;
      const hyphen = /\p{L}-$/u.test(prev.text) ? lineEndHyphen(prev.text, first.text) : 'none';
      // Either way the break is marked, for the document's own spellings to settle (see
      // settleLineEndHyphens).
      if (addressGoesOn(prev, first)) {
        // An address broken over the line end, hyphen and all, is one word.
      } else if (hyphen === 'join') {
        prev.text = prev.text.slice(0, -1) + BREAK_MARK;
      } else if (hyphen === 'keep') {
        // A compound's own hyphen: the parts stay joined by it, with no space.
        prev.text += BREAK_MARK;
      } else if (!(endsCjk(prev.text) && CJK.test(first.text[0] ?? '')) && !noteMarkAfter(prev, first)) {
        out.push(between(prev, first, ' '));
      }
    }
    out.push(...runs);
  });
  // Whole-block emphasis; superscripts stay outside it (markers between emphasis runs read badly).
  if (allBold || allItalic)
    for (const r of out) {
      if (r.superscript || r.subscript) continue;
      if (allBold) r.bold = true;
      if (allItalic) r.italic = true;
    }
  // Trim the whole paragraph.
  while (out.length && !out[0]!.text.trim()) out.shift();
  while (out.length && !out[out.length - 1]!.text.trim()) out.pop();
  if (out.length) {
    out[0]!.text = out[0]!.text.replace(/^\s+/, '');
    out[out.length - 1]!.text = out[out.length - 1]!.text.replace(/\s+$/, '');
  }
  return out;
}

let dictionary: Set<string> | null = null;
function known(word: string): boolean {
  // SCOWL's common English vocabulary (sizes 10-35, with inflections), shipped with the library for
  // redaction; built into a set on the first hyphen that needs it.
  dictionary ??= new Set(commonWordList().split('\n'));
  return dictionary.has(word);
}

/**
 * A word on its own, as far as a common vocabulary tells: listed, or an inflection or agent noun of
 * a listed word ("encoder", "datasets"), or two listed words of three letters or more run together
 * ("dataset"). Technical words are often missing from a common vocabulary but built that way.
 */
function wordOnItsOwn(word: string): boolean {
  const compound = (w: string): boolean => {
    for (let i = 3; i <= w.length - 3; i++) if (known(w.slice(0, i)) && known(w.slice(i))) return true;
    return false;
  };
  if (known(word) || compound(word)) return true;
  const stems = [/s$/, /es$/, /e?d$/, /ing$/, /e?rs?$/]
    .map((re) => word.replace(re, ''))
    .filter((w) => w !== word && w.length >= 3);
  return stems.some((w) => known(w) || known(`${w}e`) || compound(w));
}

/**
 * Prefixes that stand before a word with a hyphen as often as closed up ("multi-dataset",
 * "dual-encoder", "self-attention", "co-occurrence"): before a word on its own the hyphen is kept
 * unless the closed form is a known word ("multiple", "cooperation").
 */
const HYPHEN_PREFIX =
  /^(?:anti|auto|bi|co|counter|cross|dual|extra|hyper|inter|intra|macro|meta|micro|mid|mini|multi|non|post|pre|pseudo|quasi|semi|self|sub|super|tri|ultra)$/;

/**
 * A hyphen ending a line either splits a word for the line break (joined: "con-" + "sider") or is
 * the word's own (kept: "chat-" + "optimized", "Knight-" + "Commander", "question-to-" + "positive").
 * `none`: a suspended hyphen ("children- and adults") or not a word break; a space follows.
 */
function lineEndHyphen(before: string, after: string): 'join' | 'keep' | 'none' {
  const head = /(\p{L}+(?:-\p{L}+)*)-$/u.exec(before)?.[1] ?? '';
  const tail = /^\p{L}+/u.exec(after)?.[0] ?? '';
  if (!head || !tail) return 'none';
  // The word after the break goes on with a hyphen of its own: a compound of three parts or more
  // ("state-" + "of-the-art", "end-" + "to-end").
  const compoundGoesOn = /^\p{L}+-\p{L}/u.test(after);
  if (!compoundGoesOn && /^(?:and|or|to|und|oder)$/.test(tail)) return 'none';
  // A capitalised part after the break is a name or a title-cased compound, never a word's second half.
  if (/^\p{Lu}/u.test(tail)) return 'keep';
  if (!/^\p{Ll}/u.test(tail)) return 'none';
  // Compounds of three or more parts keep every hyphen.
  if (head.includes('-')) return 'keep';
  const first = head.toLowerCase();
  if (known(first + tail)) return 'join';
  if (compoundGoesOn) return 'keep';
  if (HYPHEN_PREFIX.test(first) && tail.length >= 3 && wordOnItsOwn(tail)) return 'keep';
  // Particles that close up with what follows ("out-" + "perform" is "outperform" even where the
  // word list lacks it).
  if (/^(?:out|over|under|up|down|with|back|fore|through)$/.test(first)) return 'join';
  // Both parts whole words while their join is none: a compound. Capitalised first parts need longer
  // parts, as names split across lines ("Red-field", "Mar-jan") are often pairs of short words.
  const min = /^\p{Lu}/u.test(head) ? 4 : 3;
  if (first.length >= min && tail.length >= min && known(first) && wordOnItsOwn(tail)) return 'keep';
  return 'join';
}

/**
 * Marks where a line ended on a hyphen between letters that was closed up or kept: the decision
 * above rests on a common vocabulary, and the document's own spelling elsewhere ("benchmark" or
 * "data-driven" in the middle of a line) is better evidence. A soft hyphen: extraction drops the
 * ones in the source text (lines.ts), so every one in a block's content is such a mark, and if one
 * were left it would show nothing.
 */
export const BREAK_MARK = '\u00AD';

/** Letters of the compound before a mark and of the word after it. */
const BEFORE_MARK = /(\p{L}+)(-?)$/u;
const AFTER_MARK = /^\p{L}+/u;

/** Spellings seen in a document's text away from line ends: words, and pairs of parts joined by a hyphen. */
export interface Spellings {
  words: Set<string>;
  pairs: Set<string>;
}

/**
 * Adds the spellings of a text to `into`. It is cut at the marks first: the pieces either side of a
 * marked line end never count as a spelling of the whole word.
 */
export function collectSpellings(text: string, into: Spellings): void {
  for (const piece of text.split(BREAK_MARK)) {
    for (const m of piece.toLowerCase().matchAll(/\p{L}+(?:-\p{L}+)*/gu)) {
      const parts = m[0].split('-');
      for (const p of parts) into.words.add(p);
      for (let k = 1; k < parts.length; k++) into.pairs.add(`${parts[k - 1]}-${parts[k]}`);
    }
  }
}

/**
 * Settles the marked line ends of some content, in place: closed up where the document spells the
 * word closed up elsewhere and never with the hyphen, kept where it spells it with the hyphen and
 * never closed up; otherwise as decided at the line end. The marks go.
 */
export function settleLineEndHyphens(content: Inline[], spellings: Spellings): void {
  const texts = content.map((i) => (i.type === 'text' ? i.text : ''));
  const all = texts.join('');
  if (!all.includes(BREAK_MARK)) return;
  let offset = 0;
  content.forEach((inline, k) => {
    const t = texts[k]!;
    if (inline.type === 'text' && t.includes(BREAK_MARK)) {
      let out = '';
      for (let i = 0; i < t.length; i++) {
        if (t[i] !== BREAK_MARK) {
          out += t[i];
          continue;
        }
        const before = BEFORE_MARK.exec(out);
        const after = AFTER_MARK.exec(all.slice(offset + i + 1))?.[0] ?? '';
        if (!before || !after) continue;
        const head = before[1]!.toLowerCase(),
          tail = after.toLowerCase();
        const closed = spellings.words.has(head + tail),
          hyphened = spellings.pairs.has(`${head}-${tail}`);
        const kept = before[2] === '-';
        if (kept && closed && !hyphened) out = out.slice(0, -1);
        else if (!kept && hyphened && !closed) out += '-';
      }
      inline.text = out;
    }
    offset += t.length;
  });
}
