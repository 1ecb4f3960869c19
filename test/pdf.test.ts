/**
 * PDF fast mode end to end: the text pool, the layout engine and the spec's block rules, on the
 * project's generated fixtures and on every PDF of the shared corpus (skipped when it is absent).
 * Needs `npm run build` first: the pool loads its worker from dist/workers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { createParser } from '../src/parser.js';
import { pageRanges } from '../src/pdf/reader.js';
import { extractText } from '../src/pdf/text-pool.js';
import { ParserRuntime } from '../src/runtime/runtime.js';
import { synthetic } from '../test-support/hostile/variants.js';
import type { ParseDocument } from '../src/types.js';
import {
  corpusAvailable,
  corpusFiles,
  corpusPath,
  CORPUS_SKIP_MESSAGE,
  readCorpus,
  REPO_ROOT,
} from '../test-support/corpus.js';

const parser = createParser();
afterAll(() => parser.close());

const fixture = (name: string): Buffer => readFileSync(path.join(REPO_ROOT, 'fixtures', 'pdf', name));

/** The spec's rules for `blocks`: ids, reading order, spans into the markdown, boxes, provenance. */
function checkBlocks(doc: ParseDocument): void {
  const md = doc.markdown ?? '';
  expect(doc.blocks).toBeTruthy();
  for (const page of doc.blocks!) {
    expect(['ok', 'partial', 'failed']).toContain(page.status);
    page.items.forEach((item, i) => {
      expect(item.id).toBe(`p${page.pageNumber}.b${i}`);
      expect(item.readingOrder).toBe(i);
      if (item.markdownSpan) {
        const [s, e] = item.markdownSpan;
        expect(md.slice(s, e)).toBe(item.content);
      }
      expect(item.bbox).not.toBeNull();
      const [x0, y0, x1, y1] = item.bbox!;
      for (const v of item.bbox!) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
      expect(x0).toBeLessThanOrEqual(x1);
      expect(y0).toBeLessThanOrEqual(y1);
      expect(item.source).toBe('native_text');
      expect(item.confidence.ocr).toBeNull();
      expect(item.confidence.layout).toBeGreaterThan(0);
      expect(item.confidence.layout).toBeLessThanOrEqual(1);
    });
  }
  // Spans do not overlap, and they follow the blocks' order except for the second half of a paragraph
  // that runs over a page break, the first block of its page, which goes on right after its first
  // half (README, "markdownSpan").
  const all = doc
    .blocks!.flatMap((p) => p.items)
    .filter((i) => i.markdownSpan)
    .map((i) => i.markdownSpan!)
    .sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < all.length; i++) expect(all[i]![0]).toBeGreaterThanOrEqual(all[i - 1]![1]);
  let end = 0;
  for (const page of doc.blocks!) {
    page.items
      .filter((i) => i.markdownSpan)
      .forEach((item, k) => {
        const [s] = item.markdownSpan!;
        if (s < end) {
          expect(k, `${item.id} out of order`).toBe(0);
          expect(md[s - 1]).toBe(' ');
        }
        end = Math.max(end, item.markdownSpan![1]);
      });
  }
}

const FAST = { parsers: [{ type: 'pdf' as const, mode: 'fast' as const, blocks: true, pages: true }] };

describe('PDF fixtures made by the project', () => {
  it('two columns: reading order, headings, running headers and footers as typed furniture', async () => {
    const doc = await parser.parseFile(fixture('two-columns.pdf'), FAST, { filename: 'two-columns.pdf' });
    checkBlocks(doc);
    const md = doc.markdown!;
    expect(md.startsWith('# Reading Order in Two Columns\n')).toBe(true);
    expect(md).not.toContain('Docmill Quarterly Review');
    expect(md).not.toContain('Page 1 of 2');
    const types = doc.blocks!.flatMap((p) => p.items.map((i) => i.type));
    expect(types.filter((t) => t === 'page_header')).toHaveLength(4);
    expect(types.filter((t) => t === 'page_number')).toHaveLength(2);
    const furniture = doc.blocks!.flatMap((p) => p.items).filter((i) => i.type.startsWith('page_'));
    expect(furniture.every((i) => i.markdownSpan === null)).toBe(true);
    // Column order: the left column's last paragraph comes before the right column's heading.
    expect(md.indexOf('Headings are usually set')).toBeLessThan(md.indexOf('## 2. Section Two'));
    expect(doc.metadata.title).toBe('Two-column report');
    expect(doc.metadata.numPages).toBe(2);
    expect(doc.pages).toHaveLength(2);
    expect(doc.pages![1]!.markdown).toContain('## 3. Section Three');
  });

  it('keeps furniture in the markdown when onlyMainContent is false', async () => {
    const doc = await parser.parseFile(fixture('two-columns.pdf'), { ...FAST, onlyMainContent: false });
    checkBlocks(doc);
    expect(doc.markdown).toContain('Docmill Quarterly Review');
    expect(doc.markdown).toContain('Page 2 of 2');
  });

  it('tables: ruled with a merged cell, unruled, rules only', async () => {
    const doc = await parser.parseFile(fixture('tables.pdf'), FAST);
    checkBlocks(doc);
    const md = doc.markdown!;
    expect(md).toContain('| **Region** | **Sales** |  | **Share** |');
    expect(md).toContain('| North | 1,200 | 1,350 | 31% |');
    expect(md).toContain('| Paper, A4, 500 sheets | 4 | $5.20 | $20.80 |');
    expect(md).toContain('| Ours | 30M | 86.1 |');
    expect(doc.blocks![0]!.items.filter((i) => i.type === 'table')).toHaveLength(3);
  });

  it('lists, heading levels, hyphenation and a rotated page', async () => {
    const doc = await parser.parseFile(fixture('lists.pdf'), FAST);
    checkBlocks(doc);
    const md = doc.markdown!;
    expect(md).toContain(
      '- Memory: 8 GB or more\n  - 16 GB for large documents\n  - 32 GB when OCR runs on every page\n- Disk space',
    );
    expect(md).toContain('1. Download the package from the registry.\n2. Unpack it');
    expect(md).toContain('the installation notes');
    expect(md).toContain('## Appendix: Wide Page\n\nThis page is printed in landscape orientation');
    const p2 = doc.blocks![1]!;
    expect(p2.width).toBeGreaterThan(p2.height!);
    // Page 3: a paragraph at an item's text indent goes on with the item, and the list goes on after it.
    expect(md).toContain(
      '- The filter is seated firmly in its housing, with the arrow pointing towards the fan.\n  If the filter is missing, do not run the unit',
    );
    expect(md).toContain(
      'voids the warranty.\n- The drain hose runs downhill all the way to the drain.\n\nWhen all three are in order',
    );
  });

  it('maxPages caps the pages parsed and reports the true count', async () => {
    const doc = await parser.parseFile(fixture('two-columns.pdf'), {
      parsers: [{ type: 'pdf', mode: 'fast', maxPages: 1, blocks: true }],
    });
    expect(doc.metadata.numPages).toBe(1);
    expect(doc.metadata.totalPages).toBe(2);
    expect(doc.blocks).toHaveLength(1);
    expect(doc.markdown).not.toContain('Section Three');
  });
});

describe('auto mode decisions from the text pass', () => {
  it('page lists in warnings are written as ranges', () => {
    expect(pageRanges([3, 5, 6, 7, 8, 9, 12])).toBe('3, 5-9, 12');
    expect(pageRanges(Array.from({ length: 19601 }, (_, i) => 400 + i))).toBe('400-20000');
    expect(pageRanges([])).toBe('');
  });

  it('a blank page is not sent to OCR; a page of vector shapes without text is', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([612, 792]).drawText('A page of ordinary text that reads natively.', { x: 72, y: 700, size: 12, font });
    doc.addPage([612, 792]);
    // Curves only, as outlined glyphs are drawn: no text layer, no rulings, but marks on the page.
    doc
      .addPage([612, 792])
      .drawSvgPath('M 10 10 C 20 40 40 40 50 10 C 60 -20 80 -20 90 10 Z', { x: 100, y: 600, scale: 2 });
    const bytes = await doc.save();
    const runtime = new ParserRuntime({ textThreads: 1 });
    try {
      const { pages } = await extractText(runtime, bytes, { signal: new AbortController().signal });
      expect(pages.map((p) => p.ocr?.reason)).toEqual(['native-text', 'blank', 'no-text']);
      expect(pages.map((p) => p.ocr?.needed)).toEqual([false, false, true]);
    } finally {
      await runtime.close();
    }
    // Fast mode reads the same three pages, the blank one as an empty page that did not fail.
    const fast = await parser.parseFile(bytes, { parsers: [{ type: 'pdf', mode: 'fast', blocks: true }] });
    expect(fast.blocks!.map((p) => [p.status, p.items.length > 0])).toEqual([
      ['ok', true],
      ['ok', false],
      ['ok', false],
    ]);
  });
});

describe('damaged and hostile input', () => {
  it('a truncated PDF returns what can be read or a MALFORMED error, never a crash', async () => {
    const bytes = fixture('lists.pdf');
    for (const cut of [0.3, 0.6, 0.9]) {
      const part = bytes.subarray(0, Math.floor(bytes.length * cut));
      try {
        const doc = await parser.parseFile(part, FAST);
        checkBlocks(doc);
      } catch (err) {
        expect((err as { code?: string }).code).toBe('MALFORMED');
      }
    }
  });

  it('randomly damaged PDFs resolve or fail with a code, never hang or crash', async () => {
    const base = fixture('tables.pdf');
    let seed = 12345;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let k = 0; k < 12; k++) {
      const bytes = Buffer.from(base);
      // Damage the body (not the header): flip bytes, then maybe cut a slice out.
      for (let f = 0; f < 20; f++) bytes[16 + Math.floor(rnd() * (bytes.length - 16))] = Math.floor(rnd() * 256);
      const damaged =
        k % 3 === 0 ? Buffer.concat([bytes.subarray(0, bytes.length / 2), bytes.subarray(bytes.length * 0.7)]) : bytes;
      try {
        const doc = await parser.parseFile(damaged, {
          timeout: 20000,
          parsers: [{ type: 'pdf', mode: 'fast', blocks: true }],
        });
        checkBlocks(doc);
      } catch (err) {
        expect(['MALFORMED', 'ENCRYPTED']).toContain((err as { code?: string }).code);
      }
    }
  }, 120000);

  it('a page of millions of operators is read up to the operator limit and reported partial, not left to fill the heap', async () => {
    // 2 million "1 0 Td (a) Tj" pairs: 4 million operators, past the 3 million a page may have.
    const bomb = synthetic()
      .find((v) => v.id === 'pdf/synthetic/bomb-many-text-ops')!
      .make();
    const doc = await parser.parseFile(bomb, {
      timeout: 60000,
      parsers: [{ type: 'pdf', mode: 'fast', blocks: true }],
    });
    expect(doc.blocks![0]!.status).toBe('partial');
    expect(String(doc.metadata.error)).toMatch(/more than 3,000,000 drawing operators/);
    // What came before the limit is there.
    expect(doc.markdown).toMatch(/a/);
  });

  it('garbage after a PDF header is MALFORMED', async () => {
    const junk = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 0x41)]);
    await expect(parser.parseFile(junk, FAST)).rejects.toMatchObject({ code: 'MALFORMED' });
  });

  it('an aborted parse rejects with ABORTED', async () => {
    const controller = new AbortController();
    const p = parser.parseFile(fixture('two-columns.pdf'), FAST, { signal: controller.signal });
    controller.abort();
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    // The pool still serves the next parse.
    const doc = await parser.parseFile(fixture('tables.pdf'), FAST);
    expect(doc.markdown).toContain('Quarterly Figures');
  });
});

describe.skipIf(!corpusAvailable)('PDF corpus', () => {
  // Several tests read the same corpus file in fast mode: each file is parsed once.
  const fastParses = new Map<string, Promise<string>>();
  const fastMarkdown = (dir: string, file: string): Promise<string> => {
    const key = `${dir}/${file}`;
    let md = fastParses.get(key);
    if (!md) {
      md = parser.parseFile(readCorpus(dir, file), FAST).then((d) => d.markdown!);
      fastParses.set(key, md);
    }
    return md;
  };
  const pdfs = ['markitdown', 'unstructured', 'officeparser'].flatMap((d) =>
    corpusFiles(d, ['.pdf']).map((f) => `${d}/${f}`),
  );

  for (const rel of pdfs) {
    it(`block invariants: ${rel}`, async () => {
      const [dir, file] = rel.split('/') as [string, string];
      try {
        const doc = await parser.parseFile(
          readCorpus(dir, file),
          { timeout: 120000, parsers: [{ type: 'pdf', mode: 'fast', blocks: true, maxPages: 25 }] },
          { filename: file },
        );
        checkBlocks(doc);
        expect(doc.metadata.numPages).toBe(doc.blocks!.length);
        expect(doc.metadata.totalPages).toBeGreaterThanOrEqual(doc.metadata.numPages!);
        expect(doc.metadata.contentType).toBe('application/pdf');
      } catch (err) {
        // The only PDF of the corpus that cannot be opened is the password-protected one.
        expect(file).toBe('password.pdf');
        expect((err as { code?: string }).code).toBe('ENCRYPTED');
      }
    }, 150000);
  }

  it('a paragraph that runs over a page break is one paragraph, across the figure read after its first half', async () => {
    // GAO's two-page brief: the left column's last paragraph goes on at the top of page 2; the figure
    // of page 1's right column (headings, lists, a source note) is read after it.
    const md = await fastMarkdown('unstructured', 'invalid-pdf-structure-pdfminer-one-page.pdf');
    expect(md).toContain(
      'provide a good foundation for establishing a more comprehensive strategy. However, not all of the desirable characteristics',
    );
    // A paper: "… on multiple open-domain" over "QA datasets, …" (the page's footnotes between them).
    expect(await fastMarkdown('unstructured', 'multi-column-2p.pdf')).toContain(
      'results on multiple open-domain QA datasets, it also suffers',
    );
  });

  it('metadata title falls back to the title found on the first page', async () => {
    const doc = await parser.parseFile(readCorpus('unstructured', 'multi-column-2p.pdf'), FAST);
    expect(doc.metadata.title).toBe('Dense Passage Retrieval for Open-Domain Question Answering');
    expect(doc.markdown!.startsWith('# Dense Passage Retrieval for Open-Domain Question Answering\n')).toBe(true);
  });

  it('a two-column paper: a table in one column is a table, and check marks of an embedded Dingbats font read as ✓ and ✗', async () => {
    const md = await fastMarkdown('unstructured', 'multi-column.pdf');
    // Table 5 (page 12) sits in the right column beside prose; its column heads are one line of text.
    expect(md).toContain('|  | **Top-1** | **Top-5** | **Top-20** | **Top-100** |');
    expect(md).toContain('| Dist. Sup. | 43.9 | 65.3 | 77.1 | 84.4 |');
    // Table 3 (page 6) marks in-batch training with \ding{51} and \ding{55}.
    expect(md).toMatch(/\| Random \|.*✗/);
    expect(md).toMatch(/\| Gold \|.*✓/);
  });

  it('a two-column paper: a paragraph indented by one em starts a paragraph of its own', async () => {
    const md = await fastMarkdown('unstructured', 'multi-column.pdf');
    // ACL's style indents paragraphs by 1 em and sets them at the text's own leading; the last line
    // before each of these stops short by less than four ems.
    for (const start of [
      'Our contributions are twofold.',
      'While it is good to have the flexibility',
      'One thing worth noticing is that',
      'Note that the retrieval accuracy for our',
    ]) {
      expect(md).toContain(`\n\n${start}`);
    }
    expect(md).toContain('tuned for the baseline (DP, NLL).\n\nNote that');
  });

  it('a two-column paper: figures set tightly in one column of a table come out one to a cell', async () => {
    const md = await fastMarkdown('unstructured', 'multi-column.pdf');
    // Table 4 (page 8): the line builder broke each row's four figures into uneven pieces
    // ("47.1" "17.7 21.3" "33.2"), and dashes stand for missing values.
    expect(md).toContain('| **Training** | **Model** | **NQ** | **TriviaQA** | **WQ** | **TREC** | **SQuAD** |');
    expect(md).toContain('| Single | BM25+BERT (Lee et al., 2019) | 26.5 | 47.1 | 17.7 | 21.3 | 33.2 |');
    expect(md).toContain('| Single | HardEM (Min et al., 2019a) | 28.1 | 50.9 | - | - | - |');
    // "Training" and "Model" came as one line on every row (10 pt apart, a space that runs down the
    // column); "Multi" is set once, centred beside its two rows.
    expect(md).toContain(
      '| Multi | DPR | **41.5** | 56.8 | **42.4** | 49.4 | 24.1 |\n|  | BM25+DPR | 38.8 | **57.9** | 41.1 | **50.6** | 35.8 |',
    );
    // Table 3 (page 6): its heads were one cell over a mark and three figures, and the superscript of
    // "G.+BM25⁽¹⁾" joined the row above (set tight), which cut the table in two.
    expect(md).toContain(
      '| **Type** | **#N** | **IB** | **Top-5** | **Top-20** | **Top-100** |\n| --- | --- | --- | --- | --- | --- |\n| Random | 7 | ✗ | 47.0 | 64.3 | 77.8 |',
    );
    expect(md).toContain('| Gold | 127 | ✓ | 55.8 | 73.0 | 83.1 |\n| G.+BM25(1) | 31+32 | ✓ | 65.0 | 77.3 | 84.4 |');
    // Footnote marks between tight lines of prose stay with their sentence.
    expect(md).toContain('excluding SQuAD.<sup>8</sup> In addition to DPR');
    // Table 2 (page 5), ruled only around its head and between row groups: the one-line row between
    // two rules takes the columns of the rows below; "Training" and "Retriever" are columns of their
    // own though no group shows it alone; "Single" is set once beside its two rows; "Top-20" spans
    // the five heads under it.
    expect(md).toContain(
      [
        '| **Training** | **Retriever** | **Top-20** |  |  |  |  | **Top-100** |  |  |  |  |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        '|  |  | NQ | TriviaQA | WQ | TREC | SQuAD | NQ | TriviaQA | WQ | TREC | SQuAD |',
        '| None | BM25 | 59.1 | 66.9 | 55.0 | 70.9 | 68.8 | 73.7 | 76.7 | 71.1 | 84.1 | 80.0 |',
        '| Single | DPR | 78.4 | 79.4 | 73.2 | 79.8 | 63.2 | 85.4 | **85.0** | 81.4 | 89.1 | 77.2 |',
        '|  | BM25 + DPR | 76.6 | 79.8 | 71.0 | 85.2 | **71.5** | 83.8 | 84.5 | 80.5 | 92.7 | **81.3** |',
      ].join('\n'),
    );
    // Table 6 (page 12): "Sim" and "Loss" stand 8 pt apart, narrower than a split within one ruled
    // group needs, but the space runs down the whole table.
    expect(md).toContain('| **Sim** | **Loss** | **Retrieval Accuracy** |  |  |  |');
    expect(md).toContain(
      '| DP | NLL | **44.9** | **66.8** | **78.1** | **85.0** |\n|  | Triplet | 41.6 | 65.0 | 77.2 | 84.5 |',
    );
  });

  it("a manual's exhibits: the column heads under a page's running head and the exhibit's title head its table", async () => {
    const md = (
      await parser.parseFile(readCorpus('unstructured', 'pdf2image-memory-error-test-400p.pdf'), {
        parsers: [{ type: 'pdf', mode: 'fast', maxPages: 40 }],
      })
    ).markdown!;
    // The row above the title has fewer columns than the table: the title was taken as a note row of
    // a table starting there, which then stopped, and the heads came out as three headings.
    expect(md).toContain(
      '| **LINE** | **POSITION** | **DESCRIPTION AND VALIDITY** |\n| --- | --- | --- |\n| 1 | 01-05 | Command Code (required): BMFOL or BMFOR |',
    );
  });

  it('a two-column paper: displayed equations are lines with their numbers, not a table', async () => {
    const md = await fastMarkdown('unstructured', 'multi-column.pdf');
    // Equations (3)-(5) (page 7) are aligned on "=" with their tall brackets in TeX's extension font,
    // whose glyphs hang below their origin: they were a four-column table with a row of "( )" over
    // each line.
    expect(md).not.toContain('| = |');
    expect(md).toContain(
      '*P*<sub>start</sub>*,i*(*s*) = softmax(**P**<sub>i</sub>**w**<sub>start</sub>)<sub>s</sub>*,* (3)',
    );
    expect(md).toContain(
      '*P*<sub>end</sub>*,i*(*t*) = softmax(**P**<sub>i</sub>**w**<sub>end</sub>)<sub>t</sub>*,* (4)',
    );
    // An equation's number stays on its line (equation (1), page 3).
    expect(md).toContain('sim(*q, p*) = *E*<sub>Q</sub>(*q*)ᵀ*E*<sub>P</sub> (*p*)*.* (1)');
  });

  it('table cells keep the inline marks of their words: footnote marks, units, subscripts, bold labels', async () => {
    const paper = await fastMarkdown('unstructured', 'layout-parser-paper-with-table.pdf');
    expect(paper).toContain('| **Dataset** | **Base Model**<sup>1</sup> | **Large Model** | **Notes** |');
    const chem = await fastMarkdown('unstructured', 'embedded-images-tables.pdf');
    expect(chem).toContain('| icorr (A/cm<sup>2</sup>) |');
    const qa = await fastMarkdown('unstructured', 'multi-column.pdf');
    expect(qa).toContain('| Single | REALM<sub>Wiki</sub> (Guu et al., 2020) | 39.2 |');
    const form = await fastMarkdown('markitdown', 'REPAIR-2022-INV-001_multipage.pdf');
    expect(form).toContain('| **Claim #** | SF-1008 | **Make** | Jeep |');
    // A bold head set alone on a row under a value is a row of its own, not the value's second line.
    expect(form).toContain('| **Repair Order #** | RO-20221108 | **Estimator** | Ellis Turner |');
  });

  it("a Word document's tables as PDF: a head over a one-line label row, an italic sub-head row", async () => {
    const md = await fastMarkdown('officeparser', 'test.pdf');
    // The distance table: its head row is followed by "Point A" and a dash only, which no longer
    // ends the table before it starts.
    expect(md).toContain('| City or Town | Point A | Point B | Point C | Point D | Point E |');
    expect(md).toContain('| Point C | 64 | 56 | — |  |  |');
    // "Graduate" (italic, a sub-head) is a row of its own, not the next line of the cell above it.
    expect(md).toContain('| Oak Institute | 202 | 210 | -8 |\n|  | *Graduate* |  |  |');
    // The head, "Graduating" wrapped over "students", heads the table; the italic "Undergraduate"
    // under it is a sub-head row in its own column.
    expect(md).toContain(
      '| **College** | **New students** | **Graduating students** | **Change** |\n| --- | --- | --- | --- |\n|  | *Undergraduate* |  |  |\n| Cedar University | 110 | 103 | +7 |',
    );
  });

  it('copy-protected PDF (empty user password) opens', async () => {
    const doc = await parser.parseFile(readCorpus('unstructured', 'copy-protected.pdf'), FAST);
    expect((doc.markdown ?? '').length).toBeGreaterThan(1000);
  });

  it('maxPages on the 619-page PDF parses only what was asked', async () => {
    const doc = await parser.parseFile(readCorpus('unstructured', 'DA-619p.pdf'), {
      parsers: [{ type: 'pdf', mode: 'fast', maxPages: 7, pages: true }],
    });
    expect(doc.metadata.numPages).toBe(7);
    expect(doc.metadata.totalPages).toBe(619);
    expect(doc.pages!.map((p) => p.pageNumber)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a timeout stops the parse with TIMEOUT', async () => {
    await expect(
      parser.parseFile(readCorpus('unstructured', 'DA-619p.pdf'), {
        timeout: 300,
        parsers: [{ type: 'pdf', mode: 'fast' }],
      }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('concurrent parses share the pool: a small parse is not stuck behind a large one', async () => {
    const order: string[] = [];
    const big = parser
      .parseFile(readCorpus('unstructured', 'pdf2image-memory-error-test-400p.pdf'), {
        parsers: [{ type: 'pdf', mode: 'fast', maxPages: 200 }],
      })
      .then(() => order.push('big'));
    await new Promise((r) => setTimeout(r, 150));
    const small = parser.parseFile(fixture('tables.pdf'), FAST).then(() => order.push('small'));
    await Promise.all([big, small]);
    expect(order).toEqual(['small', 'big']);
  }, 60000);

  it('markitdown vectors for test.pdf', async () => {
    const vectors = JSON.parse(readFileSync(corpusPath('markitdown', 'vectors.json'), 'utf8')) as Array<{
      file: string;
      mustInclude: string[];
      mustNotInclude: string[];
    }>;
    const v = vectors.find((x) => x.file === 'test.pdf');
    expect(v).toBeTruthy();
    const doc = await parser.parseFile(readCorpus('markitdown', 'test.pdf'), FAST);
    for (const s of v!.mustInclude) expect(doc.markdown).toContain(s);
    for (const s of v!.mustNotInclude) expect(doc.markdown).not.toContain(s);
  });

  describe('tables of markitdown/expected are found with their cell contents', () => {
    const norm = (s: string): string =>
      s
        .replace(/\*\*|\\(?=[\\`*_[\]#+\-.!|])/g, '')
        .replace(/<br>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .toLowerCase();
    const tableCells = (md: string): string[][] =>
      md
        .split('\n')
        .filter((l) => /^\s*\|/.test(l) && !/^\s*\|[\s:|-]+\|\s*$/.test(l))
        .map((l) =>
          l
            .trim()
            .replace(/^\||\|$/g, '')
            .split(/(?<!\\)\|/)
            .map(norm),
        );
    for (const f of corpusFiles('markitdown/expected', ['.md'])) {
      const expectedRows = tableCells(readFileSync(corpusPath('markitdown', 'expected', f), 'utf8'));
      if (!expectedRows.length) continue;
      it(f.replace(/\.md$/, '.pdf'), async () => {
        const doc = await parser.parseFile(readCorpus('markitdown', f.replace(/\.md$/, '.pdf')), FAST);
        const ours = tableCells(doc.markdown ?? '');
        const ourCells = new Set(ours.flat().filter(Boolean));
        const ourRows = ours.map((r) => r.filter(Boolean).join(' | '));
        let cells = 0,
          found = 0,
          rowsFound = 0;
        for (const row of expectedRows) {
          const filled = row.filter(Boolean);
          for (const c of filled) {
            cells++;
            if (ourCells.has(c) || [...ourCells].some((o) => o.includes(c))) found++;
          }
          // A row is found when one of our table rows holds its cells in the same order.
          if (
            ourRows.some((r) =>
              filled.every((c, i) => {
                const at = r.indexOf(c);
                return at >= 0 && (i === 0 || at >= r.indexOf(filled[i - 1]!));
              }),
            )
          )
            rowsFound++;
        }
        expect(found / cells).toBeGreaterThanOrEqual(0.93);
        expect(rowsFound / expectedRows.length).toBeGreaterThanOrEqual(0.8);
      });
    }
  });
});

if (!corpusAvailable) console.warn(CORPUS_SKIP_MESSAGE);
