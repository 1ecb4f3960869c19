/**
 * The strokes of a vertical rule read as "|" left out of the text (src/ocr/page.ts).
 */
import { describe, expect, it } from 'vitest';
import { toPageInput, type OcrLine, type OcrPage, type OcrWord } from '../src/ocr/page.js';

describe('the strokes of a vertical rule read as "|"', () => {
  const ROW = 30;
  /** A line of words at (x, y): each word's left edge given. */
  function line(words: Array<[string, number]>, y: number): OcrLine {
    const out: OcrWord[] = words.map(([text, x]) => ({ text, confidence: 0.9, bbox: { x0: x, y0: y, x1: x + (text === '|' ? 4 : text.length * 12), y1: y + ROW } }));
    const x0 = out[0]!.bbox.x0;
    const x1 = out[out.length - 1]!.bbox.x1;
    return { words: out, bbox: { x0, y0: y, x1, y1: y + ROW }, confidence: 0.9, rowHeight: ROW, xHeight: 14, baseline: { x0, y0: y + 24, x1, y1: y + 24 } };
  }
  function pageOf(lines: OcrLine[]): OcrPage {
    const bbox = { x0: 0, y0: 0, x1: 1700, y1: 2200 };
    return {
      pageNumber: 1, width: 612, height: 792, rotation: 0, scale: 200 / 72, skew: 0, confidence: 0.9,
      blocks: [{ bbox, confidence: 0.9, paragraphs: lines.map((l) => ({ lines: [l], bbox: l.bbox, confidence: 0.9 })) }],
    };
  }

  it('leaves out "|" words stacked in a column, and keeps a "|" written in the text', () => {
    const rows = ['B', 'C', 'D'].map((name, k) => line([['Point', 200], [name, 270], ['|', 330 + (k % 2)], ['87', 360]], 400 + k * 45));
    const text = line([['Input', 200], ['|', 270], ['Output', 284]], 700);
    const items = toPageInput(pageOf([...rows, text])).items.map((i) => i.text);
    expect(items.filter((t) => t.includes('|'))).toEqual(['Input | Output']);
    // The stroke parts the words either side of it, as a rule does.
    expect(items).toContain('Point B');
    expect(items.filter((t) => t === '87')).toHaveLength(3);
  });

  it('keeps "|" words of two lines that do not stand one over the other', () => {
    const a = line([['left', 200], ['|', 260], ['right', 274]], 400);
    const b = line([['up', 200], ['|', 234], ['down', 248]], 445);
    const items = toPageInput(pageOf([a, b])).items.map((i) => i.text);
    expect(items).toEqual(['left | right', 'up | down']);
  });
});
