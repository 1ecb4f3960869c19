/**
 * Pages strewn with specks smoothed before recognition (src/ocr/specks.ts): the speck test must leave
 * every clean fixture page alone (their sensor noise, grain and shaded fills are not specks) and find
 * salt-and-pepper noise; a speckled page then reads within the error bound of test/ocr.test.ts.
 * Needs `npm run build` for the OCR pool.
 */
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { fixturePageGrey, fixtureTruth, scanPdf, type GreyPage } from '../test-support/scans.js';
import { speckled } from '../src/ocr/specks.js';
import { DEFAULT_PREPROCESS, otsuLevel } from '../src/ocr/preprocess.js';
import { ParserRuntime } from '../src/runtime/runtime.js';
import { recognizePages } from '../src/ocr/pool.js';
import { ocrPlainText } from '../src/ocr/page.js';
import { cer } from '../test-support/cer.js';

/** `share` of the pixels turned black and as many white (seeded), then JPEG-compressed as a scan would be. */
async function pepper(page: GreyPage, share: number): Promise<GreyPage> {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 0x100000000;
  const data = Buffer.from(page.data);
  for (let i = 0; i < data.length; i++) {
    const r = rand();
    if (r < share) data[i] = 0;
    else if (r < 2 * share) data[i] = 255;
  }
  const jpeg = await sharp(data, { raw: { width: page.width, height: page.height, channels: 1 } })
    .jpeg({ quality: 80 })
    .toBuffer();
  return { ...page, data: await sharp(jpeg).toColourspace('b-w').raw().toBuffer() };
}

const PAGES = [
  ['scanned.pdf', 1],
  ['scanned.pdf', 2],
  ['table.pdf', 1],
  ['smallprint.pdf', 1],
  ['tinyprint.pdf', 1],
  ['largetable.pdf', 1],
  ['unevenlight.pdf', 1],
] as const;

describe('specks', () => {
  it('finds salt-and-pepper noise and nothing on clean scans, small print and shaded fills included', async () => {
    for (const [file, n] of PAGES) {
      const p = await fixturePageGrey(file, n);
      expect(speckled(p.data, p.width, p.height, otsuLevel(p.data)), `${file} p${n}`).toBe(false);
      const noisy = await pepper(p, 0.005);
      expect(speckled(noisy.data, noisy.width, noisy.height, otsuLevel(noisy.data)), `${file} p${n} with specks`).toBe(
        true,
      );
    }
  });
});

describe('recognition of speckled pages', () => {
  const runtime = new ParserRuntime({ ocrThreads: 1 });
  afterAll(() => runtime.close());

  it('reads a page strewn with specks within the error bound once smoothed', async () => {
    const bytes = await scanPdf(await pepper(await fixturePageGrey('scanned.pdf', 2), 0.02));
    const text = fixtureTruth('scanned', 2);
    const rate = async (despeckle: boolean) => {
      const [r] = await recognizePages(runtime, bytes, [1], {
        signal: new AbortController().signal,
        preprocess: { ...DEFAULT_PREPROCESS, despeckle },
      });
      return cer(r!.page ? ocrPlainText(r!.page) : '', text);
    };
    const on = await rate(true);
    const off = await rate(false);
    console.log(`speckled page: CER ${(on * 100).toFixed(2)}% smoothed, ${(off * 100).toFixed(2)}% as it is`);
    expect(on).toBeLessThan(0.015);
    // As it is, specks come out as stray marks (measured about 2.9%).
    expect(off).toBeGreaterThan(0.015);
  });
});
