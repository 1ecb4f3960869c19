/**
 * removeBase64Images is one rule for every format: with it on (the default) no image comes out as inline
 * data, whatever read it; off, the data is kept.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeBase64Images } from '../src/formats/base64-images.js';
import type { DocModel } from '../src/model/document.js';
import { createParser } from '../src/parser.js';
import { FIXTURES_DIR } from '../test-support/fixtures.js';

const parser = createParser({ textThreads: 1 });
afterAll(() => parser.close());

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGM4IScHRwzEcQCxYxBBO0tjggAAAABJRU5ErkJggg==';

describe('every format, one rule', () => {
  it.each(['field-report.docx', 'field-report.doc', 'field-report.odt', 'field-report.rtf', 'revisions.docx'])(
    '%s: the picture is the placeholder by default, its data on request',
    async (name) => {
      const bytes = readFileSync(path.join(FIXTURES_DIR, 'documents', name));
      const doc = await parser.parseFile(bytes, { formats: ['markdown', 'images', 'html'] }, { filename: name });
      expect(doc.markdown).toContain('](<Base64-Image-Removed>)');
      expect(doc.markdown).not.toMatch(/\]\(data:/);
      expect(doc.images ?? []).not.toContainEqual(expect.stringMatching(/^data:/));
      const kept = await parser.parseFile(bytes, { removeBase64Images: false }, { filename: name });
      expect(kept.markdown).toMatch(/\]\(data:image\/png;base64,[A-Za-z0-9+/=]{20,}\)/);
    },
  );

  it('HTML keeps its alt text and uses the same placeholder', async () => {
    const html = `<html><body><main><p>Logo <img alt="Company logo" src="data:image/png;base64,${PNG}"></p></main></body></html>`;
    const doc = await parser.parseFile(new TextEncoder().encode(html), {}, { filename: 'a.html' });
    expect(doc.markdown).toContain('![Company logo](<Base64-Image-Removed>)');
  });

  it('the rule covers inlines, figures, tables, lists, quotes and markdown written by the HTML path', () => {
    const data = `data:image/png;base64,${PNG}`;
    const img = { type: 'image' as const, alt: 'a', src: data };
    const doc: DocModel = {
      contentType: 'x',
      metadata: {},
      warnings: [],
      images: [data, 'https://example.com/a.png'],
      pages: [
        {
          pageNumber: 1,
          width: null,
          height: null,
          status: 'ok',
          blocks: [
            { node: { kind: 'paragraph', content: [img] } },
            { node: { kind: 'figure', alt: 'f', src: data } },
            { node: { kind: 'table', rows: [[{ content: [{ ...img }] }]] } },
            { node: { kind: 'list', ordered: false, items: [{ content: [{ ...img }] }] } },
            { node: { kind: 'quote', children: [{ kind: 'paragraph', content: [{ ...img }] }] } },
            { node: { kind: 'markdown', markdown: `![b](${data}) and [c](https://example.com)` } },
          ],
        },
      ],
    };
    const out = JSON.stringify(removeBase64Images(doc));
    expect(out).not.toContain('data:');
    expect(out).toContain('![b](<Base64-Image-Removed>) and [c](https://example.com)');
    expect(doc.images).toEqual(['https://example.com/a.png']);
  });
});
