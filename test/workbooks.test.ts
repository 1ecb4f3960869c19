/**
 * Spreadsheets: the project's own fixtures (fixtures/workbooks, see its README) for the conventions,
 * the shared corpus for real files, and forged packages for the safety limits.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import CFB from 'cfb';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import type { DocModel, TableNode } from '../src/model/document.js';
import { serialize } from '../src/markdown/serialize.js';
import { sheetBlocks, read, WORKBOOK_WORKER_MIN_BYTES } from '../src/office/workbooks/reader.js';
import { createParser } from '../src/parser.js';
import { CORPUS_SKIP_MESSAGE, corpusAvailable, corpusFiles, readCorpus, REPO_ROOT } from '../test-support/corpus.js';
import { errorCodeOf, readerContext } from '../test-support/errors.js';

const parser = createParser();
afterAll(() => parser.close());

const fixture = (name: string): Buffer => readFileSync(path.join(REPO_ROOT, 'fixtures', 'workbooks', name));

function tables(doc: DocModel): TableNode[] {
  return doc.pages.flatMap((p) => p.blocks.map((b) => b.node)).filter((n): n is TableNode => n.kind === 'table');
}

describe('workbooks: conventions on the project fixtures', () => {
  it('gives one page per visible sheet, each a heading and a table, and leaves hidden sheets out with a warning', async () => {
    const doc = await read(readerContext(fixture('sample.xlsx'), 'xlsx'));
    const md = serialize(doc, { onlyMainContent: true });
    expect(md.pages.map((p) => p.markdown.split('\n')[0])).toEqual(['## Sales', '## Details', '## Empty']);
    expect(md.markdown).not.toContain('do not publish');
    expect(doc.warnings.join('\n')).toMatch(/Hidden sheets left out: "Lookup"/);
    expect(doc.metadata.title).toBe('Sales workbook');
  });

  it('keeps merges as spans, trims empty edges and leaves out empty rows and columns', async () => {
    const doc = await read(readerContext(fixture('sample.xlsx'), 'xlsx'));
    const sales = tables(doc)[0]!;
    // The data starts at B2 with an empty column F and an empty row 6 inside.
    expect(sales.rows).toHaveLength(5);
    expect(sales.rows[0]![0]).toMatchObject({ colSpan: 6 });
    const north = sales.rows[2]![0]!;
    expect(north).toMatchObject({ rowSpan: 2, content: [{ type: 'text', text: 'North' }] });
    // The row under the vertical merge has one cell fewer: the merge covers its first slot.
    expect(sales.rows[3]).toHaveLength(5);
  });

  it('shows numbers and dates as formatted and formulas by their cached values', async () => {
    const md = serialize(await read(readerContext(fixture('sample.xlsx'), 'xlsx')), { onlyMainContent: true }).markdown;
    expect(md).toContain('| North | Zürich 🚀 | 1,234.50 | 2,000.00 | 3,234.50 | 25.60% |');
    expect(md).toContain('| Pens \\| blue | 2024-01-01 | TRUE | 12 |');
    expect(md).toContain('15 March 2024');
    expect(md).toContain('Line one<br>Line two');
  });

  it('shows the built-in short date formats as current Excel does (four-digit year)', async () => {
    const files = unzipSync(fixture('sample.xlsx'));
    const styles = new TextDecoder().decode(files['xl/styles.xml']);
    files['xl/styles.xml'] = strToU8(
      styles.replace('<xf numFmtId="164"', '<xf numFmtId="14"').replace('<xf numFmtId="165"', '<xf numFmtId="22"'),
    );
    const md = serialize(await read(readerContext(zipSync(files), 'xlsx')), { onlyMainContent: true }).markdown;
    expect(md).toContain('| Pens \\| blue | 1/1/2024 | TRUE | 12 |');
    expect(md).toContain('| 3/15/2024 0:00 |');
  });

  it('reads the same workbook saved as .xlsm, .xlsb, .xls and .ods to the same tables', async () => {
    const base = serialize(await read(readerContext(fixture('sample.xlsx'), 'xlsx')), {
      onlyMainContent: true,
    }).markdown;
    for (const [file, kind] of [
      ['sample.xlsm', 'xlsm'],
      ['sample.xlsb', 'xlsb'],
      ['sample.xls', 'xls'],
      ['sample.ods', 'ods'],
    ] as const) {
      const md = serialize(await read(readerContext(fixture(file), kind)), { onlyMainContent: true }).markdown;
      // LibreOffice writes General-format fractions with more digits; everything else is identical.
      expect(md.replace(/0\.333333333\d*/, '0.333'), file).toBe(base.replace(/0\.333333333\d*/, '0.333'));
    }
  });

  it('caps the cells of huge sheets and says so', () => {
    const ws = {
      '!data': Array.from({ length: 50 }, (_, r) =>
        Array.from({ length: 4 }, (_, c) => ({ t: 'n', v: r * 4 + c, w: String(r * 4 + c) })),
      ),
    };
    const result = sheetBlocks('Big', ws as never, 40);
    expect(result.truncated).toBe(true);
    const table = result.blocks[1]!.node as TableNode;
    expect(table.rows).toHaveLength(10);
    expect(result.cells).toBeLessThanOrEqual(40);
  });
});

describe('workbooks: several tables on one sheet', () => {
  /** The tables of each sheet as their rows of cell texts. */
  function sheetTables(doc: DocModel): Record<string, string[][][]> {
    const out: Record<string, string[][][]> = {};
    for (const page of doc.pages) {
      const name = (page.blocks[0]!.node as { content: { text: string }[] }).content[0]!.text;
      out[name] = page.blocks
        .map((b) => b.node)
        .filter((n): n is TableNode => n.kind === 'table')
        .map((t) => t.rows.map((r) => r.map((c) => c.content.map((i) => (i.type === 'text' ? i.text : '')).join(''))));
    }
    return out;
  }

  for (const [file, kind] of [
    ['tables.xlsx', 'xlsx'],
    ['tables.ods', 'ods'],
    ['tables.xls', 'xls'],
  ] as const) {
    it(`writes each table of a sheet on its own, in reading order (${kind})`, async () => {
      const doc = await read(readerContext(fixture(file), kind));
      const t = sheetTables(doc);
      // Side by side, parted by an empty column: the left table first, each with its own head.
      expect(t['Side by side']!.map((x) => x[0])).toEqual([
        ['Product', 'Units', 'Price'],
        ['Store', 'City'],
      ]);
      expect(t['Side by side']!.map((x) => x.length)).toEqual([6, 3]);
      // Stacked: the title and the note are not tables.
      expect(t['Stacked']!.map((x) => x[0])).toEqual([
        ['Region', 'Orders', 'Revenue'],
        ['Courier', 'Parcels'],
      ]);
      // Three: top band left to right, then the table below.
      expect(t['Three']!.map((x) => x[0])).toEqual([
        ['Month', 'Visits'],
        ['Browser', 'Share'],
        ['Page', 'Views'],
      ]);
      // A spacer row under the head and a spacer column stay inside one table; a repeated head starts
      // the next one.
      expect(t['Spacers']!.map((x) => x.length)).toEqual([5, 3]);
      expect(t['Spacers']![0]![1]).toEqual(['2023', 'North', '10', 'ok']);
      expect(t['Spacers']![1]![0]).toEqual(['Year', 'Region', 'Sales', 'Note']);
    });
  }

  it('makes a title cell above a table a heading and a lone note a paragraph', async () => {
    const doc = await read(readerContext(fixture('tables.xlsx'), 'xlsx'));
    const stacked = doc.pages.find((p) => JSON.stringify(p.blocks[0]!.node).includes('"Stacked"'))!;
    expect(stacked.blocks.map((b) => b.node.kind)).toEqual(['heading', 'heading', 'table', 'table', 'paragraph']);
    expect(stacked.blocks[1]!.node).toMatchObject({ level: 3, content: [{ text: 'Regional totals' }] });
    expect(stacked.blocks[4]!.node).toMatchObject({ content: [{ text: 'Source: regional offices, unaudited.' }] });
  });

  it('gives each table its own block whose markdownSpan points at it', async () => {
    const out = serialize(await read(readerContext(fixture('tables.xlsx'), 'xlsx')), { onlyMainContent: true });
    const items = out.layout.flatMap((p) => p.items);
    const tableItems = items.filter((i) => i.content.startsWith('| '));
    expect(tableItems).toHaveLength(9);
    for (const item of items) {
      expect(item.markdownSpan, item.id).not.toBeNull();
      const [a, b] = item.markdownSpan!;
      expect(out.markdown.slice(a, b), item.id).toBe(item.content);
    }
    expect(tableItems.map((i) => i.content.split('\n')[0])).toContain('| Store | City |');
  });

  it('does not cut a table along an empty column that a merged cell spans', () => {
    const cell = (v: string): unknown => ({ t: 's', v, w: v });
    // A1:D1 merged title; the table under it has an empty column C and rows of other lengths.
    const ws = {
      '!data': [
        [cell('Title')],
        [cell('a'), cell('b'), undefined, cell('d')],
        [cell('1'), cell('2')],
        [cell('3'), cell('4')],
      ],
      '!merges': [{ s: { r: 0, c: 0 }, e: { r: 0, c: 3 } }],
    };
    const tablesOf = (sheet: unknown): TableNode[] =>
      sheetBlocks('S', sheet as never, 1000)
        .blocks.map((b) => b.node)
        .filter((n): n is TableNode => n.kind === 'table');
    expect(tablesOf(ws)).toHaveLength(1);
    expect(tablesOf(ws)[0]!.rows[0]).toEqual([{ content: [{ type: 'text', text: 'Title' }], colSpan: 3 }]);
    // Without the merge, the lone cell of column D is cut off, as a paragraph.
    const unmerged = sheetBlocks('S', { '!data': ws['!data'] } as never, 1000).blocks.map((b) => b.node);
    expect(unmerged.map((n) => n.kind)).toEqual(['heading', 'table', 'paragraph']);
    expect(unmerged[2]).toMatchObject({ content: [{ text: 'd' }] });
  });
});

/** A minimal .xlsx of one sheet: `rows` is the sheetData body, `xfs` the numFmtId of each cell style. */
function miniXlsx(
  rows: string,
  xfs: number[],
  opts: { numFmts?: [number, string][]; date1904?: boolean } = {},
): Uint8Array {
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rel = (id: string, type: string, target: string): string =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  const fmts = opts.numFmts?.length
    ? `<numFmts>${opts.numFmts.map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${code.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"/>`).join('')}</numFmts>`
    : '';
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel('rId1', 'officeDocument', 'xl/workbook.xml')}</Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `<workbook ${ns} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${opts.date1904 ? '<workbookPr date1904="1"/>' : ''}<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel('rId1', 'worksheet', 'worksheets/sheet1.xml')}${rel('rId2', 'styles', 'styles.xml')}</Relationships>`,
    ),
    'xl/styles.xml': strToU8(
      `<styleSheet ${ns}>${fmts}<cellXfs>${xfs.map((f) => `<xf numFmtId="${f}" applyNumberFormat="1"/>`).join('')}</cellXfs></styleSheet>`,
    ),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet ${ns}><sheetData>${rows}</sheetData></worksheet>`),
  });
}

/** Rows of label and value cells: `[label, cell attributes and body]`. */
function labelled(cells: [string, string][]): string {
  return cells
    .map(
      ([label, cell], i) =>
        `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${label}</t></is></c><c r="B${i + 1}"${cell}</c></row>`,
    )
    .join('');
}

/** The label and value of each table row of a one-sheet workbook, as markdown cells. */
async function values(bytes: Uint8Array, kind: 'xlsx' | 'xls' = 'xlsx'): Promise<Record<string, string>> {
  const md = serialize(await read(readerContext(bytes, kind)), { onlyMainContent: true }).markdown;
  const out: Record<string, string> = {};
  for (const line of md.split('\n')) {
    const m = /^\| (.*?) \| (.*) \|$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

describe('workbooks: number formats', () => {
  it('shows the locale-dependent built-in currency and accounting formats (5-8, 41-44) as Excel does', async () => {
    // xf i has numFmtId ids[i]; none of them is spelled out in the file, as openpyxl-style writers leave them.
    const ids = [5, 6, 7, 8, 41, 42, 43, 44];
    const cells: [string, string][] = [];
    for (const [i, id] of ids.entries()) {
      for (const [name, v] of [
        ['pos', '1234.5'],
        ['neg', '-1234.5'],
        ['zero', '0'],
      ])
        cells.push([`f${id} ${name}`, ` s="${i}"><v>${v}</v>`]);
    }
    cells.push(['f44 text', ' s="7" t="inlineStr"><is><t>n/a</t></is>']);
    const v = await values(miniXlsx(labelled(cells), ids));
    expect(v).toMatchObject({
      'f5 pos': '$1,235',
      'f5 neg': '($1,235)',
      'f5 zero': '$0',
      'f6 pos': '$1,235',
      'f6 neg': '($1,235)',
      'f7 pos': '$1,234.50',
      'f7 neg': '($1,234.50)',
      'f7 zero': '$0.00',
      'f8 pos': '$1,234.50',
      'f8 neg': '($1,234.50)',
      // Padding (`_)`) and fill (`* `) show as nothing; the quoted dash of the zero section as itself.
      'f41 pos': '1,235',
      'f41 neg': '(1,235)',
      'f41 zero': '-',
      'f42 pos': '$1,235',
      'f42 neg': '$(1,235)',
      'f42 zero': '$-',
      'f43 pos': '1,234.50',
      'f43 neg': '(1,234.50)',
      'f43 zero': '-',
      'f44 pos': '$1,234.50',
      'f44 neg': '$(1,234.50)',
      'f44 zero': '$-',
      'f44 text': 'n/a',
    });
  });

  it('keeps a format the file spells out for a locale-dependent id', async () => {
    const v = await values(
      miniXlsx(labelled([['eur', ' s="0"><v>-1234.5</v>']]), [44], {
        numFmts: [[44, '#,##0.00 "EUR";-#,##0.00 "EUR"']],
      }),
    );
    expect(v['eur']).toBe('-1,234.50 EUR');
  });

  it('shows date cells (t="d", ISO text) in their number format like serial dates', async () => {
    const rows = labelled([
      ['iso', ' s="1" t="d"><v>2024-01-01T00:00:00</v>'],
      ['short', ' s="2" t="d"><v>2024-01-01</v>'],
      ['datetime', ' s="3" t="d"><v>2024-03-05T18:30:00Z</v>'],
      ['time', ' s="4" t="d"><v>10:30:00</v>'],
      ['leap-bug era', ' s="1" t="d"><v>1900-02-01</v>'],
      ['general', ' s="0" t="d"><v>2024-01-01T00:00:00</v>'],
      ['general time', ' s="0" t="d"><v>2024-03-05T18:30:00</v>'],
      ['serial', ' s="1"><v>45292</v>'],
    ]);
    const xfs = [0, 164, 14, 22, 20];
    const numFmts: [number, string][] = [[164, 'yyyy-mm-dd']];
    const expected = {
      iso: '2024-01-01',
      short: '1/1/2024',
      datetime: '3/5/2024 18:30',
      time: '10:30',
      'leap-bug era': '1900-02-01',
      // No date format: the ISO text, without a midnight time.
      general: '2024-01-01',
      'general time': '2024-03-05 18:30:00',
      serial: '2024-01-01',
    };
    expect(await values(miniXlsx(rows, xfs, { numFmts }))).toMatchObject(expected);
    // The 1904 date system shows the same dates (the serial cell aside, which means another day there).
    const in1904 = await values(miniXlsx(rows, xfs, { numFmts, date1904: true }));
    expect(in1904).toMatchObject({ ...expected, serial: '2028-01-02' });
  });

  it('writes out General integers of up to 15 digits (IDs, barcodes) and keeps the General rules otherwise', async () => {
    const cases: [string, string, string][] = [
      ['id12', '123456789012', '123456789012'],
      ['id15', '123456789012345', '123456789012345'],
      ['negative', '-4006381333931', '-4006381333931'],
      ['exponent in the file', '1.23456789012E+11', '123456789012'],
      ['id16', '1234567890123456', '1.23457E+15'],
      ['huge', '1E+20', '1E+20'],
      ['tiny', '1.5E-20', '1.5E-20'],
      ['long fraction', '3.14159265358979', '3.141592654'],
      ['big fraction', '123456789012.5', '1.23457E+11'],
      ['float noise', '0.30000000000000004', '0.3'],
    ];
    const v = await values(miniXlsx(labelled(cases.map(([label, num]) => [label, ` s="0"><v>${num}</v>`])), [0]));
    for (const [label, , shown] of cases) expect(v[label], label).toBe(shown);
  });

  it('writes out long General integers on the SheetJS path too (.xls, .xlsb)', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['id', 4006381333931],
      ['price', 1.5],
      ['huge', 1e20],
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'S');
    for (const bookType of ['xls', 'xlsb'] as const) {
      const bytes = new Uint8Array(XLSX.write(wb, { type: 'buffer', bookType }) as Buffer);
      const md = serialize(await read(readerContext(bytes, bookType)), { onlyMainContent: true }).markdown;
      expect(md, bookType).toContain('| id | 4006381333931 |');
      expect(md, bookType).toContain('| price | 1.5 |');
      expect(md, bookType).toContain('| huge | 1E+20 |');
    }
  });
});

describe('workbooks: rounding and fractions', () => {
  it('rounds negative halves away from zero as Excel does, on the fast path and the SheetJS path', async () => {
    const fmts: [number, string][] = [
      [164, '0.0'],
      [165, '0.0%'],
      [166, '#,##0.00;(#,##0.00)'],
      [167, '0 ?/?'],
      [168, '$#,##0.0'],
    ];
    const cells: [string, string][] = [
      ['neg tenth', ' s="0"><v>-1.45</v>'],
      ['pos tenth', ' s="0"><v>1.45</v>'],
      ['neg pct', ' s="1"><v>-0.0345</v>'],
      ['sections', ' s="2"><v>-1234.5</v>'],
      ['mixed', ' s="3"><v>2.5</v>'],
      ['mixed small', ' s="3"><v>0.75</v>'],
      ['money', ' s="4"><v>-2.25</v>'],
    ];
    const expected = {
      'neg tenth': '-1.5',
      'pos tenth': '1.5',
      'neg pct': '-3.5%',
      sections: '(1,234.50)',
      mixed: '2 1/2',
      'mixed small': '0 3/4',
      money: '-$2.3',
    };
    const bytes = miniXlsx(labelled(cells), [164, 165, 166, 167, 168], { numFmts: fmts });
    expect(await values(bytes)).toMatchObject(expected);
    // Cells in those formats written as .xls and .xlsb by SheetJS, read through SheetJS.
    const ws = XLSX.utils.aoa_to_sheet([
      ['neg tenth', { t: 'n', v: -1.45, z: '0.0' }],
      ['neg pct', { t: 'n', v: -0.0345, z: '0.0%' }],
      ['mixed', { t: 'n', v: 2.5, z: '0 ?/?' }],
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'S');
    for (const bookType of ['xls', 'xlsb'] as const) {
      const book = new Uint8Array(XLSX.write(wb, { type: 'buffer', bookType }) as Buffer);
      const md = serialize(await read(readerContext(book, bookType)), { onlyMainContent: true }).markdown;
      expect(md, bookType).toContain('| neg tenth | -1.5 |');
      expect(md, bookType).toContain('| neg pct | -3.5% |');
    }
  });
});

describe('workbooks: OpenDocument cells without text', () => {
  it('links a cell whose text is one link, as a spreadsheet hyperlink does', async () => {
    const files = unzipSync(fixture('sample.ods'));
    const row = (body: string): string =>
      `<table:table-row><table:table-cell office:value-type="string"><text:p>label</text:p></table:table-cell><table:table-cell office:value-type="string">${body}</table:table-cell></table:table-row>`;
    const rows = [
      '<text:p><text:a xlink:type="simple" xlink:href="https://example.com/x">Example</text:a></text:p>',
      '<text:p>See <text:a xlink:type="simple" xlink:href="https://example.com/y">docs</text:a></text:p>',
      '<text:p><text:a xlink:type="simple" xlink:href="#Sheet2.A1">Inside</text:a></text:p>',
    ]
      .map(row)
      .join('');
    const content = new TextDecoder().decode(files['content.xml']);
    files['content.xml'] = strToU8(
      content.replace(
        /<table:table /,
        `<table:table table:name="Links"><table:table-column table:number-columns-repeated="2"/>${rows}</table:table><table:table `,
      ),
    );
    const md = serialize(await read(readerContext(zipSync(files), 'ods')), { onlyMainContent: true }).markdown;
    expect(md.split('\n## ')[0]).toContain(
      '| label | [Example](https://example.com/x) |\n| --- | --- |\n| label | See docs |\n| label | Inside |',
    );
  });

  it('shows the value of cells written with office:value and no paragraph', async () => {
    const files = unzipSync(fixture('sample.ods'));
    const cell = (attrs: string): string =>
      `<table:table-row><table:table-cell office:value-type="string"><text:p>label</text:p></table:table-cell><table:table-cell ${attrs}/></table:table-row>`;
    const rows = [
      'office:value-type="float" office:value="4.4000000000000004"',
      'office:value-type="float" office:value="123456789012"',
      'office:value-type="percentage" office:value="0.07"',
      'office:value-type="currency" office:currency="EUR" office:value="12.5"',
      'office:value-type="date" office:date-value="2024-01-01T00:00:00"',
      'office:value-type="date" office:date-value="2024-03-05T18:30:00"',
      'office:value-type="time" office:time-value="PT36H05M09S"',
      'office:value-type="boolean" office:boolean-value="true"',
      'office:value-type="string" office:string-value="from the attribute"',
    ]
      .map(cell)
      .join('');
    const content = new TextDecoder().decode(files['content.xml']);
    // A sheet of its own, first, holding the value-only cells.
    files['content.xml'] = strToU8(
      content.replace(
        /<table:table /,
        `<table:table table:name="Values"><table:table-column table:number-columns-repeated="2"/>${rows}</table:table><table:table `,
      ),
    );
    const md = serialize(await read(readerContext(zipSync(files), 'ods')), { onlyMainContent: true }).markdown;
    const values = md
      .split('\n## ')[0]!
      .split('\n')
      .filter((l) => l.startsWith('| label'))
      .map((l) => l.slice('| label | '.length, -2));
    expect(values).toEqual([
      '4.4',
      '123456789012',
      '7%',
      '12.5 EUR',
      '2024-01-01',
      '2024-03-05 18:30:00',
      '36:05:09',
      'TRUE',
      'from the attribute',
    ]);
  });
});

describe('workbooks: large files on the worker pool', () => {
  /** A stored (uncompressed) workbook of one sheet, large enough for the pool. */
  function bigWorkbook(rows: number): Uint8Array {
    const files = unzipSync(fixture('sample.xlsx'));
    const body = Array.from(
      { length: rows },
      (_, r) =>
        `<row r="${r + 1}"><c r="A${r + 1}" t="inlineStr"><is><t>row ${r}</t></is></c><c r="B${r + 1}" s="1"><v>${r * 1.5}</v></c><c r="C${r + 1}"><v>${r}</v></c></row>`,
    ).join('');
    files['xl/worksheets/sheet1.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`,
    );
    return zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, [v, { level: 0 }]])) as never);
  }

  it('converts a large workbook on the pool to the same markdown as inline', async () => {
    const bytes = bigWorkbook(12000);
    expect(bytes.length).toBeGreaterThan(WORKBOOK_WORKER_MIN_BYTES);
    const inline = serialize(await read(readerContext(bytes, 'xlsx')), { onlyMainContent: true }).markdown;
    const pooled = await parser.parseFile(bytes, {}, { filename: 'big.xlsx' });
    expect(pooled.markdown).toBe(inline);
    expect(pooled.markdown).toContain('| row 11999 | 17,998.50 | 11999 |');
  });

  it('stops a large workbook at the timeout', async () => {
    const bytes = bigWorkbook(30000);
    expect(await errorCodeOf(parser.parseFile(bytes, { timeout: 5 }, { filename: 'big.xlsx' }))).toBe('TIMEOUT');
  });
});

describe('workbooks: safety', () => {
  it('survives a damaged sheet with a cell at an absurd column and a merge over the whole grid', () => {
    const row: unknown[] = [
      { t: 's', v: 'a', w: 'a' },
      { t: 's', v: 'b', w: 'b' },
    ];
    row[2_000_000_000] = { t: 's', v: 'far', w: 'far' };
    const ws = {
      '!data': [row, [{ t: 's', v: 'c', w: 'c' }]],
      '!merges': [{ s: { r: 0, c: 0 }, e: { r: 1_048_575, c: 16_383 } }],
    };
    const result = sheetBlocks('Damaged', ws as never, 1000);
    const table = result.blocks[1]!.node as TableNode;
    // The far cell is past Excel's last column and ignored; the merge spans the two written rows and columns.
    expect(table.rows).toEqual([[{ content: [{ type: 'text', text: 'a' }], colSpan: 2, rowSpan: 2 }], []]);
  });

  it('refuses a sheet part that declares XML entities', async () => {
    const files = unzipSync(fixture('sample.xlsx'));
    const sheet = new TextDecoder().decode(files['xl/worksheets/sheet1.xml']);
    files['xl/worksheets/sheet1.xml'] = strToU8(
      sheet.replace(
        '<worksheet',
        '<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><worksheet',
      ),
    );
    expect(await errorCodeOf(read(readerContext(zipSync(files), 'xlsx')))).toBe('RESOURCE_LIMIT');
  });

  it('refuses an .ods whose content.xml declares entities', async () => {
    const files = unzipSync(fixture('sample.ods'));
    const content = new TextDecoder().decode(files['content.xml']);
    files['content.xml'] = strToU8(
      content.replace(
        '<office:document-content',
        '<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><office:document-content',
      ),
    );
    expect(await errorCodeOf(read(readerContext(zipSync(files), 'ods')))).toBe('RESOURCE_LIMIT');
  });

  it('refuses a zip bomb before SheetJS sees it', async () => {
    const files = unzipSync(fixture('sample.xlsx'));
    files['xl/worksheets/sheet9.xml'] = new Uint8Array(40 * 1024 * 1024);
    expect(await errorCodeOf(read(readerContext(zipSync(files), 'xlsx')))).toBe('RESOURCE_LIMIT');
  });

  it('reports a ZIP whose central directory points past the end of the file as MALFORMED', async () => {
    const bytes = new Uint8Array(fixture('sample.xlsx'));
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let last = -1;
    for (let i = 0; i + 4 <= bytes.length; i++) if (view.getUint32(i, true) === 0x02014b50) last = i;
    view.setUint16(last + 30, 0xffff, true); // extra field length of the last entry
    expect(await errorCodeOf(read(readerContext(bytes, 'xlsx')))).toBe('MALFORMED');
  });

  it('reports damaged workbooks as MALFORMED', async () => {
    const bytes = fixture('sample.xlsx');
    expect(await errorCodeOf(read(readerContext(bytes.subarray(0, bytes.length - 200), 'xlsx')))).toBe('MALFORMED');
    const cfb = CFB.utils.cfb_new();
    CFB.utils.cfb_add(cfb, '/Workbook', Buffer.from('not a BIFF stream at all, just text'.repeat(20)));
    const xls = CFB.write(cfb, { type: 'buffer' }) as Buffer;
    expect(await errorCodeOf(read(readerContext(new Uint8Array(xls), 'xls')))).toBe('MALFORMED');
  });
});

describe.skipIf(!corpusAvailable)('workbooks: corpus', () => {
  if (!corpusAvailable) it.skip(CORPUS_SKIP_MESSAGE, () => {});

  it('passes markitdown vectors for test.xlsx and test.xls', async () => {
    const vectors = JSON.parse(readCorpus('markitdown', 'vectors.json').toString('utf8')) as {
      file: string;
      mustInclude: string[];
      mustNotInclude: string[];
    }[];
    for (const file of ['test.xlsx', 'test.xls']) {
      const v = vectors.find((x) => x.file === file)!;
      const doc = await parser.parseFile(readCorpus('markitdown', file), {}, { filename: file });
      for (const s of v.mustInclude) expect(doc.markdown, `${file} must include ${s}`).toContain(s);
      for (const s of v.mustNotInclude) expect(doc.markdown, `${file} must not include ${s}`).not.toContain(s);
    }
  });

  it('converts every spreadsheet of the corpus; the password-protected one is ENCRYPTED', async () => {
    const exts = ['.xlsx', '.xlsm', '.xlsb', '.xls', '.ods'];
    const files = ['unstructured', 'officeparser', 'markitdown'].flatMap((dir) =>
      corpusFiles(dir, exts).map((f) => [dir, f] as const),
    );
    expect(files.length).toBeGreaterThan(8);
    for (const [dir, file] of files) {
      const work = parser.parseFile(readCorpus(dir, file), {}, { filename: file });
      if (file.startsWith('password_protected')) {
        expect(await errorCodeOf(work), file).toBe('ENCRYPTED');
        continue;
      }
      const doc = await work;
      expect(doc.markdown, file).toMatch(/^## .+\n\n\| /);
    }
  });

  it('trims the trailing empty rows of a real workbook and keeps unicode', async () => {
    const emoji = await parser.parseFile(readCorpus('unstructured', 'emoji.xlsx'), {}, { filename: 'emoji.xlsx' });
    expect(emoji.markdown).toBe('## Sheet1\n\n| 🤠😅 |\n| --- |\n');
    const op = await parser.parseFile(readCorpus('officeparser', 'test.xlsx'), {}, { filename: 'test.xlsx' });
    expect(op.markdown).not.toMatch(/\|\s+\|\s+\|\n\|\s+\|\s+\|/);
  });
});
