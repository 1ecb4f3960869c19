/**
 * Text documents of the shared corpus: markitdown's vectors, mammoth's edge cases, and every
 * Word/ODT/RTF/EPUB file of the unstructured set converting without error.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ParseError } from '../src/errors.js';
import { createParser } from '../src/parser.js';
import { CORPUS_SKIP_MESSAGE, corpusAvailable, corpusFiles, readCorpus } from '../test-support/corpus.js';

const parser = createParser();
afterAll(() => parser.close());

if (!corpusAvailable) console.warn(CORPUS_SKIP_MESSAGE);

interface Vector {
  file: string;
  mustInclude: string[];
  mustNotInclude: string[];
}

async function convert(
  folder: string,
  file: string,
  options?: Parameters<typeof parser.parseFile>[1],
): Promise<string> {
  const doc = await parser.parseFile(readCorpus(folder, file), options, { filename: file });
  return doc.markdown ?? '';
}

/**
 * markitdown writes bullets with `*`, docmill with `-` everywhere (one serializer): the vectors are
 * compared with bullet markers normalised (and inline image data, below), nothing else.
 */
function normaliseBullets(s: string): string {
  return s.replace(/^(\s*)\* /gm, '$1- ');
}

describe.skipIf(!corpusAvailable)('markitdown vectors (text documents)', () => {
  const vectors = corpusAvailable
    ? (JSON.parse(readCorpus('markitdown', 'vectors.json').toString('utf8')) as Vector[])
    : [];
  for (const v of vectors.filter((x) => /\.(docx|epub)$/.test(x.file))) {
    it(v.file, async () => {
      const out = normaliseBullets(await convert('markitdown', v.file));
      // markitdown cuts an inline image's data to "data:image/png;base64..."; docmill, by its
      // removeBase64Images rule for every format, writes the HTML path's placeholder instead.
      const ours = (s: string): string => s.replace(/data:image\/[a-z]+;base64\.\.\./g, '<Base64-Image-Removed>');
      for (const s of v.mustInclude) expect(out).toContain(ours(normaliseBullets(s)));
      for (const s of v.mustNotInclude) expect(out).not.toContain(s);
    });
  }
});

describe.skipIf(!corpusAvailable)('mammoth edge cases', () => {
  it('every file converts without error', async () => {
    for (const f of corpusFiles('mammoth', ['.docx']))
      await expect(convert('mammoth', f), f).resolves.toBeTypeOf('string');
  });

  it('footnotes and endnotes become GFM notes', async () => {
    for (const f of ['footnotes.docx', 'endnotes.docx']) {
      expect(await convert('mammoth', f)).toBe('Ouch[^1].[^2]\n\n[^1]: A tachyon walks into a bar.\n\n[^2]: Fin.\n');
    }
  });

  it('a link inside a footnote is kept', async () => {
    expect(await convert('mammoth', 'footnote-hyperlink.docx')).toContain('[^1]: [Example](http://www.example.com)');
  });

  it('comments are notes with their author', async () => {
    const out = await convert('mammoth', 'comments.docx');
    expect(out).toContain('Ouch[^comment-1].[^comment-2]');
    expect(out).toContain('[^comment-1]: **Michael Williamson:** A tachyon walks into a bar.');
  });

  it('text boxes, tables, lists, strike-through and Strict OOXML', async () => {
    expect(await convert('mammoth', 'text-box.docx')).toContain('Datum plane');
    expect(await convert('mammoth', 'tables.docx')).toContain(
      '| Top left | Top right |\n| --- | --- |\n| Bottom left | Bottom right |',
    );
    expect(await convert('mammoth', 'simple-list.docx')).toBe('- Apple\n- Banana\n');
    expect(await convert('mammoth', 'strikethrough.docx')).toContain("~~Today's Special: Salmon~~ Sold out");
    expect(await convert('mammoth', 'strict-format.docx')).toContain('Test');
  });

  it('pictures: inline data only on request, external pictures by their address', async () => {
    expect(await convert('mammoth', 'tiny-picture.docx')).toContain('](<Base64-Image-Removed>)');
    expect(await convert('mammoth', 'tiny-picture.docx', { removeBase64Images: false })).toMatch(
      /\(data:image\/png;base64,[A-Za-z0-9+/]{20,}/,
    );
    expect(await convert('mammoth', 'external-picture.docx')).toContain('](tiny-picture.png)');
  });
});

describe.skipIf(!corpusAvailable)('unstructured text documents', () => {
  const files = corpusFiles('unstructured', ['.docx', '.doc', '.odt', '.rtf', '.epub']);
  for (const f of files) {
    it(`${f} converts`, async () => {
      try {
        const out = await convert('unstructured', f);
        expect(out.trim().length, f).toBeGreaterThan(0);
      } catch (err) {
        // Password-protected files are the one accepted failure.
        expect(err instanceof ParseError && err.code === 'ENCRYPTED', `${f}: ${String(err)}`).toBe(true);
      }
    }, 60000);
  }

  it('docx headers come before the body and footers after it', async () => {
    const out = await convert('unstructured', 'docx-hdrftr.docx');
    expect(out.indexOf('First header para')).toBeLessThan(out.indexOf('Main document'));
  });

  it('legacy .doc tables and emphasis', async () => {
    const out = await convert('unstructured', 'fake-doc-emphasized-text.doc');
    expect(out).toContain('| A **bold** *italic **bold-italic*** example | [A Link example](http://github.com/) |');
  });

  it('the 872-page handbook keeps its headings and tables', async () => {
    const out = await convert('unstructured', 'handbook-872p.docx');
    expect(out.length).toBeGreaterThan(500000);
    expect(out).toMatch(/^#{1,3} .*CHAPTER/im);
  });
});

describe.skipIf(!corpusAvailable)('officeparser: one document, three text formats', () => {
  it('docx, odt and epub share their key content', async () => {
    const outs = await Promise.all(['test.docx', 'test.odt', 'test.epub'].map((f) => convert('officeparser', f)));
    for (const out of outs) {
      expect(out).toMatch(/Demonstration of DOCX support in calibre/);
    }
  });
});
