/**
 * The html format of inputs that are not HTML, written from the document model
 * (src/formats/document-html.ts): merged table cells keep their spans, the blocks are those of the
 * markdown, text is escaped, and redaction reaches it. Needs `npm run build` first (PDF workers).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseFragment } from 'parse5';
import { afterAll, describe, expect, it } from 'vitest';
import { createParser } from '../src/parser.js';
import { REPO_ROOT } from '../test-support/corpus.js';

const parser = createParser();
afterAll(() => parser.close());

async function htmlOf(dir: string, name: string, options: Record<string, unknown> = {}): Promise<string> {
  const bytes = readFileSync(path.join(REPO_ROOT, 'fixtures', dir, name));
  const doc = await parser.parseFile(bytes, { formats: ['html'], ...options }, { filename: name });
  return doc.html ?? '';
}

/** Cells of the first table whose text contains `marker`, as [text, colspan, rowspan]. */
function cellsOf(html: string, marker: string): Array<[string, number, number]> {
  const table = [...html.matchAll(/<table>[\s\S]*?<\/table>/g)].map((m) => m[0]).find((t) => t.includes(marker));
  expect(table, `a table holding "${marker}"`).toBeDefined();
  return [...table!.matchAll(/<t[hd]((?:\s+\w+="\d+")*)>([\s\S]*?)<\/t[hd]>/g)].map((m) => [
    m[2]!.replace(/<[^>]+>/g, ''),
    Number(/colspan="(\d+)"/.exec(m[1]!)?.[1] ?? 1),
    Number(/rowspan="(\d+)"/.exec(m[1]!)?.[1] ?? 1),
  ]);
}

describe('html of documents that are not HTML', () => {
  it('a ruled PDF table keeps its spanning head cell', async () => {
    const html = await htmlOf('pdf', 'tables.pdf');
    // The markdown can only leave the slot after "Sales" empty.
    expect(cellsOf(html, 'Sales').find(([t]) => t === 'Sales')).toEqual(['Sales', 2, 1]);
  });

  it("a workbook's merged title and two-row merge are colspan and rowspan", async () => {
    const html = await htmlOf('workbooks', 'sample.xlsx');
    const spans = [...html.matchAll(/<t[hd] (colspan|rowspan)="(\d+)"/g)].map((m) => `${m[1]}=${m[2]}`);
    expect(spans).toEqual(expect.arrayContaining(['colspan=6', 'rowspan=2']));
    // The markdown of the same file has no such cells: the spans are the model's, not re-guessed.
    const md = (
      await parser.parseFile(
        readFileSync(path.join(REPO_ROOT, 'fixtures', 'workbooks', 'sample.xlsx')),
        {},
        { filename: 'sample.xlsx' },
      )
    ).markdown!;
    expect(md).not.toContain('span');
  });

  it("a word-processor table's column and row spans", async () => {
    const html = await htmlOf('documents', 'field-report.docx');
    expect(html).toMatch(/<t[hd] colspan="2">/);
    expect(html).toMatch(/<t[hd] rowspan="2">/);
    // Headings, emphasis, links and lists come through as elements.
    expect(html).toMatch(/<h1>[^<]+<\/h1>/);
    expect(html).toMatch(/<a href="https?:\/\/[^"]+">/);
    expect(html).toMatch(/<strong>[^<]+<\/strong>/);
    expect(html).toMatch(/<ol>[\s\S]*<li>/);
  });

  it('running headers and footers follow onlyMainContent, as in the markdown', async () => {
    const main = await htmlOf('pdf', 'two-columns.pdf');
    const all = await htmlOf('pdf', 'two-columns.pdf', { onlyMainContent: false });
    expect(main).not.toContain('Page 1 of 2');
    expect(all).toContain('Page 1 of 2');
    expect(all).toContain('Docmill Quarterly Review');
  });

  it('a paragraph broken by a page break is one paragraph, as in the markdown', async () => {
    const html = await htmlOf('pdf', 'page-break.pdf');
    expect(html).toContain('on twelve roads of different ages and traffic loads');
    expect(html).toContain('to planned work.</p>\n<p>Members asked');
  });

  it('list items laid out one block each are one list, nested items inside their parent', async () => {
    const html = await htmlOf('pdf', 'lists.pdf');
    const md = (
      await parser.parseFile(
        readFileSync(path.join(REPO_ROOT, 'fixtures', 'pdf', 'lists.pdf')),
        {},
        { filename: 'lists.pdf' },
      )
    ).markdown!;
    // As many top-level lists as the markdown has runs of list lines.
    const runs = md.split(/\n{2,}/).filter((p) => /^(?:-|\d+\.) /.test(p)).length;
    const fragment = parseFragment(html);
    const topLists = fragment.childNodes.filter((n) => n.nodeName === 'ul' || n.nodeName === 'ol');
    expect(topLists.length).toBe(runs);
    expect(html).toMatch(/<li>[^<]*\n<ul>\n<li>/);
  });

  it('text is escaped, never markup', async () => {
    const csv = 'name,note\nAda,"<script>alert(1)</script> & <b>bold</b>"\n';
    const doc = await parser.parseFile(new TextEncoder().encode(csv), { formats: ['html'] }, { filename: 'notes.csv' });
    expect(doc.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(doc.html).not.toContain('<script>');
    expect(doc.html).not.toContain('<b>');
  });

  it('redaction reaches the html', async () => {
    const csv = 'name,email\nMary Johnson,mary.johnson@example.com\n';
    const doc = await parser.parseFile(
      new TextEncoder().encode(csv),
      { formats: ['markdown', 'html'], redactPII: { mode: 'fast' } },
      { filename: 'people.csv' },
    );
    expect(doc.markdown).not.toContain('mary.johnson@example.com');
    expect(doc.html).not.toContain('mary.johnson@example.com');
    expect(doc.html).toContain('<table>');
  });
});
