/**
 * Pages under /Rotate: the page size and every block box are reported in the frame the page is displayed
 * in (pdf.js's viewport), so that boxes drawn over the rendered page land on its text. The fixture is made
 * by fixtures/pdf/make-rotated.mjs: pages 1 and 2 turn upright text sideways (/Rotate 90 and 270), page 3
 * is a landscape page whose text is drawn to read upright under /Rotate 90.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createParser } from '../src/parser.js';
import { openForRender, renderPage, type RenderedPage } from '../src/ocr/render.js';
import type { LayoutPage } from '../src/types.js';
import { FIXTURES_DIR } from '../test-support/fixtures.js';

const bytes = new Uint8Array(readFileSync(path.join(FIXTURES_DIR, 'pdf', 'rotated.pdf')));
const parser = createParser({ textThreads: 1 });
afterAll(() => parser.close());

/** Which pixels carry ink. */
function inkOf(r: RenderedPage): Uint8Array {
  const ink = new Uint8Array(r.width * r.height);
  for (let i = 0; i < ink.length; i++) {
    const lum = (r.rgba[i * 4]! + r.rgba[i * 4 + 1]! + r.rgba[i * 4 + 2]!) / 3;
    ink[i] = lum < 128 ? 1 : 0;
  }
  return ink;
}

describe('rotated pages', async () => {
  const doc = await parser.parseFile(bytes, { parsers: [{ type: 'pdf', mode: 'fast', blocks: true }] });
  const pdf = await openForRender(bytes);
  const rendered: RenderedPage[] = [];
  for (const n of [1, 2, 3]) rendered.push(await renderPage(pdf, n, { dpi: 144, maxPixels: 1e8 }));
  await pdf.loadingTask.destroy();

  it('reads the text of every page in order', () => {
    expect(doc.markdown).toMatch(/# Inspection report, turned clockwise\n\nThe inspection covered/);
    expect(doc.markdown).toMatch(/# Inspection report, turned anticlockwise\n\nThe inspection covered/);
    expect(doc.markdown).toMatch(/# Landscape summary\n\nThe inspection covered/);
  });

  it.each([1, 2, 3])('page %i: the size is the displayed size', (n) => {
    const page = doc.blocks![n - 1]!;
    const r = rendered[n - 1]!;
    expect([r.rotation, r.pageWidth, r.pageHeight]).toEqual([n === 2 ? 270 : 90, 595, 420]);
    expect([page.width, page.height]).toEqual([r.pageWidth, r.pageHeight]);
  });

  it.each([1, 2, 3])('page %i: every box lies on the rendered text, and the text lies in the boxes', (n) => {
    const page: LayoutPage = doc.blocks![n - 1]!;
    const r = rendered[n - 1]!;
    const ink = inkOf(r);
    const total = ink.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(1000);
    const covered = new Uint8Array(ink.length);
    const pad = 3;
    expect(page.items.length).toBe(3);
    for (const block of page.items) {
      const [x0, y0, x1, y1] = block.bbox!;
      const px0 = Math.max(0, Math.floor(x0 * r.width) - pad);
      const px1 = Math.min(r.width, Math.ceil(x1 * r.width) + pad);
      const py0 = Math.max(0, Math.floor(y0 * r.height) - pad);
      const py1 = Math.min(r.height, Math.ceil(y1 * r.height) + pad);
      let inside = 0;
      for (let y = py0; y < py1; y++)
        for (let x = px0; x < px1; x++) {
          const i = y * r.width + x;
          inside += ink[i]!;
          covered[i] = 1;
        }
      // A box over blank paper is a box in the wrong frame.
      const area = (px1 - px0) * (py1 - py0);
      expect(inside / area, `${block.id} ${block.content.slice(0, 20)}`).toBeGreaterThan(0.05);
    }
    let inBoxes = 0;
    for (let i = 0; i < ink.length; i++) if (ink[i] && covered[i]) inBoxes++;
    expect(inBoxes / total).toBeGreaterThan(0.98);
  });
});
