/**
 * The built-ins the text threads give pdf.js's modern build (src/pdf/pdfjs-polyfills.ts), checked against
 * their specifications' results; whether the build then reads PDFs alike is the PDF tests' and the output
 * digest's business.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { Matrix2D, sumPrecise } from '../src/pdf/pdfjs-polyfills.js';

describe('pdf.js modern-build built-ins', () => {
  it('sums exactly, rounding once, as Math.sumPrecise does', () => {
    expect(sumPrecise([0.1, 0.2, 0.3])).toBe(0.6);
    expect(0.1 + 0.2 + 0.3).not.toBe(0.6);
    expect(sumPrecise([1e20, 1, -1e20])).toBe(1);
    expect(sumPrecise([1, 1e100, 1, -1e100])).toBe(2);
    expect(sumPrecise([2 ** 53, 1, 1])).toBe(2 ** 53 + 2);
    expect(sumPrecise([3, 4, 5])).toBe(12);
    expect(Object.is(sumPrecise([]), -0)).toBe(true);
    expect(Object.is(sumPrecise([-0, -0]), -0)).toBe(true);
    expect(Object.is(sumPrecise([-0, 0]), 0)).toBe(true);
    expect(sumPrecise([Infinity, 1])).toBe(Infinity);
    expect(sumPrecise([Infinity, -Infinity])).toBeNaN();
    expect(sumPrecise([NaN, 1])).toBeNaN();
    expect(() => sumPrecise(['1' as unknown as number])).toThrow(TypeError);
  });

  it('computes the 2-D matrix pdf.js asks for a Type3 bitmap glyph, as DOMMatrix does', () => {
    const m = new Matrix2D().scaleSelf(1 / 8, -1 / 4).translateSelf(0, -4);
    expect([m.a, m.b, m.c, m.d, m.e, m.f]).toEqual([0.125, 0, 0, -0.25, 0, 1]);
    const r = new Matrix2D([0, 1, -1, 0, 10, 20]).multiplySelf(new Matrix2D([2, 0, 0, 3, 1, 1]));
    expect([r.a, r.b, r.c, r.d, r.e, r.f]).toEqual([0, 2, -3, 0, 9, 21]);
  });

  it('gives a thread base64, hex and getOrInsert as specified, and leaves built-ins that exist alone', async () => {
    const script = `
      const { parentPort } = require('node:worker_threads');
      const hadSumPrecise = typeof Math.sumPrecise === 'function';
      import(${JSON.stringify(new URL('../dist/src/pdf/pdfjs-polyfills.js', import.meta.url).href)}).then((p) => {
        const ready = p.modernPdfjsReady();
        p.installPdfjsPolyfills();
        const bytes = new Uint8Array([0, 1, 254, 255, 104, 105]);
        const m = new Map([['a', 1]]);
        const w = new WeakMap();
        const k = {};
        parentPort.postMessage({
          before: ready,
          after: p.modernPdfjsReady(),
          hex: bytes.toHex(),
          b64: bytes.toBase64(),
          b64url: bytes.subarray(2, 4).toBase64({ alphabet: 'base64url' }),
          b64nopad: bytes.subarray(0, 1).toBase64({ omitPadding: true }),
          back: [...Uint8Array.fromBase64('AAH+/2hp')],
          bad: (() => { try { Uint8Array.fromBase64('A*'); return 'no error'; } catch (e) { return e.name; } })(),
          got: [m.getOrInsert('a', 2), m.getOrInsert('b', 3), m.getOrInsertComputed('c', (key) => key + '!'), m.get('b')],
          weak: [w.getOrInsertComputed(k, () => 7), w.getOrInsert(k, 8)],
          hadSumPrecise,
        });
      });`;
    const got = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const w = new Worker(script, { eval: true });
      w.once('message', (m: Record<string, unknown>) => {
        resolve(m);
        void w.terminate();
      });
      w.once('error', reject);
    });
    // Node 24 lacks them (when a Node has them, nothing is installed and the build runs on its own).
    if (!got['hadSumPrecise']) expect(got['before']).toBe(false);
    expect(got['after']).toBe(true);
    expect(got['hex']).toBe('0001feff6869');
    expect(got['b64']).toBe('AAH+/2hp');
    expect(got['b64url']).toBe('_v8=');
    expect(got['b64nopad']).toBe('AA');
    expect(got['back']).toEqual([0, 1, 254, 255, 104, 105]);
    expect(got['bad']).toBe('SyntaxError');
    expect(got['got']).toEqual([1, 3, 'c!', 3]);
    expect(got['weak']).toEqual([7, 7]);
  });
});
