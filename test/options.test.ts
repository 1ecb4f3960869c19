/**
 * One test per rule of the specification's option tables, valid and invalid.
 */
import { describe, expect, it } from 'vitest';
import { ParseError } from '../src/errors.js';
import { normalizeOptions, PII_ENTITIES } from '../src/options/schema.js';

function rejects(options: unknown, field: RegExp, rule?: RegExp): ParseError {
  let caught: unknown;
  try {
    normalizeOptions(options);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ParseError);
  const e = caught as ParseError;
  expect(e.code).toBe('BAD_REQUEST');
  expect(e.status).toBe(400);
  expect(e.message).toMatch(field);
  if (rule) expect(e.message).toMatch(rule);
  return e;
}

describe('defaults', () => {
  it('applies every default of the ParseOptions table', () => {
    const o = normalizeOptions(undefined);
    expect(o.formats).toEqual([{ type: 'markdown' }]);
    expect(o.onlyMainContent).toBe(true);
    expect(o.timeout).toBe(30000);
    expect(o.pdf).toEqual({ mode: 'auto', maxPages: undefined, pages: false, blocks: false });
    expect(o.skipTlsVerification).toBe(true);
    expect(o.removeBase64Images).toBe(true);
    expect(o.blockAds).toBe(true);
    expect(o.redactPII).toBeNull();
    expect(o.origin).toBe('api');
    expect(o.zeroDataRetention).toBe(false);
    expect(o.proxy).toBeUndefined();
    expect(o.includeTags).toEqual([]);
    expect(o.excludeTags).toEqual([]);
  });

  it('treats an empty object like no options', () => {
    expect(normalizeOptions({})).toEqual(normalizeOptions(undefined));
  });

  it('refuses options that are not an object', () => {
    rejects([], /^options: expected an object/);
    rejects('fast', /^options: expected an object/);
  });
});

describe('formats', () => {
  it('accepts format objects and plain strings as shorthand', () => {
    const o = normalizeOptions({
      formats: [{ type: 'html' }, 'links', { type: 'rawHtml' }, 'images', 'summary', { type: 'markdown' }],
    });
    expect(o.formats.map((f) => f.type)).toEqual(['html', 'links', 'rawHtml', 'images', 'summary', 'markdown']);
  });

  it('accepts json with schema and prompt', () => {
    const o = normalizeOptions({ formats: [{ type: 'json', schema: { type: 'object' }, prompt: 'extract' }] });
    expect(o.formats[0]).toEqual({ type: 'json', schema: { type: 'object' }, prompt: 'extract' });
  });

  it('refuses extra members on a format object', () => {
    rejects({ formats: [{ type: 'markdown', fullPage: true }] }, /options\.formats\[0\]/, /fullPage/);
  });

  it('refuses unknown formats', () => {
    rejects({ formats: ['pdf'] }, /options\.formats\[0\]/);
  });

  it('refuses browser-only formats with a message that says why', () => {
    for (const type of ['screenshot', 'changeTracking', 'branding']) {
      rejects({ formats: [{ type }] }, /options\.formats\[0\]/, /not supported for parse/);
    }
    rejects({ formats: ['markdown', 'screenshot'] }, /options\.formats\[1\]/, /browser/);
  });

  it('refuses a format listed twice', () => {
    rejects({ formats: ['markdown', { type: 'markdown' }] }, /options\.formats/, /more than once/);
  });

  it('refuses a non-array', () => {
    rejects({ formats: 'markdown' }, /options\.formats: expected array/);
  });

  it('allows an empty list (metadata only)', () => {
    expect(normalizeOptions({ formats: [] }).formats).toEqual([]);
  });
});

describe('booleans and strings', () => {
  for (const key of ['onlyMainContent', 'skipTlsVerification', 'removeBase64Images', 'blockAds', 'zeroDataRetention']) {
    it(`${key} is a boolean`, () => {
      expect((normalizeOptions({ [key]: false }) as unknown as Record<string, unknown>)[key]).toBe(false);
      rejects({ [key]: 'yes' }, new RegExp(`options\\.${key}: expected boolean`));
    });
  }

  it('includeTags and excludeTags are arrays of strings', () => {
    const o = normalizeOptions({ includeTags: ['article', '.content'], excludeTags: ['#ads'] });
    expect(o.includeTags).toEqual(['article', '.content']);
    expect(o.excludeTags).toEqual(['#ads']);
    rejects({ includeTags: 'article' }, /options\.includeTags: expected array/);
    rejects({ excludeTags: [1] }, /options\.excludeTags\[0\]: expected string/);
  });

  it('headers is an object of strings', () => {
    expect(normalizeOptions({ headers: { 'X-A': 'b' } }).headers).toEqual({ 'X-A': 'b' });
    rejects({ headers: ['X-A'] }, /options\.headers/);
  });

  it('origin is a string, integration a string or null', () => {
    expect(normalizeOptions({ origin: 'sdk', integration: null }).origin).toBe('sdk');
    expect(normalizeOptions({ integration: 'zapier' }).integration).toBe('zapier');
    rejects({ origin: 3 }, /options\.origin: expected string/);
    rejects({ integration: 3 }, /options\.integration/);
  });
});

describe('timeout', () => {
  it('is an integer of milliseconds up to 300000', () => {
    expect(normalizeOptions({ timeout: 300000 }).timeout).toBe(300000);
    expect(normalizeOptions({ timeout: 1 }).timeout).toBe(1);
    rejects({ timeout: 300001 }, /options\.timeout: must be at most 300000/);
    rejects({ timeout: 1.5 }, /options\.timeout/, /int/);
    rejects({ timeout: 0 }, /options\.timeout: must be at least 1/);
    rejects({ timeout: '1000' }, /options\.timeout: expected number/);
  });
});

describe('proxy', () => {
  it('accepts only basic and auto', () => {
    expect(normalizeOptions({ proxy: 'basic' }).proxy).toBe('basic');
    expect(normalizeOptions({ proxy: 'auto' }).proxy).toBe('auto');
    rejects({ proxy: 'stealth' }, /options\.proxy: must be one of "basic", "auto"/);
  });
});

describe('parsers', () => {
  it('accepts "pdf" and {type:"pdf"} with defaults', () => {
    expect(normalizeOptions({ parsers: ['pdf'] }).pdf).toEqual({
      mode: 'auto',
      maxPages: undefined,
      pages: false,
      blocks: false,
    });
    expect(normalizeOptions({ parsers: [{ type: 'pdf' }] }).pdf).toEqual({
      mode: 'auto',
      maxPages: undefined,
      pages: false,
      blocks: false,
    });
  });

  it('takes mode, maxPages, pages and blocks', () => {
    const o = normalizeOptions({
      parsers: [{ type: 'pdf', mode: 'fast', maxPages: 10000, pages: true, blocks: true }],
    });
    expect(o.pdf).toEqual({ mode: 'fast', maxPages: 10000, pages: true, blocks: true });
    for (const mode of ['fast', 'auto', 'ocr'])
      expect(normalizeOptions({ parsers: [{ type: 'pdf', mode }] }).pdf?.mode).toBe(mode);
  });

  it('an empty list turns PDF parsing off', () => {
    expect(normalizeOptions({ parsers: [] }).pdf).toBeNull();
  });

  it('refuses maxPages outside 1..10000 and non-integers', () => {
    rejects({ parsers: [{ type: 'pdf', maxPages: 0 }] }, /options\.parsers\[0\]\.maxPages: must be at least 1/);
    rejects({ parsers: [{ type: 'pdf', maxPages: 10001 }] }, /options\.parsers\[0\]\.maxPages: must be at most 10000/);
    rejects({ parsers: [{ type: 'pdf', maxPages: 2.5 }] }, /options\.parsers\[0\]\.maxPages/);
  });

  it('refuses unknown modes, other types and extra members', () => {
    rejects(
      { parsers: [{ type: 'pdf', mode: 'vision' }] },
      /options\.parsers\[0\]\.mode: must be one of "fast", "auto", "ocr"/,
    );
    rejects({ parsers: [{ type: 'docx' }] }, /options\.parsers\[0\]/);
    rejects({ parsers: ['docx'] }, /options\.parsers\[0\]/);
    rejects({ parsers: [{ type: 'pdf', dpi: 300 }] }, /options\.parsers\[0\]/, /"dpi".*no other members/);
    rejects({ parsers: [{ mode: 'fast' }] }, /options\.parsers\[0\]/);
  });

  it('refuses pages and blocks that are not booleans', () => {
    rejects({ parsers: [{ type: 'pdf', pages: 'yes' }] }, /options\.parsers\[0\]\.pages: expected boolean/);
    rejects({ parsers: [{ type: 'pdf', blocks: 1 }] }, /options\.parsers\[0\]\.blocks: expected boolean/);
  });

  it('refuses two pdf parsers', () => {
    rejects({ parsers: ['pdf', { type: 'pdf', mode: 'ocr' }] }, /options\.parsers/, /at most one/);
  });
});

describe('redactPII', () => {
  it('true means the defaults', () => {
    expect(normalizeOptions({ redactPII: true }).redactPII).toEqual({
      mode: 'accurate',
      entities: [...PII_ENTITIES],
      replaceStyle: 'tag',
    });
    expect(normalizeOptions({ redactPII: false }).redactPII).toBeNull();
  });

  it('an object tunes mode, entities and replaceStyle', () => {
    const o = normalizeOptions({ redactPII: { mode: 'fast', entities: ['EMAIL', 'PHONE'], replaceStyle: 'mask' } });
    expect(o.redactPII).toEqual({ mode: 'fast', entities: ['EMAIL', 'PHONE'], replaceStyle: 'mask' });
    expect(normalizeOptions({ redactPII: {} }).redactPII).toEqual({
      mode: 'accurate',
      entities: [...PII_ENTITIES],
      replaceStyle: 'tag',
    });
    for (const mode of ['accurate', 'aggressive', 'fast'])
      expect(normalizeOptions({ redactPII: { mode } }).redactPII?.mode).toBe(mode);
    for (const style of ['tag', 'mask', 'remove'])
      expect(normalizeOptions({ redactPII: { replaceStyle: style } }).redactPII?.replaceStyle).toBe(style);
  });

  it('refuses unknown modes, entities, styles and members', () => {
    rejects({ redactPII: { mode: 'paranoid' } }, /options\.redactPII\.mode: must be one of/);
    rejects({ redactPII: { entities: ['SSN'] } }, /options\.redactPII\.entities\[0\]: must be one of/);
    rejects({ redactPII: { replaceStyle: 'hash' } }, /options\.redactPII\.replaceStyle: must be one of/);
    rejects({ redactPII: { mode: 'fast', level: 2 } }, /options\.redactPII/, /"level".*no other members/);
    rejects({ redactPII: 'yes' }, /options\.redactPII/);
  });
});

describe('auditMetadata', () => {
  it('requires username, at most 1024 characters, and nothing else', () => {
    expect(normalizeOptions({ auditMetadata: { username: 'a'.repeat(1024) } }).auditMetadata?.username).toHaveLength(
      1024,
    );
    rejects(
      { auditMetadata: { username: 'a'.repeat(1025) } },
      /options\.auditMetadata\.username: must be at most 1024 characters/,
    );
    rejects({ auditMetadata: {} }, /options\.auditMetadata\.username: expected string/);
    rejects({ auditMetadata: { username: 'a', team: 'b' } }, /options\.auditMetadata/, /"team".*no other members/);
  });
});

describe('unknown and browser-only options', () => {
  it('refuses unknown keys, naming them', () => {
    const e = rejects({ foo: 1, onlyMainContent: true }, /options: unknown member "foo"/);
    expect(e.details?.field).toBe('options');
  });

  it('refuses scrape-only options with a message that says so', () => {
    for (const key of ['actions', 'waitFor', 'mobile', 'location', 'maxAge']) {
      rejects({ [key]: 1 }, new RegExp(`options\\.${key}: not supported for parse`));
    }
  });

  it('reports every broken rule, each with its field', () => {
    const e = rejects({ timeout: -1, proxy: 'x' }, /options\.timeout/);
    expect(e.message).toMatch(/options\.proxy/);
  });
});
