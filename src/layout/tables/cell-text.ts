/** A cell's words as text: its lines, its inline content (marks and all), its plain text. */
import type { TableCell, TextInline } from '../../model/document.js';
import { blockInlines } from '../inlines.js';
import { makeLine, type Line, type Word } from '../lines.js';

/** A cell's words as lines, top to bottom, each in reading order. */
export function cellLines(words: Word[]): Line[] {
  const sorted = [...words].sort((a, b) => a.y0 - b.y0);
  const rows: Word[][] = [];
  for (const w of sorted) {
    const r = rows.find((row) => {
      const f = row[0]!;
      const ov = Math.min(f.y1, w.y1) - Math.max(f.y0, w.y0);
      return ov > 0.45 * Math.min(f.y1 - f.y0, w.y1 - w.y0);
    });
    if (r) r.push(w);
    else rows.push([w]);
  }
  return rows.map((r) => {
    const rtl = r.filter((w) => w.rtl).length > r.length / 2;
    const ws = r.sort((a, b) => a.x0 - b.x0);
    // A cell's line is short: its largest type is its body size even where sub- or superscripts
    // have more characters ("P" and its "start"), which the median by characters would pick.
    return { ...makeLine(rtl ? ws.reverse() : ws, rtl), size: ws.reduce((m, w) => Math.max(m, w.size), 0) };
  });
}

/**
 * A cell's content, with the same inline marks as a paragraph's (emphasis of some of its words,
 * footnote marks as superscripts, subscripts) and its lines joined as a paragraph's are.
 */
export function cellInlines(words: Word[]): TableCell['content'] {
  if (!words.length) return [];
  const runs = blockInlines(cellLines(words), '') as TextInline[];
  // Dot leaders running from a label towards its number are layout, not content.
  if (runs.length) {
    const last = runs[runs.length - 1]!;
    last.text = last.text.replace(/\s*(?:\.{3,}|…+|(?:\. ){3,}\.?)\s*$/u, '');
    runs[0]!.text = runs[0]!.text.replace(/^\s*(?:\.{3,}|…+)\s*/u, '');
  }
  const out = runs.filter((r) => r.text !== '');
  while (out.length && !out[out.length - 1]!.text.trim()) out.pop();
  while (out.length && !out[0]!.text.trim()) out.shift();
  return out;
}

/** A cell's plain text. */
export function plainOf(content: TableCell['content']): string {
  return content.map((r) => (r.type === 'text' ? r.text : '')).join('');
}
