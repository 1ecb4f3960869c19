/**
 * Character error rate: edit distance between recognised and true text over the length of the truth.
 * Whitespace runs count as one space and typographic quotes and dashes are folded, so layout and
 * typography choices are not counted as recognition errors.
 */

export function normalizeForCer(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201F\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Levenshtein distance over code points, O(n·m) time and O(m) memory. */
export function editDistance(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let prev = new Uint32Array(t.length + 1);
  let cur = new Uint32Array(t.length + 1);
  for (let j = 0; j <= t.length; j++) prev[j] = j;
  for (let i = 1; i <= s.length; i++) {
    cur[0] = i;
    const si = s[i - 1];
    for (let j = 1; j <= t.length; j++) {
      const cost = si === t[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[t.length]!;
}

/** CER of `hypothesis` against `truth`, both normalised; 0 is perfect, can exceed 1. */
export function cer(hypothesis: string, truth: string): number {
  const h = normalizeForCer(hypothesis);
  const t = normalizeForCer(truth);
  if (t.length === 0) return h.length === 0 ? 0 : 1;
  return editDistance(h, t) / [...t].length;
}
