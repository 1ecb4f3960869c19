/**
 * How close a reading is to the true text, for benchmarks: character and word error rates (edit
 * distance over the truth's length) and an order-free word similarity. Layout and typography are not
 * counted as recognition errors: whitespace runs are one space, typographic quotes and dashes are
 * folded, ligatures split (NFKC), bullets dropped and a word hyphenated at a line end joined, in both
 * texts alike. `plainFromMarkdown` takes markdown syntax off a reading so it compares with plain text.
 */

export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201F\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2022\u25AA\u25CF\u25E6\u2023\u2043\u25A0\u25A1\uF0B7]/g, ' ')
    .replace(/(\p{L})-\s*\n\s*(\p{Ll})/gu, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Levenshtein distance between two sequences, O(n·m) time and O(m) memory. */
export function editDistance<T>(s: readonly T[], t: readonly T[]): number {
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

export interface ErrorCount {
  /** Edits turning the reading into the truth. */
  errors: number;
  /** Characters (or words) of the truth. */
  length: number;
}

export function charErrors(hypothesis: string, truth: string): ErrorCount {
  const t = [...normalizeText(truth)];
  return { errors: editDistance([...normalizeText(hypothesis)], t), length: t.length };
}

export function words(text: string): string[] {
  const n = normalizeText(text);
  return n ? n.split(' ') : [];
}

export function wordErrors(hypothesis: string, truth: string): ErrorCount {
  const t = words(truth);
  return { errors: editDistance(words(hypothesis), t), length: t.length };
}

const rate = (c: ErrorCount, emptyHyp: boolean) => (c.length ? c.errors / c.length : emptyHyp ? 0 : 1);

/** Character error rate: 0 is perfect; can exceed 1. */
export function cer(hypothesis: string, truth: string): number {
  return rate(charErrors(hypothesis, truth), normalizeText(hypothesis) === '');
}

/** Word error rate over whitespace-separated words (punctuation stays part of its word). */
export function wer(hypothesis: string, truth: string): number {
  return rate(wordErrors(hypothesis, truth), words(hypothesis).length === 0);
}

/**
 * Order-free similarity: F1 of the two texts' bags of words (lower-cased, punctuation around a word
 * dropped). A table read row by row and one read column by column score the same here.
 */
export function bagSimilarity(hypothesis: string, truth: string): number {
  const bag = (s: string) => {
    const m = new Map<string, number>();
    for (const w of words(s)) {
      const k = w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      if (k) m.set(k, (m.get(k) ?? 0) + 1);
    }
    return m;
  };
  const h = bag(hypothesis);
  const t = bag(truth);
  let common = 0;
  let nh = 0;
  let nt = 0;
  for (const v of h.values()) nh += v;
  for (const [k, v] of t) {
    nt += v;
    common += Math.min(v, h.get(k) ?? 0);
  }
  return nh + nt ? (2 * common) / (nh + nt) : 1;
}

/**
 * Markdown as the plain text it shows: headings, emphasis, list markers, links, escapes, HTML breaks
 * and table syntax (pipes and the delimiter row) taken off; cells of a row become words of a line.
 */
export function plainFromMarkdown(md: string): string {
  return md
    .split('\n')
    .filter((line) => !/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line))
    .map((line) =>
      line
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/^\s*>\s?/, '')
        .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?=\S)/, (m) => (/\d/.test(m) ? m.trimStart() : ''))
        .replace(/^\s*\|/, '')
        .replace(/\|\s*$/, '')
        .replace(/(?<!\\)\|/g, ' ')
        .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/<br\s*\/?>/gi, ' ')
        .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
        .replace(/(?<![\w*])([*_])(?=\S)([^*_]*?\S)\1(?![\w*])/g, '$2')
        .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1'),
    )
    .join('\n');
}
