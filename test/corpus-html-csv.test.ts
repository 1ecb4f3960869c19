/**
 * Real HTML and CSV files from the shared corpus: markitdown's test vectors, and every .html/.htm/.csv
 * converting without error.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createParser } from '../src/parser.js';
import { CORPUS_SKIP_MESSAGE, corpusAvailable, corpusFiles, corpusPath, readCorpus } from '../test-support/corpus.js';

interface Vector {
  file: string;
  mimetype: string;
  mustInclude: string[];
  mustNotInclude: string[];
}

const parser = createParser();
afterAll(() => parser.close());

const VECTOR_FILES = ['test_blog.html', 'test_wikipedia.html', 'test_serp.html', 'test_mskanji.csv'];

describe.skipIf(!corpusAvailable)(
  `corpus: markitdown vectors (${corpusAvailable ? 'corpus present' : CORPUS_SKIP_MESSAGE})`,
  () => {
    const vectors = corpusAvailable
      ? (JSON.parse(readFileSync(corpusPath('markitdown', 'vectors.json'), 'utf8')) as Vector[]).filter((v) =>
          VECTOR_FILES.includes(v.file),
        )
      : [];

    it('has a vector for each file under test', () => {
      expect(vectors.map((v) => v.file).sort()).toEqual([...VECTOR_FILES].sort());
    });

    for (const file of VECTOR_FILES) {
      it(file, async () => {
        const v = vectors.find((x) => x.file === file)!;
        const doc = await parser.parseFile(readCorpus('markitdown', file), undefined, {
          filename: file,
          contentType: v.mimetype,
        });
        const md = doc.markdown ?? '';
        for (const s of v.mustInclude) expect(md, `must include ${JSON.stringify(s)}`).toContain(s);
        for (const s of v.mustNotInclude) expect(md, `must not include ${JSON.stringify(s)}`).not.toContain(s);
      });
    }
  },
);

describe.skipIf(!corpusAvailable)('corpus: every HTML and CSV file converts', () => {
  const files = ['markitdown', 'officeparser', 'unstructured'].flatMap((folder) =>
    corpusFiles(folder, ['.html', '.htm', '.xhtml', '.csv']).map((name) => [folder, name] as const),
  );

  it('finds the files', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  for (const [folder, name] of files) {
    it(`${folder}/${name}`, async () => {
      const doc = await parser.parseFile(
        readCorpus(folder, name),
        { formats: ['markdown', 'html', 'links', 'images'] },
        { filename: name },
      );
      expect(doc.markdown!.trim().length).toBeGreaterThan(0);
      // No mojibake: decoding picked the right encoding.
      expect(doc.markdown).not.toMatch(/\uFFFD|Ã©|â€/);
      if (name.endsWith('.csv')) expect(doc.markdown).toMatch(/^\| .* \|\n\|( --- \|)+\n/);
      else expect(doc.html).not.toMatch(/<script\b/i);
    });
  }

  it('unstructured/stanley-cups-utf-16.csv keeps its rows', async () => {
    const doc = await parser.parseFile(readCorpus('unstructured', 'stanley-cups-utf-16.csv'), undefined, {
      filename: 'stanley-cups-utf-16.csv',
    });
    expect(doc.markdown).toContain('| Maple Leafs | TOR | 13 |');
  });

  it('unstructured/fake-html-cp1252.html decodes its accents', async () => {
    const doc = await parser.parseFile(readCorpus('unstructured', 'fake-html-cp1252.html'), undefined, {
      filename: 'fake-html-cp1252.html',
    });
    expect(doc.markdown).toContain('Der Preis betrug 15,50 €.');
    expect(doc.markdown).toContain('El niño comió paella con ñoquis.');
  });

  it('unstructured/fake-html-with-base64-image.html keeps the alt text of the removed image', async () => {
    const doc = await parser.parseFile(readCorpus('unstructured', 'fake-html-with-base64-image.html'), undefined, {
      filename: 'x.html',
    });
    expect(doc.markdown).toMatch(/!\[[^\]]+\]\(<Base64-Image-Removed>\)/);
    expect(doc.markdown).not.toContain('base64,');
  });

  it('markitdown/test_wikipedia.html leaves out edit links and navigation boxes', async () => {
    const doc = await parser.parseFile(readCorpus('markitdown', 'test_wikipedia.html'), undefined, {
      filename: 'w.html',
    });
    expect(doc.markdown).not.toMatch(/\[edit\]\(/);
    expect(doc.markdown).not.toContain('Jump to content');
    expect(doc.markdown).toMatch(/^# Microsoft\n/);
  });
});
