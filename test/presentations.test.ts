/**
 * Presentations: the project's fixtures (fixtures/presentations, see its README) for the conventions,
 * the shared corpus for real files, and forged packages for damage and safety limits.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { serialize } from '../src/markdown/serialize.js';
import { slidePage } from '../src/office/presentations/common.js';
import { formatNumber } from '../src/office/presentations/pptx.js';
import { read } from '../src/office/presentations/reader.js';
import { createParser } from '../src/parser.js';
import { CORPUS_SKIP_MESSAGE, corpusAvailable, corpusFiles, readCorpus, REPO_ROOT } from '../test-support/corpus.js';
import { errorCodeOf, readerContext } from '../test-support/errors.js';

const parser = createParser();
afterAll(() => parser.close());

const fixture = (name: string): Buffer => readFileSync(path.join(REPO_ROOT, 'fixtures', 'presentations', name));

function order(md: string, ...parts: string[]): number[] {
  return parts.map((p) => {
    const i = md.indexOf(p);
    expect(i, `"${p}" missing`).toBeGreaterThanOrEqual(0);
    return i;
  });
}

const ascending = (xs: number[]): boolean => xs.every((x, i) => i === 0 || x > xs[i - 1]!);

describe('pptx: conventions on the project fixture', () => {
  it('makes one page per slide, numbered by slide, with the slide size in points', async () => {
    const doc = await read(readerContext(fixture('sample.pptx'), 'pptx'));
    expect(doc.pages.map((p) => [p.pageNumber, p.width, p.height])).toEqual([
      [1, 720, 540],
      [2, 720, 540],
      [3, 720, 540],
      [4, 720, 540],
    ]);
    const pages = serialize(doc, { onlyMainContent: true }).pages;
    expect(pages.map((p) => p.markdown.split('\n')[0])).toEqual([
      '## Quarterly Review',
      '## Agenda',
      '## Results',
      '## Revenue chart',
    ]);
  });

  it('puts the title first even when it comes last in the shape tree, and resolves bullets through layout and master', async () => {
    const md = serialize(await read(readerContext(fixture('sample.pptx'), 'pptx')), { onlyMainContent: true }).markdown;
    expect(md.startsWith('## Quarterly Review\n\nPrepared for the board, *March 2024*\n')).toBe(true);
    expect(md).toContain(
      '- Results by region\n  - North: **record quarter**\n    - Zürich office opened 🚀\n  - South: flat\n- Next steps\n\n1. Hire two engineers\n2. Open the Tokyo office',
    );
  });

  it('reads side-by-side frames left to right and places grouped shapes through nested group transforms', async () => {
    const md = serialize(await read(readerContext(fixture('sample.pptx'), 'pptx')), { onlyMainContent: true }).markdown;
    expect(ascending(order(md, 'Left column text', 'Right column text'))).toBe(true);
    expect(ascending(order(md, 'Group top', 'Group bottom left', 'Group bottom right'))).toBe(true);
    expect(md).toContain('[the report](https://example.com/report)');
  });

  it('writes tables with merges, charts as title plus data, pictures by alt text, and notes after the slide', async () => {
    const doc = await read(readerContext(fixture('sample.pptx'), 'pptx'));
    const pages = serialize(doc, { onlyMainContent: true }).pages;
    expect(pages[1]!.markdown).toMatch(
      /Right column text, 5 m<sup>2<\/sup> of H<sub>2<\/sub>O\n\n### Notes\n\nThank the regional teams\.\n\nKeep this under ten minutes\.$/,
    );
    expect(pages[1]!.markdown).not.toContain('sldNum');
    expect(pages[2]!.markdown).toContain(
      '| Region | Revenue |  |\n| --- | --- | --- |\n| North | Q1 | 1.2 M |\n|  | Q2 | 1.5 M |',
    );
    expect(pages[2]!.markdown).toContain('![Bar chart of revenue by region](Picture5.jpg)');
    expect(pages[3]!.markdown).toContain(
      '**Revenue by quarter**\n\n|  | North | South |\n| --- | --- | --- |\n| Q1 | 1.2 | 0.9 |',
    );
    const table = doc.pages[2]!.blocks.find((b) => b.node.kind === 'table')!;
    expect(table.bbox).toEqual([0.05, 0.2, 0.55, 0.4667]);
  });

  it('reads slide shows (.ppsx) and templates (.potx) like presentations', async () => {
    const base = (await parser.parseFile(fixture('sample.pptx'), {}, { filename: 'sample.pptx' })).markdown;
    for (const [variant, name] of [
      ['slideshow', 'sample.ppsx'],
      ['template', 'sample.potx'],
    ] as const) {
      const f = unzipSync(fixture('sample.pptx'));
      f['[Content_Types].xml'] = strToU8(
        new TextDecoder()
          .decode(f['[Content_Types].xml'])
          .replace('presentationml.presentation.main+xml', `presentationml.${variant}.main+xml`),
      );
      const doc = await parser.parseFile(zipSync(f), {}, { filename: name });
      expect(doc.markdown, name).toBe(base);
    }
  });

  it('shows cached chart values with their number format, without floating point noise', () => {
    expect(formatNumber('4.4000000000000004', 'General')).toBe('4.4');
    expect(formatNumber('1234.5', '#,##0.00')).toBe('1,234.50');
    expect(formatNumber('0.256', '0.0%')).toBe('25.6%');
    expect(formatNumber('-1234567.891', '#,##0')).toBe('-1,234,568');
    expect(formatNumber('n/a', '0.00')).toBe('n/a');
  });

  it('starts a numbered list where buAutoNum says', async () => {
    const f = unzipSync(fixture('sample.pptx'));
    f['ppt/slides/slide2.xml'] = strToU8(
      new TextDecoder()
        .decode(f['ppt/slides/slide2.xml'])
        .replaceAll('<a:buAutoNum type="arabicPeriod"/>', '<a:buAutoNum type="arabicPeriod" startAt="3"/>'),
    );
    const md = serialize(await read(readerContext(zipSync(f), 'pptx')), { onlyMainContent: true }).markdown;
    expect(md).toContain('\n\n3. Hire two engineers\n4. Open the Tokyo office\n');
  });

  it('reads .pptm like .pptx', async () => {
    const a = serialize(await read(readerContext(fixture('sample.pptx'), 'pptx')), { onlyMainContent: true }).markdown;
    const b = serialize(await read(readerContext(fixture('sample.pptm'), 'pptm')), { onlyMainContent: true }).markdown;
    expect(b).toBe(a);
  });
});

describe('slides without a title', () => {
  it('start after a rule, so their text does not read as the notes of the slide before', () => {
    const para = (t: string) => ({ kind: 'paragraph' as const, content: [{ type: 'text' as const, text: t }] });
    const size = { width: 960, height: 540 };
    const pages = [
      slidePage(
        1,
        [{ box: { x: 0, y: 0, w: 900, h: 80 }, title: true, nodes: [para('Plan')], seq: 0 }],
        [para('Speaker note.')],
        size,
      ),
      slidePage(
        2,
        [{ box: { x: 0, y: 100, w: 900, h: 300 }, nodes: [para('A picture slide caption.')], seq: 0 }],
        [],
        size,
      ),
      slidePage(3, [{ box: { x: 0, y: 0, w: 900, h: 80 }, title: true, nodes: [para('Next')], seq: 0 }], [], size),
    ];
    const md = serialize(
      {
        contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        pages,
        metadata: {},
        warnings: [],
      },
      { onlyMainContent: true },
    ).markdown;
    expect(md).toBe('## Plan\n\n### Notes\n\nSpeaker note.\n\n---\n\nA picture slide caption.\n\n## Next\n');
  });
});

describe('odp and ppt: the same deck saved by LibreOffice', () => {
  it('odp keeps titles, lists, notes, tables, the chart and alt text', async () => {
    const md = serialize(await read(readerContext(fixture('sample.odp'), 'odp')), { onlyMainContent: true }).markdown;
    expect(md).toContain('## Agenda\n\n- Results by region\n  - North: **record quarter**');
    expect(md).toContain('1. Hire two engineers');
    expect(md).toContain('### Notes\n\nThank the regional teams.');
    expect(md).toContain('| North | Q1 | 1.2 M |');
    expect(md).toContain('**Revenue by quarter**');
    expect(md).toContain('![Bar chart of revenue by region]');
    expect(ascending(order(md, 'Group top', 'Group bottom left', 'Group bottom right'))).toBe(true);
  });

  it('odp shows chart values that the data table writes as office:value alone, with no paragraph', async () => {
    const files = unzipSync(fixture('sample.odp'));
    const part = Object.keys(files).find(
      (name) =>
        /^Object[^/]*\/content\.xml$/.test(name) && new TextDecoder().decode(files[name]).includes('local-table'),
    )!;
    const chart = new TextDecoder().decode(files[part]);
    // As LibreOffice writes most charts: the number cells keep only their value attribute.
    const stripped = chart.replace(
      /(<table:table-cell [^>]*office:value-type="float"[^>]*)><text:p>[^<]*<\/text:p><\/table:table-cell>/g,
      '$1/>',
    );
    expect(stripped).not.toBe(chart);
    files[part] = strToU8(stripped);
    const md = serialize(await read(readerContext(zipSync(files), 'odp')), { onlyMainContent: true }).markdown;
    expect(md).toContain(
      '**Revenue by quarter**\n\n|  | North | South |\n| --- | --- | --- |\n| Q1 | 1.2 | 0.9 |\n| Q2 | 1.5 | 0.8 |',
    );
  });

  it('ppt gives slides in order with titles, nested and numbered lists, emphasis, links, text boxes, tables and notes', async () => {
    const doc = await read(readerContext(fixture('sample.ppt'), 'ppt'));
    const pages = serialize(doc, { onlyMainContent: true }).pages;
    expect(pages.map((p) => p.markdown.split('\n')[0])).toEqual([
      '## Quarterly Review',
      '## Agenda',
      '## Results',
      '## Revenue chart',
    ]);
    expect(pages[0]!.markdown).toContain('Prepared for the board, *March 2024*');
    expect(pages[1]!.markdown).toContain(
      '- Results by region\n  - North: **record quarter**\n    - Zürich office opened 🚀',
    );
    expect(pages[1]!.markdown).toContain('- Next steps\n\n1. Hire two engineers\n2. Open the Tokyo office');
    // The table is a group of cell shapes flagged as a table; merges come back from the cell extents.
    expect(pages[2]!.markdown).toContain(
      '| Region | Revenue |  |\n| --- | --- | --- |\n| North | Q1 | 1.2 M |\n|  | Q2 | 1.5 M |',
    );
    // Hyperlinks (InteractiveInfo + TxInteractiveInfoAtom) and raised or lowered runs (CF position).
    expect(pages[1]!.markdown).toContain(
      'Left column text, see [the report](https://example.com/report)\n\nRight column text, 5 m<sup>2</sup> of H<sub>2</sub>O\n\n### Notes\n\nThank the regional teams.',
    );
    expect(ascending(order(pages[2]!.markdown, 'Group top', 'Group bottom left', 'Group bottom right'))).toBe(true);
  });
});

describe('presentations: damage and safety', () => {
  const files = (): Record<string, Uint8Array> => unzipSync(fixture('sample.pptx'));

  it('returns the readable slides when one slide is broken, and MALFORMED when none is', async () => {
    const f = files();
    f['ppt/slides/slide2.xml'] = strToU8('<p:sld><p:cSld><p:spTree><p:sp');
    const doc = await read(readerContext(zipSync(f), 'pptx'));
    expect(doc.pages.map((p) => p.status)).toEqual(['ok', 'failed', 'ok', 'ok']);
    expect(doc.pages[1]!.error).toMatch(/not well-formed/);
    for (const n of [1, 2, 3, 4]) f[`ppt/slides/slide${n}.xml`] = strToU8('<p:sld');
    expect(await errorCodeOf(read(readerContext(zipSync(f), 'pptx')))).toBe('MALFORMED');
  });

  it('refuses entity declarations and absurd nesting with RESOURCE_LIMIT', async () => {
    const f = files();
    const slide = new TextDecoder().decode(f['ppt/slides/slide1.xml']);
    f['ppt/slides/slide1.xml'] = strToU8(
      slide.replace('<p:sld ', '<!DOCTYPE p:sld [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><p:sld '),
    );
    expect(await errorCodeOf(read(readerContext(zipSync(f), 'pptx')))).toBe('RESOURCE_LIMIT');
    const g = files();
    g['ppt/slides/slide1.xml'] = strToU8(`<p:sld>${'<p:grpSp>'.repeat(5000)}`);
    expect(await errorCodeOf(read(readerContext(zipSync(g), 'pptx')))).toBe('RESOURCE_LIMIT');
  });

  it('refuses an ODP whose content.xml declares entities', async () => {
    const f = unzipSync(fixture('sample.odp'));
    const content = new TextDecoder().decode(f['content.xml']);
    f['content.xml'] = strToU8(
      content.replace('<office:document-content', '<!DOCTYPE x [<!ENTITY a "a">]><office:document-content'),
    );
    expect(await errorCodeOf(read(readerContext(zipSync(f), 'odp')))).toBe('RESOURCE_LIMIT');
  });

  it('reports a .ppt without a document record as MALFORMED', async () => {
    const bytes = new Uint8Array(fixture('sample.ppt'));
    // Keep the compound file intact but wipe the PowerPoint records (and so every DocumentContainer).
    const doc = await read(readerContext(bytes, 'ppt'));
    expect(doc.pages.length).toBe(4);
    const CFB = (await import('cfb')).default;
    const cfb = CFB.read(Buffer.from(bytes), { type: 'buffer' });
    const entry = CFB.find(cfb, 'PowerPoint Document')!;
    entry.content = Buffer.alloc((entry.content as Buffer).length);
    const broken = CFB.write(cfb, { type: 'buffer' }) as Buffer;
    expect(await errorCodeOf(read(readerContext(new Uint8Array(broken), 'ppt')))).toBe('MALFORMED');
  });
});

describe.skipIf(!corpusAvailable)('presentations: corpus', () => {
  if (!corpusAvailable) it.skip(CORPUS_SKIP_MESSAGE, () => {});

  it('passes the markitdown vectors for test.pptx', async () => {
    const vectors = JSON.parse(readCorpus('markitdown', 'vectors.json').toString('utf8')) as {
      file: string;
      mustInclude: string[];
      mustNotInclude: string[];
    }[];
    const v = vectors.find((x) => x.file === 'test.pptx')!;
    const doc = await parser.parseFile(readCorpus('markitdown', 'test.pptx'), {}, { filename: 'test.pptx' });
    for (const s of v.mustInclude) expect(doc.markdown, `must include ${s}`).toContain(s);
    for (const s of v.mustNotInclude) expect(doc.markdown, `must not include ${s}`).not.toContain(s);
  });

  it('converts every presentation of the corpus', async () => {
    const exts = ['.pptx', '.pptm', '.ppt', '.odp'];
    const files = ['unstructured', 'officeparser', 'markitdown'].flatMap((dir) =>
      corpusFiles(dir, exts).map((f) => [dir, f] as const),
    );
    expect(files.length).toBeGreaterThanOrEqual(9);
    for (const [dir, file] of files) {
      const doc = await parser.parseFile(readCorpus(dir, file), {}, { filename: file });
      expect((doc.markdown ?? '').trim().length, file).toBeGreaterThan(0);
    }
  });

  it('shows the chart data of test.odp as test.pptx does', async () => {
    const table = (md: string): string => /\| Category 1 [^\n]*\n(?:\| Category [^\n]*\n)*/.exec(md)?.[0] ?? '';
    const odp = await parser.parseFile(readCorpus('officeparser', 'test.odp'), {}, { filename: 'test.odp' });
    const pptx = await parser.parseFile(readCorpus('officeparser', 'test.pptx'), {}, { filename: 'test.pptx' });
    expect(table(odp.markdown ?? '')).toContain('| Category 1 | 4.3 | 2.4 | 2 |\n| Category 2 | 2.5 | 4.4 | 2 |');
    expect(table(odp.markdown ?? '')).toBe(table(pptx.markdown ?? ''));
  });

  it('reads the damaged deck of the corpus, and legacy .ppt text with its bullet levels', async () => {
    const malformed = await parser.parseFile(
      readCorpus('unstructured', 'fake-power-point-malformed.pptx'),
      {},
      { filename: 'x.pptx' },
    );
    expect(malformed.markdown).toContain('## Test Slide');
    const ppt = await parser.parseFile(
      readCorpus('unstructured', 'fake-power-point.ppt'),
      {},
      { filename: 'fake-power-point.ppt' },
    );
    expect(ppt.markdown).toBe(
      '## Adding a Bullet Slide\n\n- Find the bullet slide layout\n  - Use _TextFrame.text for first bullet\n    - Use _TextFrame.add_paragraph() for subsequent bullets\n\nHere is a lot of text!\n\nHere is some text in a text box!\n',
    );
  });
});
