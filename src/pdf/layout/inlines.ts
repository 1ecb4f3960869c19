/**
 * Inline content of laid-out text: a line's words as runs with their emphasis and sub- or
 * superscript position, and the lines of a paragraph (or of a table cell) joined, with the
 * hyphens at line ends either closed up or kept.
 */
import type { Inline, TextInline } from '../../model/document.js';
import { common as commonWords } from '../../redact/data/gazetteer.js';
import type { Line, Word } from './lines.js';

const CJK = /[\u3040-\u30FF\u3400-\u9FFF\uF900-\uFAFF]/;

function wordRuns(words: Word[], lineSize: number, rtl: boolean, marks: { bold: boolean; italic: boolean }): TextInline[] {
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
    const sup = w.size < lineSize * 0.8 && baselineMid.length > 0 && (w.y0 + w.y1) / 2 < mid - lineSize * 0.15 && /^[\w*†‡§,]{1,6}$/u.test(w.text.trim());
    // Lowered small runs (chemical formulas, indices) are subscripts.
    const sub = !sup && w.size < lineSize * 0.8 && baselineMid.length > 0 && (w.y0 + w.y1) / 2 > mid + lineSize * 0.12 && /^[\w*+\-−,]{1,6}$/u.test(w.text.trim())
      && i > 0 && words[i - 1]!.size >= lineSize * 0.9 && w.x0 - words[i - 1]!.x1 < lineSize * 0.3;
    const run: TextInline = { type: 'text', text: w.text };
    // Emphasis on a script run only splits the emphasis around it ("*d**<sub>i</sub>*").
    if (w.bold && !marks.bold && !sup && !sub) run.bold = true;
    if (w.italic && !marks.italic && !sup && !sub) run.italic = true;
    if (sup) run.superscript = true;
    if (sub) run.subscript = true;
    if (sep) runs.push({ type: 'text', text: sep });
    runs.push(run);
  }
  return runs;
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
        if (need <= 0) { rest.push(w); continue; }
        const t = w.text.replace(/^\s+/, '');
        const compact = t.replace(/\s+/g, '');
        if (compact.length <= need) { need -= compact.length; continue; }
        // Cut inside the word.
        let k = 0, seen = 0;
        while (k < t.length && seen < need) { if (!/\s/.test(t[k]!)) seen++; k++; }
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
      if (hyphen === 'join') {
        prev.text = prev.text.slice(0, -1);
      } else if (hyphen === 'keep') {
        // A compound's own hyphen: the parts stay joined by it, with no space.
      } else if (!(CJK.test(prev.text.slice(-1)) && CJK.test(first.text[0] ?? ''))) {
        out.push({ type: 'text', text: ' ' });
      }
    }
    out.push(...runs);
  });
  // Whole-block emphasis; superscripts stay outside it (markers between emphasis runs read badly).
  if (allBold || allItalic) for (const r of out) { if (r.superscript || r.subscript) continue; if (allBold) r.bold = true; if (allItalic) r.italic = true; }
  // Trim the whole paragraph.
  while (out.length && !out[0]!.text.trim()) out.shift();
  while (out.length && !out[out.length - 1]!.text.trim()) out.pop();
  if (out.length) { out[0]!.text = out[0]!.text.replace(/^\s+/, ''); out[out.length - 1]!.text = out[out.length - 1]!.text.replace(/\s+$/, ''); }
  return out;
}

let dictionary: Set<string> | null = null;
function known(word: string): boolean {
  // SCOWL's common English vocabulary (sizes 10-35, with inflections), shipped with the library for
  // redaction; built into a set on the first hyphen that needs it.
  dictionary ??= new Set(commonWords.split('\n'));
  return dictionary.has(word);
}

/**
 * A hyphen ending a line either splits a word for the line break (joined: "con-" + "sider") or is
 * the word's own (kept: "chat-" + "optimized", "Knight-" + "Commander", "question-to-" + "positive").
 * `none`: a suspended hyphen ("children- and adults") or not a word break; a space follows.
 */
function lineEndHyphen(before: string, after: string): 'join' | 'keep' | 'none' {
  const head = /(\p{L}+(?:-\p{L}+)*)-$/u.exec(before)?.[1] ?? '';
  const tail = /^\p{L}+/u.exec(after)?.[0] ?? '';
  if (!head || !tail) return 'none';
  if (/^(?:and|or|to|und|oder)$/.test(tail)) return 'none';
  // A capitalised part after the break is a name or a title-cased compound, never a word's second half.
  if (/^\p{Lu}/u.test(tail)) return 'keep';
  if (!/^\p{Ll}/u.test(tail)) return 'none';
  // Compounds of three or more parts keep every hyphen.
  if (head.includes('-')) return 'keep';
  const first = head.toLowerCase();
  if (known(first + tail)) return 'join';
  // Particles that close up with what follows ("out-" + "perform" is "outperform" even where the
  // word list lacks it).
  if (/^(?:out|over|under|up|down|with|back|fore|through)$/.test(first)) return 'join';
  // Both parts whole words while their join is none: a compound. Capitalised first parts need longer
  // parts, as names split across lines ("Red-field", "Mar-jan") are often pairs of short words.
  const min = /^\p{Lu}/u.test(head) ? 4 : 3;
  if (first.length >= min && tail.length >= min && known(first) && known(tail)) return 'keep';
  return 'join';
}
