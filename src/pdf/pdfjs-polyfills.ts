/**
 * The few newer built-ins pdf.js's modern build calls that Node 24 lacks, so that the text threads can
 * load it instead of the legacy build. The legacy build carries its own copies of these, but it also
 * always loads `@napi-rs/canvas` (a 35 MB Skia binary) to stand in for DOMMatrix and Path2D, which the
 * text pass never uses (it paints nothing): measured per text thread, about 0.15 CPU s and 40 MB more
 * to load than the modern build.
 *
 * Each follows its specification (TC39 proposals "Uint8Array to/from base64 and hex", "Map.prototype.
 * getOrInsert", "Math.sumPrecise") for the calls pdf.js makes, and is installed only where the built-in is
 * missing; installed only in the text worker threads, whose global scope is theirs alone.
 */

type Base64Options = { alphabet?: 'base64' | 'base64url'; omitPadding?: boolean };

function define(target: object, name: string, value: unknown): void {
  if (name in target) return;
  Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
}

/**
 * The exactly rounded sum of the numbers (Shewchuk's algorithm, as Python's math.fsum): what
 * `Math.sumPrecise` returns. pdf.js sums glyph widths and table column widths with it, where an
 * ordinary running sum could round differently.
 */
export function sumPrecise(values: Iterable<number>): number {
  const partials: number[] = [];
  let finite = true;
  let special = 0;
  let count = 0;
  for (const v of values) {
    if (typeof v !== 'number') throw new TypeError('Math.sumPrecise: every value must be a number');
    count++;
    if (!Number.isFinite(v)) {
      finite = false;
      special += v;
      continue;
    }
    let x = v;
    let i = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  if (!finite) return special;
  if (count === 0) return -0;
  // Sum the partials from the top, rounding the last step half-even as fsum does.
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n]!;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n]!;
    hi = x + y;
    const yr = hi - x;
    lo = y - yr;
    if (lo !== 0) break;
  }
  if (n > 0 && ((lo < 0 && partials[n - 1]! < 0) || (lo > 0 && partials[n - 1]! > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

/**
 * A 2-D `DOMMatrix` for pdf.js's parsing side, which builds one when it turns a Type3 glyph's bitmap
 * into a path (compileType3Glyph: `new DOMMatrix().scaleSelf(...).translateSelf(...)`, then a-f).
 * The legacy build took the canvas binary's; nothing here paints, so only that arithmetic is needed.
 */
export class Matrix2D {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
  constructor(init?: readonly number[]) {
    if (init && init.length === 6)
      [this.a, this.b, this.c, this.d, this.e, this.f] = init as [number, number, number, number, number, number];
    else if (init !== undefined) throw new TypeError('DOMMatrix: only 2-D matrices of six values are supported here');
  }
  /** this = this × [a b c d e f] (post-multiplied, as DOMMatrix's *Self methods do). */
  private times(a: number, b: number, c: number, d: number, e: number, f: number): this {
    const { a: a0, b: b0, c: c0, d: d0, e: e0, f: f0 } = this;
    this.a = a0 * a + c0 * b;
    this.b = b0 * a + d0 * b;
    this.c = a0 * c + c0 * d;
    this.d = b0 * c + d0 * d;
    this.e = a0 * e + c0 * f + e0;
    this.f = b0 * e + d0 * f + f0;
    return this;
  }
  scaleSelf(sx = 1, sy = sx): this {
    return this.times(sx, 0, 0, sy, 0, 0);
  }
  translateSelf(tx = 0, ty = 0): this {
    return this.times(1, 0, 0, 1, tx, ty);
  }
  multiplySelf(m: { a: number; b: number; c: number; d: number; e: number; f: number }): this {
    return this.times(m.a, m.b, m.c, m.d, m.e, m.f);
  }
}

/** Whether the built-ins pdf.js's modern build needs beyond Node 24's are here (natively or installed). */
export function modernPdfjsReady(): boolean {
  const has = (o: object, name: string): boolean => typeof (o as Record<string, unknown>)[name] === 'function';
  return (
    has(Uint8Array.prototype, 'toHex') &&
    has(Uint8Array.prototype, 'toBase64') &&
    has(Uint8Array, 'fromBase64') &&
    has(Map.prototype, 'getOrInsert') &&
    has(Map.prototype, 'getOrInsertComputed') &&
    has(WeakMap.prototype, 'getOrInsertComputed') &&
    has(Math, 'sumPrecise') &&
    typeof (globalThis as { DOMMatrix?: unknown }).DOMMatrix === 'function'
  );
}

/** Installs the missing built-ins (where pdf.js's modern build is to run: the text threads). */
export function installPdfjsPolyfills(): void {
  define(Uint8Array.prototype, 'toHex', function toHex(this: Uint8Array): string {
    return Buffer.from(this.buffer, this.byteOffset, this.byteLength).toString('hex');
  });
  define(Uint8Array.prototype, 'toBase64', function toBase64(this: Uint8Array, options: Base64Options = {}): string {
    const buf = Buffer.from(this.buffer, this.byteOffset, this.byteLength);
    let s = buf.toString(options.alphabet === 'base64url' ? 'base64url' : 'base64');
    // Buffer's base64url leaves the padding out; base64 keeps it.
    if (options.alphabet === 'base64url' && !options.omitPadding) s += '='.repeat((4 - (s.length % 4)) % 4);
    if (options.alphabet !== 'base64url' && options.omitPadding) s = s.replace(/=+$/, '');
    return s;
  });
  define(Uint8Array, 'fromBase64', function fromBase64(input: string, options: Base64Options = {}): Uint8Array {
    if (typeof input !== 'string') throw new TypeError('Uint8Array.fromBase64: expected a string');
    const clean = input.replace(/[\t\n\f\r ]/g, '');
    const chars = options.alphabet === 'base64url' ? /^[A-Za-z0-9_-]*={0,2}$/ : /^[A-Za-z0-9+/]*={0,2}$/;
    if (!chars.test(clean) || clean.replace(/=+$/, '').length % 4 === 1)
      throw new SyntaxError('Uint8Array.fromBase64: not base64');
    const buf = Buffer.from(clean, options.alphabet === 'base64url' ? 'base64url' : 'base64');
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength).slice();
  });
  for (const proto of [Map.prototype, WeakMap.prototype] as unknown as Record<string, unknown>[]) {
    define(proto, 'getOrInsert', function getOrInsert(this: Map<unknown, unknown>, key: unknown, value: unknown) {
      if (!this.has(key)) this.set(key, value);
      return this.get(key);
    });
    define(
      proto,
      'getOrInsertComputed',
      function getOrInsertComputed(this: Map<unknown, unknown>, key: unknown, compute: (key: unknown) => unknown) {
        if (this.has(key)) return this.get(key);
        const value = compute(key);
        this.set(key, value);
        return value;
      },
    );
  }
  define(Math, 'sumPrecise', sumPrecise);
  define(globalThis, 'DOMMatrix', Matrix2D);
}

/**
 * Loads pdf.js's modern build without the warning it prints on loading in Node ("Please use the legacy
 * build"), which is about the built-ins above; other warnings pass.
 */
export async function quietly<T>(load: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('Please use the `legacy` build')) return;
    warn.apply(console, args);
  };
  try {
    return await load();
  } finally {
    console.warn = warn;
  }
}
