/**
 * Images that declare far more pixels than they show (fixtures/pdf/hostile-images.pdf, made by
 * fixtures/pdf/make-hostile-images.mjs): a 48 × 6 banner under a 34,862 × 4,332 /SMask, the same under
 * a /Mask of that size, and a 48 × 6 picture whose JPEG frame says 34,862 × 4,332. pdf.js checks only an
 * image's own size against its limit; src/pdf/image-gate.ts reads the rest before pdf.js does. The
 * slides' text is read, their pictures placed, and no pixel of the masks or the JPEG frame decoded.
 * Memory is measured in a child process (peak RSS), not time: each run must complete and stay bounded.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createParser } from '../src/parser.js';
import { costlyImageEdits, jpegPixels, jpxPixels } from '../src/pdf/image-gate.js';
import { PdfObjects } from '../src/pdf/pdf-objects.js';
import { openPdf } from '../src/pdf/pdfjs.js';
import { extractPage, type PdfPage } from '../src/pdf/extract.js';
import { needsOcr } from '../src/pdf/needs-ocr.js';
import { openForRender, renderPage, MAX_RENDER_IMAGE_PIXELS, RENDER_PAGE_IMAGE_PIXELS } from '../src/ocr/render.js';
import { buildPdf, stream } from '../test-support/hostile/pdf.js';
import { REPO_ROOT } from '../test-support/corpus.js';

const FIXTURES = path.join(REPO_ROOT, 'fixtures', 'pdf');
const FILE = path.join(FIXTURES, 'hostile-images.pdf');
const bytes = new Uint8Array(readFileSync(FILE));

const parser = createParser();
afterAll(() => parser.close());

describe('images that declare more pixels than they show', () => {
  it('are found before pdf.js reads them: the masks lose their key, the JPEG its image subtype', () => {
    for (const limit of [4096, MAX_RENDER_IMAGE_PIXELS]) {
      const edits = costlyImageEdits(new PdfObjects(bytes), limit);
      expect(edits.map((e) => [e.was, e.text])).toEqual([
        ['/SMask', '/XMask'],
        ['/Mask', '/Xask'],
        ['/Image', '/PS   '],
      ]);
      const latin = Buffer.from(bytes).toString('latin1');
      for (const e of edits) expect(latin.slice(e.offset, e.offset + e.was.length)).toBe(e.was);
    }
  });

  it('leave every other fixture PDF as it is, for the text pass and for the OCR render', () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.pdf') && f !== 'hostile-images.pdf');
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const objects = new PdfObjects(new Uint8Array(readFileSync(path.join(FIXTURES, f))));
      expect(costlyImageEdits(objects, 4096), f).toEqual([]);
      expect(costlyImageEdits(objects, MAX_RENDER_IMAGE_PIXELS, RENDER_PAGE_IMAGE_PIXELS), f).toEqual([]);
    }
  });

  it('are held to a budget for each page the OCR render draws', () => {
    // Pages of 960 × 540 drawing the images named; the images' data is never read, only their dictionaries.
    const image = (w: number, h: number, extra = '') =>
      stream(`/Type /XObject /Subtype /Image /Width ${w} /Height ${h} ${extra} /Filter /FlateDecode`, 'x');
    const colour = (side: number) => image(side, side, '/ColorSpace /DeviceRGB /BitsPerComponent 8');
    const make = (pages: string[][], images: Uint8Array[], shared = false) => {
      const first = 3 + pages.length;
      const xobjects = (names: string[]) =>
        `<< /XObject << ${names.map((n) => `/${n} ${first + Number(n.slice(2))} 0 R`).join(' ')} >> >>`;
      const all = [...new Set(pages.flat())];
      return buildPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        `<< /Type /Pages /Count ${pages.length} /Kids [${pages.map((_, i) => `${3 + i} 0 R`).join(' ')}] ${shared ? `/Resources ${xobjects(all)}` : ''} >>`,
        ...pages.map(
          (names) =>
            `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 960 540] ${shared ? '' : `/Resources ${xobjects(names)}`} >>`,
        ),
        ...images,
      ]);
    };
    const left = (pdf: Uint8Array) =>
      costlyImageEdits(new PdfObjects(pdf), MAX_RENDER_IMAGE_PIXELS, RENDER_PAGE_IMAGE_PIXELS).map((e) => e.was);
    const three = [colour(4900), colour(4900), colour(4900)];
    // Three 24-megapixel pictures on one page: two are left out; one on each of three pages: none.
    expect(left(make([['Im0', 'Im1', 'Im2']], three))).toEqual(['/Image', '/Image']);
    expect(left(make([['Im0'], ['Im1'], ['Im2']], three))).toEqual([]);
    // One resources dictionary shared by every page says nothing of what each page draws.
    expect(left(make([['Im0'], ['Im1'], ['Im2']], three, true))).toEqual([]);
    // One picture past the budget alone, or a black-and-white scan of 600 dpi A3 (past the 64 MP bound).
    expect(left(make([['Im0']], [colour(5600)]))).toEqual(['/Image']);
    expect(left(make([['Im0']], [image(7016, 9921, '/ColorSpace /DeviceGray /BitsPerComponent 1')]))).toEqual([]);
    // A black-and-white scan of 600 dpi A4 (counted at a third) is kept, and a 9-megapixel picture
    // beside it; a 16-megapixel picture beside it would pass the budget, and is left out, not the scan.
    const bilevel = image(4961, 7016, '/ColorSpace /DeviceGray /BitsPerComponent 1');
    expect(left(make([['Im0', 'Im1']], [bilevel, colour(3000)]))).toEqual([]);
    const pdf = make([['Im0', 'Im1']], [bilevel, colour(4000)]);
    const edits = costlyImageEdits(new PdfObjects(pdf), MAX_RENDER_IMAGE_PIXELS, RENDER_PAGE_IMAGE_PIXELS);
    expect(edits).toHaveLength(1);
    const at = edits[0]!.offset;
    expect(Buffer.from(pdf.subarray(at, at + 40)).toString('latin1')).toBe('/Image /Width 4000 /Height 4000 /ColorSp');
  });

  it('read frame sizes from JPEG and JPEG 2000 headers', () => {
    // SOI, then SOF0 of 8-bit, height 4332, width 34862, one component.
    const sof = [0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0x10, 0xec, 0x88, 0x2e, 1, 1, 0x11, 0];
    expect(jpegPixels(Uint8Array.from(sof))).toBe(34862 * 4332);
    // An APP0 segment before the frame is stepped over.
    const app0 = [0xff, 0xe0, 0, 4, 0, 0];
    expect(jpegPixels(Uint8Array.from([...sof.slice(0, 2), ...app0, ...sof.slice(2)]))).toBe(34862 * 4332);
    expect(jpegPixels(Uint8Array.from([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    // SOC, SIZ: Lsiz, Rsiz, Xsiz 40000, Ysiz 30000, XOsiz 0, YOsiz 0.
    const u32 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
    const siz = [0xff, 0x4f, 0xff, 0x51, 0, 41, 0, 0, ...u32(40000), ...u32(30000), ...u32(0), ...u32(0)];
    expect(jpxPixels(Uint8Array.from([0, 0, 0, 12, ...siz]))).toBe(40000 * 30000);
  });

  it('are decoded at their own size in the text pass, and still placed', async () => {
    const opened = await openPdf(bytes);
    try {
      for (const n of [1, 2, 3]) {
        const page = (await opened.doc.getPage(n)) as PdfPage & {
          getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[][] }>;
          objs: { get(id: string, cb: (data: { width: number; height: number } | null) => void): void };
        };
        const input = await extractPage(page, n);
        expect(input.items.map((i) => i.text).join(' ')).toMatch(/^(Quarterly review|Product roadmap|Next steps)/);
        // The banner across the top of the slide: 960 × 119 points from the top edge.
        expect(input.images).toEqual([expect.objectContaining({ x0: 0, y0: 0, x1: 960, y1: 119 })]);
        expect(needsOcr(input)).toMatchObject({ needed: false, reason: 'native-text' });
        // What pdf.js decoded for the page's images: the banner at 48 × 6, never at the mask's size.
        const ops = await page.getOperatorList();
        const ids = ops.argsArray.filter((a, i) => ops.fnArray[i] === 85).map((a) => (a as unknown[])[0] as string);
        expect(ids).toHaveLength(n === 3 ? 0 : 1);
        for (const id of ids) {
          const img = await new Promise<{ width: number; height: number } | null>((resolve) =>
            page.objs.get(id, resolve),
          );
          expect([img?.width, img?.height]).toEqual([48, 6]);
        }
      }
    } finally {
      await opened.destroy();
    }
  });

  it('are rendered for OCR at their own size: the page render stays the page render', async () => {
    const doc = await openForRender(bytes);
    try {
      const page = await renderPage(doc, 2, { dpi: 150, maxPixels: 12_000_000 });
      // 960 × 540 points at 150 dpi.
      expect(page.width).toBeGreaterThanOrEqual(2000);
      expect(page.width).toBeLessThanOrEqual(2001);
      expect(page.height).toBe(1125);
      // The banner is drawn (grey 0x80, unmasked) and the text below it too.
      const at = (x: number, y: number) => page.rgba[(y * page.width + x) * 4]!;
      expect(at(1000, 100)).toBe(0x80);
      let dark = 0;
      for (let y = 300; y < 1000; y++) for (let x = 0; x < page.width; x += 4) if (at(x, y) < 100) dark++;
      expect(dark).toBeGreaterThan(1000);
    } finally {
      await doc.loadingTask.destroy();
    }
  });

  it('cost the parse little memory, in fast and auto mode and with every page recognised', () => {
    // Recognition takes its time on a busy machine: no deadline of the parse's own, two pages in OCR mode.
    const run = (mode: string, maxPages = 3): { markdown: string; rssMb: number } => {
      const script = `
        const { createParser } = await import(${JSON.stringify(path.join(REPO_ROOT, 'dist', 'src', 'parser.js'))});
        const parser = createParser();
        const doc = await parser.parseFile(new Uint8Array(require('node:fs').readFileSync(${JSON.stringify(FILE)})), { timeout: 300000, parsers: [{ type: 'pdf', mode: '${mode}', maxPages: ${maxPages} }] }, { filename: 'hostile-images.pdf' });
        await parser.close();
        process.stdout.write(JSON.stringify({ markdown: doc.markdown, rssMb: process.resourceUsage().maxRSS / 1024 }));
      `;
      const out = execFileSync(process.execPath, ['--input-type=commonjs', '-e', `(async () => {${script}})()`], {
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      });
      return JSON.parse(out) as { markdown: string; rssMb: number };
    };
    const fast = run('fast');
    for (const title of ['Quarterly review', 'Product roadmap', 'Next steps']) expect(fast.markdown).toContain(title);
    // Before the masks and the JPEG frame were read first: 1.2 GB and a page cut at its time limit.
    expect(fast.rssMb).toBeLessThan(400);
    // Auto mode keeps the text layer, which reads as text: no page recognised, the same markdown.
    const auto = run('auto');
    expect(auto.markdown).toBe(fast.markdown);
    expect(auto.rssMb).toBeLessThan(400);
    const ocr = run('ocr', 2);
    expect(ocr.markdown).toMatch(/Quarterly review/);
    expect(ocr.markdown).toMatch(/Product roadmap/);
    expect(ocr.rssMb).toBeLessThan(1200);
  }, 900_000);
});
