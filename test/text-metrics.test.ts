/**
 * The measures bench/ocr-quality.ts scores OCR with (test-support/text-metrics.ts).
 */
import { describe, expect, it } from 'vitest';
import { bagSimilarity, cer, plainFromMarkdown, wer } from '../test-support/text-metrics.js';

describe('text metrics', () => {
  it('counts character and word edits over the truth, folding layout and typography alike', () => {
    expect(cer('the serews', 'the screws')).toBeCloseTo(1 / 10);
    expect(wer('the serews and foree', 'the screws and force')).toBeCloseTo(2 / 4);
    expect(cer('“quoted” —  fine', '"quoted" - fine')).toBe(0);
    expect(cer('a hyphen-\nated word', 'a hyphenated word')).toBe(0);
    expect(cer('• first\n• second', 'first second')).toBe(0);
    expect(cer('', '')).toBe(0);
    expect(cer('something', '')).toBe(1);
  });

  it('scores a table read column by column by its words, not their order', () => {
    const rows = 'Name Qty\nBolt 4\nNut 9';
    const columns = 'Name Bolt Nut\nQty 4 9';
    expect(cer(columns, rows)).toBeGreaterThan(0.3);
    expect(bagSimilarity(columns, rows)).toBe(1);
    expect(bagSimilarity('Name Bolt', rows)).toBeCloseTo((2 * 2) / (2 + 6));
  });

  it('takes markdown back to the text it shows', () => {
    const md = [
      '# Title',
      '',
      'Some **bold** and *italic* text with a [link](https://example.com) and 3\\*4.',
      '',
      '- item one',
      '1. first',
      '',
      '| Name | Qty |',
      '| --- | ---: |',
      '| Bolt<br>M4 | 4 |',
    ].join('\n');
    expect(plainFromMarkdown(md).replace(/\s+/g, ' ').trim()).toBe(
      'Title Some bold and italic text with a link and 3*4. item one 1. first Name Qty Bolt M4 4',
    );
  });
});
