/**
 * redactPII covers every member that carries the document's text: the metadata's title, description,
 * author, keywords and other text fields too, not only the markdown. And a redacted address stops at the
 * end of its paragraph.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { detect } from '../src/redact/detect.js';
import { redactMarkdown } from '../src/redact/markdown.js';
import { createParser } from '../src/parser.js';
import { PII_ENTITIES } from '../src/options/schema.js';

const parser = createParser({ textThreads: 1 });
afterAll(() => parser.close());

const PII = ['Angela Lundström', 'angela@example.se', '+46 8 123 456 78', '4111 1111 1111 1111'];

function expectNoPii(value: unknown, where: string): void {
  const text = JSON.stringify(value);
  for (const pii of PII) expect(text, `${where} still holds ${pii}`).not.toContain(pii);
}

describe('metadata under redactPII', () => {
  it('HTML: title, description, author, keywords and other meta tags are redacted', async () => {
    const html =
      '<html><head><title>Letter from Angela Lundström</title>' +
      '<meta name="description" content="Write to angela@example.se or call +46 8 123 456 78.">' +
      '<meta name="author" content="Angela Lundström">' +
      '<meta name="keywords" content="invoice, angela@example.se, card 4111 1111 1111 1111">' +
      '<meta property="og:title" content="Letter from Angela Lundström">' +
      '</head><body><main><p>Dear customer, the invoice is attached.</p></main></body></html>';
    const doc = await parser.parseFile(
      new TextEncoder().encode(html),
      { redactPII: true },
      { filename: 'letter.html' },
    );
    expectNoPii(doc.metadata, 'metadata');
    expect(doc.metadata.title).toBe('Letter from <PERSON>');
    expect(String(doc.metadata['author'])).toBe('<PERSON>');
    expect(JSON.stringify(doc.metadata.keywords)).toContain('<EMAIL>');
    // What describes the file rather than its text is kept.
    expect(doc.metadata.contentType).toMatch(/text\/html/);
    expect(doc.metadata.sourceURL).toBe('letter.html');
  });

  it('PDF: the document information (title, author, subject, keywords) is redacted', async () => {
    const pdf = await PDFDocument.create();
    pdf.setTitle('Statement for Angela Lundström');
    pdf.setAuthor('Angela Lundström');
    pdf.setSubject('Card 4111 1111 1111 1111');
    pdf.setKeywords(['angela@example.se']);
    const page = pdf.addPage([300, 200]);
    page.drawText('Monthly statement', { x: 20, y: 150, size: 14, font: await pdf.embedFont(StandardFonts.Helvetica) });
    const doc = await parser.parseFile(await pdf.save(), {
      redactPII: { mode: 'fast' },
      parsers: [{ type: 'pdf', mode: 'fast' }],
    });
    expectNoPii(doc.metadata, 'metadata');
    expect(doc.metadata.numPages).toBe(1);
    expect(doc.metadata.contentType).toBe('application/pdf');
  });

  it('without redactPII the metadata is left as it is', async () => {
    const doc = await parser.parseFile(
      new TextEncoder().encode(
        '<html><head><title>Letter from Angela Lundström</title></head><body><p>x</p></body></html>',
      ),
      {},
      { filename: 'a.html' },
    );
    expect(doc.metadata.title).toBe('Letter from Angela Lundström');
  });
});

describe('an address ends with its paragraph', () => {
  const all = { entities: PII_ENTITIES };
  it.each([
    ['Ship to 1600 Pennsylvania Avenue NW\nWashington, DC 20500\n\nSuite 300\n\nDelivery on weekdays.', 'Suite 300'],
    ['Our office: 12 High Street, Oxford OX1 4AA\n\nNorth Wing\n\nVisitors sign in at the desk.', 'North Wing'],
    ['Write to 12 High Street, Oxford OX1 4AA\n>\n> North Wing is closed.', 'North Wing'],
  ])('%j keeps the next block', (text, next) => {
    for (const mode of ['fast', 'accurate', 'aggressive'] as const) {
      const found = detect(text, { mode, ...all }).filter((d) => d.entity === 'LOCATION');
      expect(found.length, mode).toBeGreaterThan(0);
      for (const d of found) expect(text.slice(d.start, d.end), mode).not.toMatch(/\n[ \t>]*\n/);
      const { markdown } = redactMarkdown(text, { mode, ...all }, 'tag');
      // (Aggressive mode may take the next line's capitalised words for a name of their own: that is its recall.)
      if (mode !== 'aggressive') expect(markdown, mode).toContain(next);
      expect(markdown.split(/\n[ \t>]*\n/).length, mode).toBe(text.split(/\n[ \t>]*\n/).length);
      expect(markdown, mode).not.toContain('High Street');
      expect(markdown, mode).not.toContain('Pennsylvania');
    }
  });

  it('an address over two lines of one paragraph is still one span', () => {
    const text = 'Ship to 1600 Pennsylvania Avenue NW\nWashington, DC 20500\n\nThanks.';
    const { markdown } = redactMarkdown(text, { mode: 'fast', ...all }, 'tag');
    expect(markdown).toBe('Ship to <LOCATION>\n\nThanks.');
  });
});
