/**
 * timeout and AbortSignal for the formats whose readers are synchronous (HTML, CSV, Word, presentations,
 * spreadsheets): the parse settles with TIMEOUT or ABORTED instead of resolving after its deadline, the
 * caller's event loop stays free while the document is read, and the parser keeps working afterwards.
 * (Needs `npm run build`, as `npm test` does: the reading happens on the built reader worker.)
 */
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParseError } from '../src/errors.js';
import { createParser, type FileInfo } from '../src/parser.js';
import type { ParseOptions } from '../src/options/schema.js';

const parser = createParser({ textThreads: 1 });
afterAll(() => parser.close());

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** Documents large enough that reading them takes a good part of a second. */
function bigHtml(): Uint8Array {
  const rows = Array.from(
    { length: 2500 },
    (_, i) => `<p>Paragraph ${i} with <b>bold</b>, <i>italic</i> and a <a href="/p/${i}">link</a> in the text.</p>`,
  );
  return strToU8(`<html><body><main><h1>Long page</h1>${rows.join('')}</main></body></html>`);
}

function bigDocx(): Uint8Array {
  const paras = Array.from(
    { length: 3000 },
    (_, i) =>
      `<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Heading ${i}</w:t></w:r><w:r><w:t xml:space="preserve"> and the body of paragraph ${i}.</w:t></w:r></w:p>`,
  );
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(`<w:document xmlns:w="${W}"><w:body>${paras.join('')}</w:body></w:document>`),
  });
}

function bigCsv(): Uint8Array {
  const lines = ['id,name,amount,note'];
  for (let i = 0; i < 12000; i++) lines.push(`${i},Item ${i},${(i * 1.5).toFixed(2)},"note, ${i}"`);
  return strToU8(lines.join('\n'));
}

const DOCUMENTS: Array<[string, () => Uint8Array, string]> = [
  ['HTML', bigHtml, 'long.html'],
  ['DOCX', bigDocx, 'long.docx'],
  ['CSV', bigCsv, 'long.csv'],
];

/** Runs a parse while counting event-loop turns: a reader on the calling thread would leave none. */
async function settle(
  bytes: Uint8Array,
  options: ParseOptions,
  file: FileInfo,
): Promise<{ code: string | null; ticks: number }> {
  let ticks = 0;
  const tick = setInterval(() => ticks++, 1);
  try {
    await parser.parseFile(bytes, options, file);
    return { code: null, ticks };
  } catch (err) {
    return { code: err instanceof ParseError ? err.code : String(err), ticks };
  } finally {
    clearInterval(tick);
  }
}

describe('formats read on a worker honour timeout and AbortSignal', () => {
  // A warm parser, as in a service or a loop over files: every reader already loaded.
  beforeAll(async () => {
    for (const [, , filename] of DOCUMENTS) {
      const small = filename.endsWith('.docx')
        ? bigDocx()
        : strToU8(filename.endsWith('.csv') ? 'a,b\n1,2' : '<p>x</p>');
      await parser.parseFile(small, { timeout: 120000 }, { filename });
    }
  }, 180_000);

  it.each(DOCUMENTS)('%s: timeout 1 ms ends with TIMEOUT', async (_name, make, filename) => {
    const { code } = await settle(make(), { timeout: 1 }, { filename });
    expect(code).toBe('TIMEOUT');
  });

  it.each(DOCUMENTS)(
    '%s: an abort while it is read ends with ABORTED, the event loop free meanwhile',
    async (_n, make, filename) => {
      const bytes = make();
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const { code } = await settle(bytes, {}, { filename, signal: controller.signal });
      expect(code).toBe('ABORTED');
    },
  );

  it.each(DOCUMENTS)(
    '%s: read in full without a stop, and the event loop keeps turning',
    async (_n, make, filename) => {
      const bytes = make();
      const { code, ticks } = await settle(bytes, { timeout: 120000 }, { filename });
      expect(code).toBeNull();
      // The read happened on another thread: this one ran its timers meanwhile.
      expect(ticks).toBeGreaterThan(0);
      const doc = await parser.parseFile(bytes, {}, { filename });
      expect(doc.markdown!.length).toBeGreaterThan(10000);
    },
  );

  it('a parse after an aborted one is read as usual (the ended thread is replaced)', async () => {
    const controller = new AbortController();
    const aborted = parser.parseFile(bigDocx(), {}, { filename: 'a.docx', signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
    const doc = await parser.parseFile(strToU8('<p>Small page</p>'), {}, { filename: 'small.html' });
    expect(doc.markdown).toContain('Small page');
  });

  it('errors found on the worker keep their code', async () => {
    await expect(
      parser.parseFile(strToU8('PK\u0003\u0004 not a zip'), {}, { filename: 'x.docx' }),
    ).rejects.toMatchObject({
      code: expect.stringMatching(/MALFORMED|UNSUPPORTED_FILE_TYPE/),
    });
  });
});
