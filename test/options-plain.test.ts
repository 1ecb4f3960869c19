/**
 * normalizeOptions takes a shortcut past zod for plain options (src/options/schema.ts plainOptions). On
 * generated options, valid and not, the shortcut must give what the schema gives: the same normalized
 * options, or the same error (code, message, field).
 */
import { describe, expect, it } from 'vitest';
import { normalizeWith } from '../src/options/schema.js';
import { seededRandom } from '../test-support/random.js';

const next = seededRandom(23);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;

/** Values near and across each rule's edges, of every JSON type. */
const scalars: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  2,
  10000,
  10001,
  300000,
  300001,
  1.5,
  -1,
  NaN,
  Infinity,
  '',
  'pdf',
  'markdown',
  'html',
  'json',
  'summary',
  'fast',
  'auto',
  'ocr',
  'turbo',
  'screenshot',
  'tag',
];
const formatNames = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'json', 'screenshot', 'nope'];

function list(item: () => unknown): unknown[] {
  return Array.from({ length: Math.floor(next() * 4) }, item);
}

function pdfParser(): unknown {
  if (next() < 0.3) return pick(['pdf', 'PDF', 'json', 1, null]);
  const p: Record<string, unknown> = {};
  if (next() < 0.9) p['type'] = pick(['pdf', 'pdf', 'pdf', 'json', undefined]);
  if (next() < 0.6) p['mode'] = pick(['fast', 'auto', 'ocr', 'turbo', undefined, 1]);
  if (next() < 0.5) p['maxPages'] = pick([1, 5, 10000, 10001, 0, 2.5, '3', undefined]);
  if (next() < 0.4) p['pages'] = pick([true, false, 'yes', undefined]);
  if (next() < 0.4) p['blocks'] = pick([true, false, 0, undefined]);
  if (next() < 0.1) p['extra'] = pick([1, undefined]);
  return p;
}

function value(key: string): unknown {
  switch (key) {
    case 'formats':
      return next() < 0.8
        ? list(() => (next() < 0.85 ? pick(formatNames) : { type: pick(formatNames) }))
        : pick(scalars);
    case 'parsers':
      return next() < 0.85 ? list(pdfParser) : pick(scalars);
    case 'timeout':
      return pick([1, 1000, 30000, 300000, 300001, 0, -5, 2.5, '1000', null, undefined, NaN]);
    case 'redactPII':
      return next() < 0.8 ? pick([true, false, undefined]) : { mode: pick(['fast', 'x']) };
    case 'headers':
      return next() < 0.5 ? { a: 'b' } : pick(scalars);
    default:
      return next() < 0.6 ? pick([true, false]) : pick(scalars);
  }
}

const keys = [
  'formats',
  'onlyMainContent',
  'timeout',
  'parsers',
  'skipTlsVerification',
  'removeBase64Images',
  'blockAds',
  'redactPII',
  'zeroDataRetention',
  'headers',
  'origin',
  'proxy',
  'includeTags',
  'unknownThing',
  'mobile',
];

function options(): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const n = Math.floor(next() * 5);
  for (let i = 0; i < n; i++) o[pick(keys)] = value(keys[Math.floor(next() * keys.length)]!);
  // Most cases use the option's own kind of value.
  for (let i = 0; i < 3; i++) {
    const k = pick(keys);
    if (next() < 0.7) o[k] = value(k);
  }
  return o;
}

function outcome(input: unknown, plain: boolean): unknown {
  try {
    return { ok: normalizeWith(input, plain) };
  } catch (err) {
    const e = err as { code?: string; message?: string; details?: unknown };
    return { code: e.code, message: e.message, details: e.details };
  }
}

describe('plain options shortcut', () => {
  it('gives what the schema gives on 20,000 generated options', () => {
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 20000; i++) {
      const input = options();
      const shortcut = outcome(input, true);
      expect(shortcut, JSON.stringify(input)).toEqual(outcome(input, false));
      if ('ok' in (shortcut as object)) accepted++;
      else refused++;
    }
    // The generator reaches both sides.
    expect(accepted).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });

  it("gives the defaults for no options and the command line's plain ones", () => {
    for (const input of [undefined, null, {}, { parsers: [{ type: 'pdf', mode: 'fast' }] }, { timeout: 300000 }])
      expect(normalizeWith(input, true)).toEqual(normalizeWith(input, false));
  });
});
