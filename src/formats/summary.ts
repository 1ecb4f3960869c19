/**
 * An extractive summary: the document's most representative sentences, in their original order.
 * No language model runs here, so nothing is invented: every sentence of the summary is in the document.
 */
export function summarize(markdown: string, maxSentences = 5): string {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/^\|.*\|$/gm, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/[*_`~>#]/g, '');
  const sentences = text
    .split(/(?<=[.!?])\s+|\n{2,}/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.split(' ').length >= 5 && s.length <= 600);
  if (sentences.length === 0) return text.replace(/\s+/g, ' ').trim().slice(0, 500);
  const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  const freq = new Map<string, number>();
  for (const s of sentences) for (const w of new Set(words(s))) freq.set(w, (freq.get(w) ?? 0) + 1);
  const scored = sentences.map((s, i) => {
    const ws = words(s);
    const score = ws.reduce((a, w) => a + Math.log(1 + (freq.get(w) ?? 0)), 0) / Math.sqrt(ws.length || 1);
    // Openings of documents carry their point more often than not.
    return { s, i, score: score * (i < 3 ? 1.25 : 1) };
  });
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, maxSentences)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.s)
    .join(' ');
}
