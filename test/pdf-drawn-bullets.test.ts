/**
 * Bullets drawn as paths (browsers print a list's discs and squares so, and so do report writers)
 * instead of set as glyphs: the extractor keeps small filled marks as `dots`, and the layout takes
 * those standing before lines of text as their items' bullets. Needs `npm run build` (the text pool
 * loads dist/workers).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { createParser } from '../src/parser.js';

const parser = createParser();
afterAll(() => parser.close());

const ITEMS = ['Check the tickets before boarding.', 'Keep the luggage in the racks.', 'Report a delay to the guard.'];

/** A page with a paragraph, then a list whose bullets are drawn: discs (curves) or squares. */
async function listPdf(shape: 'disc' | 'square' | 'none', markers = 0): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.drawText('Before you travel, read the notes below with care.', { x: 66, y: 720, size: 11, font });
  ITEMS.forEach((t, k) => {
    const y = 690 - k * 18;
    page.drawText(t, { x: 80, y, size: 11, font });
    if (shape === 'disc') page.drawCircle({ x: 71, y: y + 3.5, size: 1.6, color: rgb(0, 0, 0) });
    if (shape === 'square') page.drawRectangle({ x: 69.5, y: y + 2, width: 3, height: 3, color: rgb(0, 0, 0) });
  });
  // A chart's markers: hundreds of small discs, none of them a bullet.
  for (let k = 0; k < markers; k++)
    page.drawCircle({ x: 100 + (k % 40) * 10, y: 300 + Math.floor(k / 40) * 10, size: 1.5, color: rgb(0.2, 0.2, 0.8) });
  return pdf.save();
}

const fast = async (bytes: Uint8Array): Promise<string> =>
  (await parser.parseFile(bytes, { parsers: [{ type: 'pdf', mode: 'fast' }] })).markdown ?? '';

describe('bullets drawn as paths', () => {
  it('discs drawn before the lines of a list make it a bulleted list', async () => {
    const md = await fast(await listPdf('disc'));
    expect(md).toContain(ITEMS.map((t) => `- ${t}`).join('\n'));
    expect(md).toContain('Before you travel, read the notes below with care.\n\n- Check');
  });

  it('small filled squares do too', async () => {
    expect(await fast(await listPdf('square'))).toContain(ITEMS.map((t) => `- ${t}`).join('\n'));
  });

  it('without them the lines stay text', async () => {
    expect(await fast(await listPdf('none'))).not.toMatch(/^- /m);
  });

  it('a page of hundreds of drawn markers (a chart) gives none of them as bullets', async () => {
    expect(await fast(await listPdf('disc', 480))).not.toMatch(/^- /m);
  });
});
