/**
 * The officeparser corpus holds one document (calibre's DOCX demo) saved in ten formats. The same key
 * content must come out of each: phrases that every one of the ten files carries (checked by
 * looking at the files: the spreadsheets and CSV hold the text and tables but no slide notes, so
 * notes are checked for the two slide formats only). Comparison ignores emphasis markers, escapes and
 * the kind of white space (some files use no-break spaces).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createParser } from '../src/parser.js';
import { CORPUS_SKIP_MESSAGE, corpusAvailable, readCorpus } from '../test-support/corpus.js';

const FORMATS = ['csv', 'docx', 'epub', 'html', 'odp', 'ods', 'odt', 'pdf', 'pptx', 'xlsx'] as const;

const KEY_PHRASES = [
  'Demonstration of DOCX support in calibre',
  'This document demonstrates the ability of the calibre DOCX Input plugin',
  'Fun with fonts',
  'here is some text in the Ubuntu Mono typeface',
  'Highlighter',
  'Cedar University',
  'December 2007',
];

/** Text for comparison: no markdown emphasis or escapes, table pipes and all white space as one space. */
function normalize(markdown: string): string {
  return markdown
    .replace(/<br>/g, ' ')
    .replace(/[*_`\\]/g, '')
    .replace(/\s*\|\s*/g, ' | ')
    .replace(/\s+/gu, ' ');
}

const parser = createParser();
afterAll(() => parser.close());

describe.skipIf(!corpusAvailable)('officeparser: one document in ten formats', () => {
  if (!corpusAvailable) it.skip(CORPUS_SKIP_MESSAGE, () => {});

  for (const format of FORMATS) {
    it(`carries the key content in .${format}`, async () => {
      const doc = await parser.parseFile(
        readCorpus('officeparser', `test.${format}`),
        {},
        { filename: `test.${format}` },
      );
      const text = normalize(doc.markdown ?? '');
      const missing = KEY_PHRASES.filter((p) => !text.includes(normalize(p)));
      expect(missing, `.${format} lacks key phrases`).toEqual([]);
    });
  }

  it('keeps the speaker notes of the slide formats', async () => {
    for (const format of ['pptx', 'odp']) {
      const doc = await parser.parseFile(
        readCorpus('officeparser', `test.${format}`),
        {},
        { filename: `test.${format}` },
      );
      expect(doc.markdown, format).toContain('### Notes\n\nSlide Note 1.');
    }
  });

  it('gives the calendar of the word-processor formats its seven days, without spacer columns or blank rows', async () => {
    for (const format of ['docx', 'odt']) {
      const doc = await parser.parseFile(
        readCorpus('officeparser', `test.${format}`),
        {},
        { filename: `test.${format}` },
      );
      expect(doc.markdown, format).toContain(
        '| Sun | Mon | Tue | Wed | Thu | Fri | Sat |\n|  |  |  |  |  |  | 1 |\n| 2 | 3 | 4 | 5 | 6 | 7 | 8 |',
      );
    }
  });

  it('gives the spreadsheets the same table rows', async () => {
    const rows = async (format: string): Promise<string[]> => {
      const doc = await parser.parseFile(
        readCorpus('officeparser', `test.${format}`),
        {},
        { filename: `test.${format}` },
      );
      return normalize(doc.markdown ?? '').match(/Cedar University \| \d+ \| \d+ \| [+-]\d+/g) ?? [];
    };
    const xlsx = await rows('xlsx');
    expect(xlsx.length).toBeGreaterThan(0);
    expect(await rows('ods')).toEqual(xlsx);
  });
});
