/**
 * Uneven light evened out before recognition (src/ocr/illumination.ts): a page lit unevenly reads like
 * the same page lit evenly, and pages lit evenly (including one with a shaded table head) are left
 * exactly as they were. fixtures/ocr/unevenlight.pdf is the two pages of scanned.pdf with a book
 * spine's shadow (make.mjs). Needs `npm run build` for the OCR pool.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OCR_FIXTURES, fixturePageGrey, fixtureTruth, scanPdf } from '../test-support/scans.js';
import { evenLight, isNegative, paperMap } from '../src/ocr/illumination.js';
import { DEFAULT_PREPROCESS, otsuLevel } from '../src/ocr/preprocess.js';
import { ParserRuntime } from '../src/runtime/runtime.js';
import { recognizePages } from '../src/ocr/pool.js';
import { ocrPlainText } from '../src/ocr/page.js';
import { cer } from '../test-support/cer.js';

describe('uneven light', () => {
  it('leaves evenly lit pages alone, a shaded table head included', async () => {
    for (const [file, n] of [
      ['scanned.pdf', 1],
      ['scanned.pdf', 2],
      ['table.pdf', 1],
      ['smallprint.pdf', 1],
    ] as const) {
      const p = await fixturePageGrey(file, n);
      const map = paperMap(p.data, p.width, p.height)!;
      // Scanned paper varies by a few grey levels (noise, JPEG); the bound for uneven light is 40.
      expect(map.range, `${file} p${n}`).toBeLessThan(10);
      expect(evenLight(p.data, p.width, p.height), `${file} p${n}`).toBeNull();
    }
    // Too small to tell.
    expect(evenLight(new Uint8Array(40 * 40).fill(200), 40, 40)).toBeNull();
  });

  it('leaves a large shaded area with a sharp edge to the shade finder', () => {
    // White paper, the top third shaded mid grey (a table head or a box far larger than the median's reach).
    const w = 1200;
    const h = 1500;
    const px = new Uint8Array(w * h).fill(245);
    px.fill(160, 0, w * 500);
    const map = paperMap(px, w, h)!;
    expect(map.range).toBeGreaterThan(40);
    expect(evenLight(px, w, h)).toBeNull();
  });

  it('whitens the paper of a page with a spine shadow and keeps its ink', async () => {
    for (const n of [1, 2]) {
      const p = await fixturePageGrey('unevenlight.pdf', n);
      const before = paperMap(p.data, p.width, p.height)!;
      expect(before.range).toBeGreaterThan(100);
      const even = evenLight(p.data, p.width, p.height)!;
      expect(even).not.toBeNull();
      expect(paperMap(even, p.width, p.height)!.range).toBeLessThan(15);
    }
    // The evenly lit page with the same shadow laid over it here: evened out, one threshold separates
    // ink from paper as on the original (at most a few pixels a thousand differ).
    const flat = await fixturePageGrey('scanned.pdf', 1);
    const { width: w, height: h } = flat;
    const shaded = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const t = Math.min(1, x / (0.3 * w));
        shaded[y * w + x] = Math.round(flat.data[y * w + x]! * (0.4 + 0.6 * t * t * (3 - 2 * t)));
      }
    }
    const even = evenLight(shaded, w, h)!;
    expect(even).not.toBeNull();
    const ink = (img: Uint8Array) => {
      const level = otsuLevel(img);
      return Uint8Array.from(img, (v) => (v < level ? 1 : 0));
    };
    const a = ink(flat.data);
    const b = ink(even);
    const c = ink(shaded);
    let differ = 0;
    let differShaded = 0;
    for (let i = 0; i < a.length; i++) {
      if (a[i] !== b[i]) differ++;
      if (a[i] !== c[i]) differShaded++;
    }
    expect(differ / a.length).toBeLessThan(0.003);
    // Without it, the shadow itself passes for ink.
    expect(differShaded / a.length).toBeGreaterThan(0.05);
  });
});

describe('negative pages', () => {
  it('tells a negative from print, however dense or dim', async () => {
    for (const [file, n] of [
      ['scanned.pdf', 1],
      ['scanned.pdf', 2],
      ['table.pdf', 1],
      ['largetable.pdf', 1],
      ['unevenlight.pdf', 1],
    ] as const) {
      const p = await fixturePageGrey(file, n);
      expect(isNegative(p.data, otsuLevel(p.data)), `${file} p${n}`).toBe(false);
      const neg = Uint8Array.from(p.data, (v) => 255 - v);
      expect(isNegative(neg, otsuLevel(neg)), `${file} p${n} negated`).toBe(true);
    }
    // Half the page a black photograph: still print.
    const w = 600;
    const h = 800;
    const px = new Uint8Array(w * h).fill(240);
    px.fill(20, 0, (w * h) / 2);
    expect(isNegative(px, otsuLevel(px))).toBe(false);
  });
});

describe('recognition of unevenly lit and negative pages', () => {
  const runtime = new ParserRuntime({ ocrThreads: 1 });
  afterAll(() => runtime.close());
  const bytes = readFileSync(path.join(OCR_FIXTURES, 'unevenlight.pdf'));
  const truth = JSON.parse(readFileSync(path.join(OCR_FIXTURES, 'unevenlight.truth.json'), 'utf8')) as {
    page: number;
    text: string;
  }[];

  it('reads a page with a spine shadow as well as the evenly lit scan (the bound of test/ocr.test.ts)', async () => {
    const rates = async (evened: boolean) => {
      const results = await recognizePages(runtime, bytes, [1, 2], {
        signal: new AbortController().signal,
        preprocess: { ...DEFAULT_PREPROCESS, evenLight: evened },
      });
      return results.map((r) => cer(ocrPlainText(r.page!), truth[r.pageNumber - 1]!.text));
    };
    const on = await rates(true);
    const off = await rates(false);
    console.log(
      `CER with the light evened out ${on.map((r) => (r * 100).toFixed(2) + '%').join(', ')}; without ${off.map((r) => (r * 100).toFixed(2) + '%').join(', ')}`,
    );
    for (const r of on) expect(r).toBeLessThan(0.015);
    // Without the step, text in the shadow is lost (measured 5.4% and 13.7%).
    expect(Math.max(...off)).toBeGreaterThan(0.03);
  });

  it('reads a negative (white type on black) as the print it shows', async () => {
    // The two-column page of scanned.pdf, negated, as a microfilm scan shows it.
    const p = await fixturePageGrey('scanned.pdf', 2);
    const negative = await scanPdf({ ...p, data: Buffer.from(p.data.map((v) => 255 - v)) });
    const text = fixtureTruth('scanned', 2);
    const rate = async (turn: boolean) => {
      const [r] = await recognizePages(runtime, negative, [1], {
        signal: new AbortController().signal,
        preprocess: { ...DEFAULT_PREPROCESS, evenLight: turn },
        // What turning it positive buys, alone: the plain reading (src/ocr/plain-reading.ts) would read
        // the negative as tesseract does, 0.3% CER here.
        plainCheck: false,
      });
      return cer(r!.page ? ocrPlainText(r!.page) : '', text);
    };
    const on = await rate(true);
    const off = await rate(false);
    console.log(`negative page: CER ${(on * 100).toFixed(2)}% turned positive, ${(off * 100).toFixed(2)}% as it is`);
    expect(on).toBeLessThan(0.015);
    // As it is, tesseract's layout takes most of the black sheet for a picture (measured 70%).
    expect(off).toBeGreaterThan(0.3);
  });
});
