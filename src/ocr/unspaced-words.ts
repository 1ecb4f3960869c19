/**
 * Words of scripts written without a space inside a word, joined as tesseract's own text joins them.
 *
 * tesseract's hOCR cuts a Korean line into a box per syllable or two ("정", "부", "는" for 정부는), with
 * overlapping boxes and gaps that do not tell a word's inside from the space between words (0.1-0.4 of
 * the line height for both on fixtures/ocr/scripts/korean.pdf); its plain text output keeps the space
 * decision the recogniser made ("정부는 오늘 새로운 예산을 발표했습니다."). So for models of such scripts the
 * text output is asked for too, matched to the hOCR words line by line, and the words it writes
 * without a space between them are joined into one. A line whose text does not match its words is
 * left as it is.
 */
import type { HocrBlock, HocrLine, HocrWord } from './hocr.js';

/** Models whose script needs it: Korean, Chinese, Japanese (and their vertical variants). */
const UNSPACED_MODEL = /(^|\+)(kor|chi_sim|chi_tra|jpn)(_vert)?($|\+)/;

/** Characters of those scripts; a joint is made only where one of them meets the other word. */
const UNSPACED_CHAR = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

export function needsWordJoints(languages: string): boolean {
  return UNSPACED_MODEL.test(languages);
}

/** Whether each of the line's word boundaries is written without a space in `text`; null when they do not match. */
function joints(words: readonly HocrWord[], text: string): boolean[] | null {
  const t = text.trim();
  const out: boolean[] = [];
  let at = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!.text;
    if (!t.startsWith(w, at)) return null;
    at += w.length;
    if (i === words.length - 1) break;
    let spaced = false;
    while (t[at] === ' ') {
      spaced = true;
      at++;
    }
    out.push(!spaced);
  }
  return at === t.length ? out : null;
}

function joinWords(a: HocrWord, b: HocrWord): HocrWord {
  const la = [...a.text].length;
  const lb = [...b.text].length;
  return {
    text: a.text + b.text,
    bbox: {
      x0: Math.min(a.bbox.x0, b.bbox.x0),
      y0: Math.min(a.bbox.y0, b.bbox.y0),
      x1: Math.max(a.bbox.x1, b.bbox.x1),
      y1: Math.max(a.bbox.y1, b.bbox.y1),
    },
    confidence: (a.confidence * la + b.confidence * lb) / (la + lb),
  };
}

function joinLine(line: HocrLine, text: string): void {
  const glued = joints(line.words, text);
  if (!glued) return;
  const words: HocrWord[] = [line.words[0]!];
  for (let i = 1; i < line.words.length; i++) {
    const prev = words[words.length - 1]!;
    const next = line.words[i]!;
    const meets = UNSPACED_CHAR.test(prev.text.at(-1) ?? '') || UNSPACED_CHAR.test(next.text[0] ?? '');
    if (glued[i - 1] && meets) words[words.length - 1] = joinWords(prev, next);
    else words.push(next);
  }
  line.words = words;
}

/** Joins, in place, the words `text` (tesseract's text output of the same reading) writes as one. */
export function joinUnspacedWords(blocks: HocrBlock[], text: string): void {
  const lines = blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines));
  const textLines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length !== textLines.length) return;
  lines.forEach((line, i) => joinLine(line, textLines[i]!));
}
