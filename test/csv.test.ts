import { readFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CSV_COLUMNS, MAX_CSV_ROWS, parseCsv, sniffDelimiter } from '../src/csv/reader.js';
import { createParser } from '../src/parser.js';
import { REPO_ROOT } from '../test-support/corpus.js';

const parser = createParser();
afterAll(() => parser.close());

const fixture = (name: string): Buffer => readFileSync(path.join(REPO_ROOT, 'fixtures', 'csv', name));
const convert = async (data: string | Uint8Array): Promise<string> =>
  (await parser.parseFile(typeof data === 'string' ? Buffer.from(data) : data, undefined, { filename: 'data.csv' })).markdown ?? '';

describe('CSV: delimiters', () => {
  it('sniffs comma, semicolon, tab and pipe', () => {
    expect(sniffDelimiter('a,b\n1,2\n')).toBe(',');
    expect(sniffDelimiter('a;b;c\n1,5;2;3\n')).toBe(';');
    expect(sniffDelimiter('a\tb\n1\t2\n')).toBe('\t');
    expect(sniffDelimiter('a|b\n1|2\n\n')).toBe('|');
  });

  it('prefers the delimiter that splits rows consistently over one that merely occurs', () => {
    // Commas inside values, semicolons between them (corpus: semicolon-delimited.csv has this shape).
    expect(sniffDelimiter('Lorem, ipsum; dolor; amet\nconsectetur; adipiscing; elit\nsed, do; eiusmod; tempor\n')).toBe(';');
  });

  it('converts a pipe-delimited file to a table of its fields', async () => {
    expect(await convert(fixture('pipes.csv'))).toBe('| key | value |\n| --- | --- |\n| alpha | 1 |\n| beta | 2 |\n');
  });
});

describe('CSV: content', () => {
  it('keeps quoted commas, quotes and newlines; escapes pipes and markdown-like text', async () => {
    expect(await convert(fixture('quoted.csv'))).toBe([
      '| id | name | notes |',
      '| --- | --- | --- |',
      '| 1 | Smith, Jane | Said "hello" |',
      '| 2 | Lee | first line<br>second line |',
      '| 3 | Pipe \\| inside | \\*\\*not bold\\*\\* and \\_not italic\\_ |',
      '',
    ].join('\n'));
  });

  it('pads ragged rows and trims empty trailing rows and columns', () => {
    const t = parseCsv(fixture('ragged.csv'));
    expect(t.rows).toEqual([['a', 'b', 'c'], ['1', '2', ''], ['3', '4', '5'], ['6', '', '']]);
  });

  it('warns about a quoted field that is never closed', async () => {
    const doc = await parser.parseFile(Buffer.from('a,b\n1,"open\n2,3\n'), undefined, { filename: 'q.csv' });
    expect(doc.markdown).toBe('| a | b |\n| --- | --- |\n| 1 | open<br>2,3 |\n');
    expect(doc.warning).toContain('never closed (record 2)');
  });

  it('gives an empty document for an empty table, without failing', async () => {
    expect(await convert(',,\n,,\n')).toBe('');
  });

  it('caps very wide files with a warning', async () => {
    const header = Array.from({ length: MAX_CSV_COLUMNS + 50 }, (_, i) => `c${i}`).join(',');
    const doc = await parser.parseFile(Buffer.from(`${header}\n${header}\n`), undefined, { filename: 'wide.csv' });
    const first = doc.markdown!.split('\n', 1)[0]!;
    expect(first.split(' | ').length).toBe(MAX_CSV_COLUMNS);
    expect(doc.warning).toContain(`${MAX_CSV_COLUMNS} columns`);
  });

  it('caps very long files with a warning', async () => {
    const lines = ['n,square'];
    for (let i = 0; i < MAX_CSV_ROWS + 10; i++) lines.push(`${i},${i * i}`);
    const doc = await parser.parseFile(Buffer.from(lines.join('\n')), undefined, { filename: 'big.csv' });
    const rows = doc.markdown!.trimEnd().split('\n');
    expect(rows.length).toBe(MAX_CSV_ROWS + 2);
    expect(rows[rows.length - 1]).toBe(`| ${MAX_CSV_ROWS - 1} | ${(MAX_CSV_ROWS - 1) ** 2} |`);
    expect(doc.warning).toContain(`${MAX_CSV_ROWS}`);
  });
});

describe('CSV: encodings', () => {
  it('reads a UTF-8 BOM without leaking it into the first cell', async () => {
    expect(await convert(fixture('utf8-bom.csv'))).toBe('| naïve | café |\n| --- | --- |\n| yes | no |\n');
  });

  it('reads UTF-16 with a BOM', async () => {
    expect(await convert(fixture('utf16le-bom.csv'))).toContain('| Maple Leafs | 13 |');
  });

  it('reads UTF-16 without a BOM', async () => {
    expect(await convert(iconv.encode('x,y\nvalue,\u00e9t\u00e9\n', 'utf-16le'))).toBe('| x | y |\n| --- | --- |\n| value | \u00e9t\u00e9 |\n');
  });

  it('sniffs windows-1252 and Shift-JIS', async () => {
    expect(await convert(fixture('cp1252.csv'))).toContain('| Crème brûlée | 5 € |');
    expect(await convert(fixture('shift-jis.csv'))).toContain('| 東京 | 1400万 |');
  });
});
