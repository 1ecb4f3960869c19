/**
 * The public API's contract: input kinds, coded errors, parser lifecycle.
 */
import { strToU8 } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { createParser, ParseError, parseFile } from '../src/index.js';
import { errorCodeOf } from '../test-support/errors.js';

const parser = createParser({ textThreads: 1 });
afterAll(() => parser.close());

const HTML =
  '<!doctype html><html><head><title>T</title></head><body><main><h1>Hello</h1><p>World of <b>docs</b>.</p></main></body></html>';

describe('public API', () => {
  it('exports a small, deliberate surface', () => {
    expect(Object.keys(api).sort()).toEqual([
      'MAX_FILE_BYTES',
      'PII_ENTITIES',
      'ParseError',
      'SUPPORTED_EXTENSIONS',
      'createParser',
      'detectFormat',
      'httpStatusOf',
      'normalizeOptions',
      'parseFile',
    ]);
  });

  it('accepts Uint8Array, Buffer and ArrayBuffer alike', async () => {
    const bytes = strToU8(HTML);
    const a = await parser.parseFile(bytes);
    const b = await parser.parseFile(Buffer.from(bytes));
    const c = await parser.parseFile(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    expect(a.markdown).toContain('# Hello');
    expect(b.markdown).toBe(a.markdown);
    expect(c.markdown).toBe(a.markdown);
    expect(a.metadata.contentType).toBe('text/html');
  });

  it('refuses input that is not bytes', async () => {
    expect(await errorCodeOf(parser.parseFile('a string' as unknown as Uint8Array))).toBe('BAD_REQUEST');
  });

  it('refuses bad options before reading the file', async () => {
    const err = await parser.parseFile(strToU8(HTML), { timeout: 999999 }).catch((e: unknown) => e as ParseError);
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).code).toBe('BAD_REQUEST');
    expect((err as ParseError).message).toMatch(/options\.timeout/);
  });

  it('refuses empty and unknown content with UNSUPPORTED_FILE_TYPE', async () => {
    expect(await errorCodeOf(parser.parseFile(new Uint8Array(0)))).toBe('UNSUPPORTED_FILE_TYPE');
    expect(await errorCodeOf(parser.parseFile(strToU8('just some words'), {}, { filename: 'notes.txt' }))).toBe(
      'UNSUPPORTED_FILE_TYPE',
    );
  });

  it('refuses files over 50 MB with RESOURCE_LIMIT', async () => {
    expect(await errorCodeOf(parser.parseFile(new Uint8Array(50 * 1024 * 1024 + 1)))).toBe('RESOURCE_LIMIT');
  });

  it('does not parse PDFs when parsers is an empty list', async () => {
    expect(await errorCodeOf(parser.parseFile(strToU8('%PDF-1.4\n'), { parsers: [] }))).toBe('UNSUPPORTED_FILE_TYPE');
  });

  it('honours an AbortSignal that has already fired', async () => {
    const ac = new AbortController();
    ac.abort();
    expect(await errorCodeOf(parser.parseFile(strToU8(HTML), {}, { signal: ac.signal }))).toBe('ABORTED');
  });

  it('refuses work once closed', async () => {
    const p = createParser();
    await p.close();
    expect(await errorCodeOf(p.parseFile(strToU8(HTML)))).toBe('CLOSED');
  });

  it('has a shared default parser', async () => {
    const doc = await parseFile(strToU8(HTML), { formats: ['markdown', 'links'] }, { filename: 'page.html' });
    expect(doc.markdown).toContain('World of **docs**.');
    expect(doc.metadata.sourceURL).toBe('page.html');
    expect(doc.links).toEqual([]);
  });

  it('maps every error code to an HTTP status', () => {
    expect(api.httpStatusOf('BAD_REQUEST')).toBe(400);
    expect(api.httpStatusOf('UNKNOWN_ERROR')).toBe(500);
    expect(new ParseError('TIMEOUT', 'x').status).toBe(408);
  });
});

describe('formats', () => {
  it('produces only what was asked for', async () => {
    const doc = await parser.parseFile(strToU8(HTML), { formats: ['html', 'summary', 'images'] });
    expect(doc.markdown).toBeUndefined();
    expect(doc.html).toContain('<h1>Hello</h1>');
    expect(typeof doc.summary).toBe('string');
    expect(doc.images).toEqual([]);
    expect(doc.pages).toBeUndefined();
    expect(doc.blocks).toBeUndefined();
  });

  it('fills a json schema from labelled values, and says what it could not find', async () => {
    const html = '<html><body><p>Invoice Number: INV-42</p><p>Total: 1,250.50</p></body></html>';
    const doc = await parser.parseFile(strToU8(html), {
      formats: [
        {
          type: 'json',
          schema: {
            type: 'object',
            properties: { invoiceNumber: { type: 'string' }, total: { type: 'number' }, dueDate: { type: 'string' } },
          },
        },
      ],
    });
    expect(doc.json).toEqual({ invoiceNumber: 'INV-42', total: 1250.5 });
    expect(doc.warning).toMatch(/dueDate/);
  });
});
