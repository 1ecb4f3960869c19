/**
 * A small, bounded reader of PDF objects: just enough to reach a page's dictionary, its resources and
 * the encoded bytes of an image stream, so a scanned page's JPEG can be decoded natively instead of by
 * pdf.js in JavaScript. It never repairs anything: whatever it cannot read plainly (an unknown filter,
 * a broken stream length, a reference loop, too many objects) makes it return null, and the caller
 * renders the page with pdf.js as before.
 *
 * Objects are located by scanning the file for `N G obj` (as pdf.js does when it rebuilds a damaged
 * cross-reference table), the last definition winning as an incremental update would; objects inside
 * object streams are found by reading those streams. Image streams cannot live in object streams, so
 * the images themselves are always reached directly.
 */
import { inflateSync } from 'node:zlib';

export type PdfValue = number | boolean | null | string | PdfName | PdfRef | PdfValue[] | PdfDict | PdfStream;

export class PdfName {
  constructor(readonly name: string) {}
}
export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
export class PdfDict {
  constructor(readonly map: Map<string, PdfValue>) {}
  get(key: string): PdfValue | undefined {
    return this.map.get(key);
  }
}
export class PdfStream {
  constructor(
    readonly dict: PdfDict,
    readonly start: number,
    readonly length: number,
  ) {}
}

/** Limits that keep a hostile file from costing more than a pdf.js render would. */
const MAX_DEPTH = 32;
const MAX_ITEMS = 100_000;
const MAX_OBJECT_STREAMS = 2_000;
const MAX_INFLATED = 32 * 1024 * 1024;
/**
 * Object streams inflated to find where objects are, all told: a real document's come to a few
 * megabytes; two thousand small streams that each inflate to the per-stream limit would cost a
 * minute of one thread (the text pass reads a page's annotations this way, for every document).
 */
const MAX_INDEX_INFLATED = 64 * 1024 * 1024;

class Bail extends Error {}
const bail = (why: string): never => {
  throw new Bail(why);
};

const WS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WS[c] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;

/** Tokeniser and value parser over a byte buffer. */
export class PdfLexer {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    pos = 0,
    readonly end = buf.length,
  ) {
    this.pos = pos;
  }

  skipWs(): void {
    const b = this.buf;
    while (this.pos < this.end) {
      const c = b[this.pos]!;
      if (WS[c]) this.pos++;
      else if (c === 0x25) {
        while (this.pos < this.end && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      } else break;
    }
  }

  /** A bare word (operator, keyword or number) at the current position, without consuming it. */
  peekWord(): string {
    this.skipWs();
    let p = this.pos;
    while (p < this.end && !WS[this.buf[p]!] && !DELIM[this.buf[p]!]) p++;
    return latin1(this.buf, this.pos, p);
  }

  readWord(): string {
    const w = this.peekWord();
    this.pos += w.length;
    return w;
  }

  /**
   * The next value; operators (bare words that are not numbers or keywords) come back as `{ op }`.
   * `items` counts every parsed value so a file cannot make one call parse millions of them.
   */
  next(depth = 0, items = { n: 0 }): PdfValue | { op: string } | undefined {
    if (depth > MAX_DEPTH) bail('nesting too deep');
    if (++items.n > MAX_ITEMS) bail('too many values');
    this.skipWs();
    if (this.pos >= this.end) return undefined;
    const b = this.buf;
    const c = b[this.pos]!;
    if (c === 0x2f) {
      // Name, with #xx escapes.
      let p = ++this.pos;
      let s = '';
      while (p < this.end && !WS[b[p]!] && !DELIM[b[p]!]) {
        if (b[p] === 0x23 && p + 2 < this.end) {
          const h = Number.parseInt(latin1(b, p + 1, p + 3), 16);
          if (!Number.isNaN(h)) {
            s += String.fromCharCode(h);
            p += 3;
            continue;
          }
        }
        s += String.fromCharCode(b[p]!);
        p++;
      }
      this.pos = p;
      return new PdfName(s);
    }
    if (c === 0x5b) {
      this.pos++;
      const arr: PdfValue[] = [];
      for (;;) {
        this.skipWs();
        if (this.pos >= this.end) bail('unterminated array');
        if (b[this.pos] === 0x5d) {
          this.pos++;
          return arr;
        }
        const v = this.next(depth + 1, items);
        if (v === undefined || isOp(v)) {
          if (isOp(v) && v.op === 'R') {
            const gen = arr.pop();
            const num = arr.pop();
            if (typeof num !== 'number' || typeof gen !== 'number') bail('bad reference');
            arr.push(new PdfRef(num as number, gen as number));
            continue;
          }
          bail('bad array item');
        }
        arr.push(v as PdfValue);
      }
    }
    if (c === 0x3c && b[this.pos + 1] === 0x3c) {
      this.pos += 2;
      const map = new Map<string, PdfValue>();
      const pending: PdfValue[] = [];
      for (;;) {
        this.skipWs();
        if (this.pos >= this.end) bail('unterminated dictionary');
        if (b[this.pos] === 0x3e && b[this.pos + 1] === 0x3e) {
          this.pos += 2;
          break;
        }
        const v = this.next(depth + 1, items);
        if (v === undefined) bail('bad dictionary');
        if (isOp(v)) {
          if (v.op !== 'R') bail(`unexpected ${v.op} in dictionary`);
          const gen = pending.pop();
          const num = pending.pop();
          if (typeof num !== 'number' || typeof gen !== 'number') bail('bad reference');
          pending.push(new PdfRef(num as number, gen as number));
          continue;
        }
        pending.push(v as PdfValue);
      }
      if (pending.length % 2) bail('odd dictionary');
      for (let i = 0; i < pending.length; i += 2) {
        const k = pending[i];
        if (!(k instanceof PdfName)) bail('dictionary key is not a name');
        map.set((k as PdfName).name, pending[i + 1]!);
      }
      return new PdfDict(map);
    }
    if (c === 0x3c) {
      const close = b.indexOf(0x3e, this.pos);
      if (close < 0 || close >= this.end) bail('unterminated hex string');
      const hex = latin1(b, this.pos + 1, close).replace(/[^0-9A-Fa-f]/g, '');
      this.pos = close + 1;
      let s = '';
      for (let i = 0; i < hex.length; i += 2)
        s += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2).padEnd(2, '0'), 16));
      return s;
    }
    if (c === 0x28) {
      // Literal string: balanced parentheses, backslash escapes (their values are not needed here).
      let p = this.pos + 1;
      let level = 1;
      const start = p;
      while (p < this.end && level > 0) {
        const ch = b[p]!;
        if (ch === 0x5c) p += 2;
        else {
          if (ch === 0x28) level++;
          else if (ch === 0x29) level--;
          p++;
        }
      }
      if (level > 0) bail('unterminated string');
      this.pos = p;
      return latin1(b, start, p - 1);
    }
    if (c === 0x29 || c === 0x3e || c === 0x5d || c === 0x7b || c === 0x7d) {
      this.pos++;
      return { op: String.fromCharCode(c) };
    }
    const w = this.readWord();
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(w)) return Number(w);
    if (w === 'true') return true;
    if (w === 'false') return false;
    if (w === 'null') return null;
    if (!w) {
      this.pos++;
      return { op: '' };
    }
    return { op: w };
  }
}

export function isOp(v: unknown): v is { op: string } {
  return typeof v === 'object' && v !== null && 'op' in v && !(v instanceof PdfDict);
}

function latin1(b: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i += 8192) s += String.fromCharCode(...b.subarray(i, Math.min(to, i + 8192)));
  return s;
}

function indexOfBytes(b: Uint8Array, needle: string, from: number, limit = b.length): number {
  const n = needle.length;
  const first = needle.charCodeAt(0);
  for (let i = b.indexOf(first, from); i >= 0 && i + n <= limit; i = b.indexOf(first, i + 1)) {
    let ok = true;
    for (let k = 1; k < n; k++) {
      if (b[i + k] !== needle.charCodeAt(k)) {
        ok = false;
        break;
      }
    }
    if (ok) return i;
  }
  return -1;
}

/** The objects of one PDF, located lazily. */
export class PdfObjects {
  private offsets: Map<number, number> | null = null;
  private byPosition: Array<{ num: number; at: number }> | null = null;
  private inStreams: Map<number, { stream: number; index: number }> | null = null;
  private readonly streamCache = new Map<number, { first: number; data: Uint8Array; offsets: Map<number, number> }>();
  /** Bytes of object streams inflated so far. */
  private inflated = 0;

  constructor(readonly bytes: Uint8Array) {}

  private index(): Map<number, number> {
    if (this.offsets) return this.offsets;
    const map = new Map<number, number>();
    const b = this.bytes;
    // `N G obj` preceded by a line start or whitespace; the last definition wins.
    for (let i = indexOfBytes(b, 'obj', 0); i >= 0; i = indexOfBytes(b, 'obj', i + 3)) {
      const after = b[i + 3];
      if (after !== undefined && !WS[after] && !DELIM[after]) continue;
      let p = i - 1;
      while (p >= 0 && WS[b[p]!]) p--;
      const genEnd = p + 1;
      while (p >= 0 && b[p]! >= 0x30 && b[p]! <= 0x39) p--;
      if (p + 1 === genEnd || !WS[b[p]!]) continue;
      const genStart = p + 1;
      while (p >= 0 && WS[b[p]!]) p--;
      const numEnd = p + 1;
      while (p >= 0 && b[p]! >= 0x30 && b[p]! <= 0x39) p--;
      if (p + 1 === numEnd || genEnd - genStart > 5 || numEnd - (p + 1) > 10) continue;
      if (p >= 0 && !WS[b[p]!] && !DELIM[b[p]!]) continue;
      const num = Number(latin1(b, p + 1, numEnd));
      map.set(num, i + 3);
    }
    this.offsets = map;
    return map;
  }

  /**
   * The object defined last at or before byte `pos` of the file (by the scan for `N G obj`): its number
   * and where its value starts. Objects inside object streams are not found this way.
   */
  definedBefore(pos: number): { num: number; at: number } | undefined {
    this.byPosition ??= [...this.index()].map(([num, at]) => ({ num, at })).sort((x, y) => x.at - y.at);
    const list = this.byPosition;
    let lo = 0;
    let hi = list.length - 1;
    let found: { num: number; at: number } | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.at <= pos) {
        found = list[mid];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Object `num`, or undefined when it cannot be found or read. Streams come back as PdfStream. */
  get(num: number): PdfValue | undefined {
    const off = this.index().get(num);
    if (off !== undefined) return this.readAt(off);
    const loc = this.objectStreamIndex().get(num);
    if (!loc) return undefined;
    const s = this.objectStream(loc.stream);
    const at = s?.offsets.get(num);
    if (!s || at === undefined) return undefined;
    const v = new PdfLexer(s.data, s.first + at).next();
    return v === undefined || isOp(v) ? undefined : v;
  }

  resolve(v: PdfValue | undefined, depth = 0): PdfValue | undefined {
    while (v instanceof PdfRef) {
      if (depth++ > 16) bail('reference chain too long');
      v = this.get(v.num);
    }
    return v;
  }

  dict(v: PdfValue | undefined): PdfDict | undefined {
    const r = this.resolve(v);
    if (r instanceof PdfDict) return r;
    if (r instanceof PdfStream) return r.dict;
    return undefined;
  }

  private readAt(off: number): PdfValue | undefined {
    const lex = new PdfLexer(this.bytes, off);
    const v = lex.next();
    if (v === undefined || isOp(v)) return undefined;
    if (!(v instanceof PdfDict) || lex.peekWord() !== 'stream') return v;
    lex.readWord();
    let start = lex.pos;
    if (this.bytes[start] === 0x0d) start++;
    if (this.bytes[start] === 0x0a) start++;
    let len = this.resolve(v.get('Length'));
    // The declared length must land on `endstream`; otherwise trust the keyword (bounded search).
    if (typeof len === 'number' && Number.isInteger(len) && len >= 0 && start + len <= this.bytes.length) {
      const l2 = new PdfLexer(this.bytes, start + len);
      if (l2.peekWord() === 'endstream') return new PdfStream(v, start, len);
    }
    const end = indexOfBytes(this.bytes, 'endstream', start);
    if (end < 0) return undefined;
    len = end - start;
    while (len > 0 && (this.bytes[start + len - 1] === 0x0a || this.bytes[start + len - 1] === 0x0d)) len--;
    return new PdfStream(v, start, len);
  }

  private objectStreamIndex(): Map<number, { stream: number; index: number }> {
    if (this.inStreams) return this.inStreams;
    const map = new Map<number, { stream: number; index: number }>();
    this.inStreams = map;
    // Each `/ObjStm` belongs to the object defined last before it.
    const starts = [...this.index()].sort((x, y) => x[1] - y[1]);
    let seen = 0;
    for (let i = indexOfBytes(this.bytes, '/ObjStm', 0); i >= 0; i = indexOfBytes(this.bytes, '/ObjStm', i + 7)) {
      let lo = 0;
      let hi = starts.length - 1;
      let owner = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (starts[mid]![1] <= i) {
          owner = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      if (owner < 0 || i - starts[owner]![1] > 2000) continue;
      if (++seen > MAX_OBJECT_STREAMS || this.inflated > MAX_INDEX_INFLATED) break;
      const num = starts[owner]![0];
      const s = this.objectStream(num);
      if (!s) continue;
      for (const n of s.offsets.keys()) if (!map.has(n)) map.set(n, { stream: num, index: 0 });
    }
    return map;
  }

  private objectStream(num: number): { first: number; data: Uint8Array; offsets: Map<number, number> } | undefined {
    const cached = this.streamCache.get(num);
    if (cached) return cached;
    const off = this.index().get(num);
    const s = off === undefined ? undefined : this.readAt(off);
    if (!(s instanceof PdfStream)) return undefined;
    const limit = Math.max(0, Math.min(MAX_INFLATED, MAX_INDEX_INFLATED - this.inflated));
    const data = this.decodeStream(s, limit);
    // A stream that would not inflate within its limit cost about that much before it failed.
    this.inflated += data ? data.length : limit;
    const n = s.dict.get('N');
    const first = s.dict.get('First');
    if (!data || typeof n !== 'number' || typeof first !== 'number' || n > MAX_ITEMS) return undefined;
    const lex = new PdfLexer(data, 0, Math.min(first, data.length));
    const offsets = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const a = lex.next();
      const o = lex.next();
      if (typeof a !== 'number' || typeof o !== 'number') break;
      offsets.set(a, o);
    }
    const entry = { first, data, offsets };
    this.streamCache.set(num, entry);
    return entry;
  }

  /** Raw (still encoded) bytes of a stream. */
  raw(s: PdfStream): Uint8Array {
    return this.bytes.subarray(s.start, s.start + s.length);
  }

  /**
   * A stream's bytes with FlateDecode undone (with no predictor, or a PNG predictor), or no filter;
   * anything else: undefined.
   */
  decodeStream(s: PdfStream, max = MAX_INFLATED): Uint8Array | undefined {
    const filters = filterNames(this.resolve(s.dict.get('Filter')));
    if (!filters) return undefined;
    if (filters.length === 0) return this.raw(s);
    if (filters.length !== 1 || (filters[0] !== 'FlateDecode' && filters[0] !== 'Fl')) return undefined;
    const parms = this.dict(s.dict.get('DecodeParms'));
    const get = (k: string, d: number) => {
      const v = parms ? this.resolve(parms.get(k)) : undefined;
      return typeof v === 'number' && Number.isInteger(v) ? v : v === undefined ? d : NaN;
    };
    const predictor = get('Predictor', 1);
    if (predictor !== 1 && !(predictor >= 10 && predictor <= 15)) return undefined;
    let data: Uint8Array;
    try {
      // A PNG predictor adds one filter byte per row: allow for it in the bound.
      data = inflateSync(this.raw(s), { maxOutputLength: predictor === 1 ? max : max + Math.ceil(max / 8) + 1024 });
    } catch {
      return undefined;
    }
    if (predictor === 1) return data;
    const colors = get('Colors', 1);
    const bpc = get('BitsPerComponent', 8);
    const columns = get('Columns', 1);
    if (!(colors >= 1 && colors <= 4) || ![1, 2, 4, 8].includes(bpc) || !(columns >= 1 && columns <= 1 << 20))
      return undefined;
    return unpredictPng(data, Math.max(1, (colors * bpc) >> 3), Math.ceil((colors * bpc * columns) / 8));
  }
}

/** Undoes PNG row filters (each row: one filter-type byte, then `rowBytes`); undefined on a bad type. */
export function unpredictPng(data: Uint8Array, bpp: number, rowBytes: number): Uint8Array | undefined {
  const rows = Math.floor(data.length / (rowBytes + 1));
  const out = new Uint8Array(rows * rowBytes);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (rowBytes + 1)]!;
    const src = r * (rowBytes + 1) + 1;
    const o = r * rowBytes;
    const up = o - rowBytes;
    for (let i = 0; i < rowBytes; i++) {
      const x = data[src + i]!;
      const a = i >= bpp ? out[o + i - bpp]! : 0;
      const b = r > 0 ? out[up + i]! : 0;
      let v: number;
      if (type === 0) v = x;
      else if (type === 1) v = x + a;
      else if (type === 2) v = x + b;
      else if (type === 3) v = x + ((a + b) >> 1);
      else if (type === 4) {
        const c = r > 0 && i >= bpp ? out[up + i - bpp]! : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      } else return undefined;
      out[o + i] = v & 0xff;
    }
  }
  return out;
}

/** Filter names of a stream (empty for none), or null when the entry is not a name or array of names. */
export function filterNames(f: PdfValue | undefined): string[] | null {
  if (f === undefined || f === null) return [];
  if (f instanceof PdfName) return [f.name];
  if (Array.isArray(f) && f.every((x) => x instanceof PdfName)) return f.map((x) => (x as PdfName).name);
  return null;
}

/** Runs `fn`, turning the reader's refusals (and any parse error) into null. */
export function attempt<T>(fn: () => T): T | null {
  try {
    return fn();
  } catch (err) {
    if (err instanceof Bail || err instanceof RangeError || err instanceof TypeError) return null;
    throw err;
  }
}
