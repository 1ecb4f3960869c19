/**
 * The PDF text pass against the parse's timeout: a document too long to read in time comes back with
 * the pages read so far and a warning naming the rest (not a TIMEOUT that throws them away); a
 * document of which not even the first pages could be read is still a TIMEOUT. A page that keeps
 * pdf.js busy past its share of the timeout is cut (src/pdf/deadline.ts) and the pages after it are
 * read.
 * Needs `npm run build` (pools run dist/workers/*.js).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createParser } from '../src/parser.js';
import { synthetic } from '../test-support/hostile/variants.js';

const PAGES = 6000;

/** Pages that each say which they are, so what came back can be told from what did not. */
async function ledger(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const page = pdf.addPage([300, 200]);
    page.drawText(`Ledger entry ${n}`, { x: 20, y: 150, size: 12, font });
    page.drawText(`Posted to account ${(n * 7919) % 10007} on day ${n % 365}.`, { x: 20, y: 120, size: 10, font });
  }
  return pdf.save();
}

describe('PDF text pass against the parse timeout', () => {
  // One text thread, so that no machine reads the whole document within the timeout below.
  const parser = createParser({ textThreads: 1 });
  let pdf: Uint8Array;
  beforeAll(async () => {
    pdf = await ledger(PAGES);
    // The text thread started and pdf.js loaded before the timed parses: on a busy machine that
    // alone can take seconds, and what is under test is the deadline, not a cold start.
    await parser.parseFile(await ledger(2), { parsers: [{ type: 'pdf', mode: 'fast' }] });
  }, 60000);
  afterAll(() => parser.close());

  it('returns the pages read before the timeout, with a warning naming the pages left unread', async () => {
    const doc = await parser.parseFile(pdf, { timeout: 4000, parsers: [{ type: 'pdf', mode: 'fast' }] });
    const read = doc.metadata.numPages as number;
    expect(doc.metadata.totalPages).toBe(PAGES);
    // At least the first pages, however busy the machine: the point is that they are kept.
    expect(read).toBeGreaterThanOrEqual(2);
    expect(read).toBeLessThan(PAGES);
    expect(doc.markdown).toContain('Ledger entry 1\n');
    expect(doc.markdown).toContain(`Ledger entry ${read}\n`);
    expect(doc.markdown).not.toContain(`Ledger entry ${PAGES}\n`);
    expect(doc.warning).toMatch(
      new RegExp(
        `ran out of time \\(options\\.timeout 4000 ms\\) before pages [-0-9, ]*${PAGES} could be read; ${read} of ${PAGES} pages are returned`,
      ),
    );
  }, 30000);

  it('in auto mode sends no unread page to OCR', async () => {
    const doc = await parser.parseFile(pdf, { timeout: 4000, parsers: [{ type: 'pdf', mode: 'auto' }] });
    expect(doc.metadata.numPages).toBeLessThan(PAGES);
    expect(doc.warning).toMatch(/ran out of time/);
    expect(doc.warning).not.toMatch(/OCR/);
  }, 30000);

  const hostile = (id: string): Uint8Array =>
    synthetic()
      .find((v) => v.id === `pdf/synthetic/${id}`)!
      .make();

  it('cuts a page that takes longer than its limit and reads the pages after it', async () => {
    // Page 2 has a million unbalanced "q" operators: each save pdf.js makes costs more than the last.
    const out = await PDFDocument.create();
    const [first, last] = await out.copyPages(await PDFDocument.load(await ledger(2)), [0, 1]);
    const [deep] = await out.copyPages(await PDFDocument.load(hostile('content-deep-q')), [0]);
    out.addPage(first!);
    out.addPage(deep!);
    out.addPage(last!);
    // A 12 s timeout gives each page 4 s.
    // In auto mode, so that the cut page, which has no text, would be one to recognise: rendering it
    // would run the same operators, so it is not.
    const doc = await parser.parseFile(await out.save(), {
      timeout: 12000,
      parsers: [{ type: 'pdf', mode: 'auto', blocks: true }],
    });
    expect(doc.metadata.numPages).toBe(3);
    expect(doc.markdown).toContain('Ledger entry 1');
    expect(doc.markdown).toContain('Ledger entry 2');
    expect(String(doc.metadata.error)).toMatch(/page 2: reading the page took longer than 4 s/);
    expect(doc.warning ?? '').not.toMatch(/ran out of time|OCR/);
  }, 30000);

  it('ends pdf.js work on a page it cannot stop (forms drawing forms 2^30 times), and the next parse runs', async () => {
    const err = await parser
      .parseFile(hostile('form-xobject-fanout'), { timeout: 12000, parsers: [{ type: 'pdf', mode: 'auto' }] })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'MALFORMED',
      message: expect.stringMatching(/page 1: reading the page took longer than 4 s/),
    });
    const next = await parser.parseFile(await ledger(3), { timeout: 12000, parsers: [{ type: 'pdf', mode: 'fast' }] });
    expect(next.markdown).toContain('Ledger entry 3');
  }, 30000);

  it('is a TIMEOUT when not even the first page could be read', async () => {
    const deep = hostile('content-deep-q');
    await expect(
      parser.parseFile(deep, { timeout: 1500, parsers: [{ type: 'pdf', mode: 'fast' }] }),
    ).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: expect.stringMatching(/No page of the PDF could be read within options\.timeout \(1500 ms\)/),
    });
  }, 30000);
});
