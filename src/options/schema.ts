/**
 * ParseOptions: the one place where the specification's option rules live. Everything past
 * `normalizeOptions` trusts the `NormalizedOptions` it returns.
 *
 * zod loads when options first need it: every entry of zod loads all of its ~90 locale modules (about
 * 0.1 s of CPU and a tenth of a command's one-page PDF), while most calls pass no options or a few plain
 * ones, which `plainOptions` accepts as the schema would (test/options-plain.test.ts compares the two on
 * generated options).
 */
import { createRequire } from 'node:module';
import type * as Zod from 'zod';
import { ParseError } from '../errors.js';

export const PII_ENTITIES = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;
export type PiiEntity = (typeof PII_ENTITIES)[number];
export type RedactMode = 'accurate' | 'aggressive' | 'fast';
export type ReplaceStyle = 'tag' | 'mask' | 'remove';
export type PdfMode = 'fast' | 'auto' | 'ocr';

/** Formats a parse can produce. */
export const PARSE_FORMATS = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'json'] as const;
export type ParseFormat = (typeof PARSE_FORMATS)[number];

/** Formats that need a browser or a crawl history; the official API refuses them for parse too. */
const BROWSER_FORMATS = [
  'screenshot',
  'changeTracking',
  'branding',
  'product',
  'menu',
  'audio',
  'video',
  'question',
  'highlights',
];

/** Scrape options that only make sense for a fetched web page. */
const BROWSER_OPTIONS = [
  'actions',
  'waitFor',
  'mobile',
  'location',
  'maxAge',
  'minAge',
  'storeInCache',
  'fastMode',
  'lockdown',
  'profile',
  'threatProtection',
  'onlyCleanContent',
  'changeTrackingOptions',
  'screenshot',
];

/** The schema, built with zod, which is loaded on first use (see above). */
function buildSchema(z: typeof Zod.z) {
  const formatName = z.enum(PARSE_FORMATS);

  const simpleFormat = z.strictObject({ type: z.enum(['markdown', 'summary', 'html', 'rawHtml', 'links', 'images']) });
  const jsonFormat = z.strictObject({
    type: z.literal('json'),
    schema: z.record(z.string(), z.unknown()).optional(),
    prompt: z.string().optional(),
  });

  const formatItem = z.union([formatName, z.discriminatedUnion('type', [simpleFormat, jsonFormat])]);

  const pdfParser = z.strictObject({
    type: z.literal('pdf'),
    mode: z.enum(['fast', 'auto', 'ocr']).optional(),
    maxPages: z.number().int().min(1).max(10000).optional(),
    pages: z.boolean().optional(),
    blocks: z.boolean().optional(),
  });

  const redactObject = z.strictObject({
    mode: z.enum(['accurate', 'aggressive', 'fast']).optional(),
    entities: z.array(z.enum(PII_ENTITIES)).optional(),
    replaceStyle: z.enum(['tag', 'mask', 'remove']).optional(),
  });

  return z.strictObject({
    formats: z.array(formatItem).optional(),
    onlyMainContent: z.boolean().optional(),
    includeTags: z.array(z.string()).optional(),
    excludeTags: z.array(z.string()).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    timeout: z.number().int().min(1).max(300000).optional(),
    parsers: z.array(z.union([z.literal('pdf'), pdfParser])).optional(),
    skipTlsVerification: z.boolean().optional(),
    removeBase64Images: z.boolean().optional(),
    blockAds: z.boolean().optional(),
    redactPII: z.union([z.boolean(), redactObject]).optional(),
    proxy: z.enum(['basic', 'auto']).optional(),
    origin: z.string().optional(),
    integration: z.string().nullable().optional(),
    auditMetadata: z.strictObject({ username: z.string().max(1024) }).optional(),
    zeroDataRetention: z.boolean().optional(),
  });
}

type ParseOptionsSchema = ReturnType<typeof buildSchema>;
let builtSchema: ParseOptionsSchema | undefined;
let zod: typeof Zod.z | undefined;

function schema(): { z: typeof Zod.z; parseOptionsSchema: ParseOptionsSchema } {
  // require: normalizeOptions is synchronous; Node loads zod's own CommonJS build.
  zod ??= (createRequire(import.meta.url)('zod') as typeof Zod).z;
  builtSchema ??= buildSchema(zod);
  return { z: zod, parseOptionsSchema: builtSchema };
}

/** ParseOptions as a JSON Schema (draft 2020-12, what OpenAPI 3.1 uses), from the schema that validates them. */
export function parseOptionsJsonSchema(): Record<string, unknown> {
  const { z, parseOptionsSchema } = schema();
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(parseOptionsSchema, { io: 'input' }) as Record<
    string,
    unknown
  >;
  return jsonSchema;
}

/** The options a caller may pass, as the specification defines them. */
export type ParseOptions = Zod.input<ParseOptionsSchema>;

export interface FormatRequest {
  type: ParseFormat;
  schema?: Record<string, unknown>;
  prompt?: string;
}

export interface PdfOptions {
  mode: PdfMode;
  maxPages: number | undefined;
  pages: boolean;
  blocks: boolean;
}

export interface RedactOptions {
  mode: RedactMode;
  entities: PiiEntity[];
  replaceStyle: ReplaceStyle;
}

/** Options after validation with every default applied. */
export interface NormalizedOptions {
  formats: FormatRequest[];
  onlyMainContent: boolean;
  includeTags: string[];
  excludeTags: string[];
  headers: Record<string, string>;
  timeout: number;
  /** Null when `parsers` is an empty list: PDFs are then not parsed. */
  pdf: PdfOptions | null;
  skipTlsVerification: boolean;
  removeBase64Images: boolean;
  blockAds: boolean;
  redactPII: RedactOptions | null;
  proxy: 'basic' | 'auto' | undefined;
  origin: string;
  integration: string | null;
  auditMetadata: { username: string } | undefined;
  zeroDataRetention: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30000;

function pathOf(path: ReadonlyArray<PropertyKey>): string {
  let out = 'options';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

function refuseBrowserOnly(raw: Record<string, unknown>): void {
  for (const key of Object.keys(raw)) {
    if (BROWSER_OPTIONS.includes(key)) {
      throw new ParseError(
        'BAD_REQUEST',
        `options.${key}: not supported for parse; it applies only to pages rendered in a browser (scrape).`,
        { details: { field: `options.${key}` } },
      );
    }
  }
  const formats = raw['formats'];
  if (Array.isArray(formats)) {
    formats.forEach((f, i) => {
      const type = typeof f === 'string' ? f : f && typeof f === 'object' ? (f as { type?: unknown }).type : undefined;
      if (typeof type === 'string' && BROWSER_FORMATS.includes(type)) {
        throw new ParseError(
          'BAD_REQUEST',
          `options.formats[${i}]: format "${type}" is not supported for parse; it needs a browser-rendered page (scrape).`,
          { details: { field: `options.formats[${i}]` } },
        );
      }
    });
  }
}

function describeIssue(issue: Zod.core.$ZodIssue): string {
  const where = pathOf(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return `${where}: unknown member${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (no other members are allowed)`;
    case 'invalid_type':
      return `${where}: expected ${issue.expected === 'int' ? 'an integer' : issue.expected}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `${where}: must be at most ${String(issue.maximum)} characters`
        : `${where}: must be at most ${String(issue.maximum)}`;
    case 'too_small':
      return `${where}: must be at least ${String(issue.minimum)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `${where}: must be ${JSON.stringify(issue.values[0])}`
        : `${where}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union': {
      const nested = issue.errors.flat();
      // When every alternative failed on the value's own type, say which types would do.
      if (nested.length > 0 && nested.every((n) => n.path.length === 0 && n.code === 'invalid_type')) {
        const expected = [...new Set(nested.map((n) => (n as Zod.core.$ZodIssueInvalidType).expected))];
        return `${where}: expected ${expected.join(' or ')}`;
      }
      // Otherwise report the most specific complaint: the alternative that got furthest into the value.
      const deepest = nested.sort((a, b) => b.path.length - a.path.length)[0];
      if (deepest) return describeIssue({ ...deepest, path: [...issue.path, ...deepest.path] } as Zod.core.$ZodIssue);
      return `${where}: ${issue.message}`;
    }
    default:
      return `${where}: ${issue.message}`;
  }
}

/**
 * Validates caller options against the specification and applies its defaults.
 * Throws ParseError BAD_REQUEST naming the field and the rule broken.
 */
export function normalizeOptions(input: unknown): NormalizedOptions {
  return normalizeWith(input, true);
}

/** normalizeOptions with (`plain`) or without the shortcut past zod; false is for tests that compare the two. */
export function normalizeWith(input: unknown, plain: boolean): NormalizedOptions {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new ParseError('BAD_REQUEST', 'options: expected an object', { details: { field: 'options' } });
  }
  refuseBrowserOnly(input as Record<string, unknown>);
  const o = (plain ? plainOptions(input as Record<string, unknown>) : undefined) ?? checkWithSchema(input as object);

  const formats: FormatRequest[] = [];
  const seen = new Set<string>();
  for (const f of o.formats ?? ['markdown']) {
    const req: FormatRequest = typeof f === 'string' ? { type: f } : { ...f };
    if (seen.has(req.type)) {
      throw new ParseError('BAD_REQUEST', `options.formats: format "${req.type}" is listed more than once`, {
        details: { field: 'options.formats' },
      });
    }
    seen.add(req.type);
    formats.push(req);
  }

  let pdf: PdfOptions | null = { mode: 'auto', maxPages: undefined, pages: false, blocks: false };
  if (o.parsers) {
    if (o.parsers.length === 0) pdf = null;
    else {
      if (o.parsers.length > 1) {
        throw new ParseError('BAD_REQUEST', 'options.parsers: at most one "pdf" parser may be given', {
          details: { field: 'options.parsers' },
        });
      }
      const p = o.parsers[0]!;
      if (typeof p !== 'string') {
        pdf = { mode: p.mode ?? 'auto', maxPages: p.maxPages, pages: p.pages ?? false, blocks: p.blocks ?? false };
      }
    }
  }

  let redactPII: RedactOptions | null = null;
  if (o.redactPII === true) redactPII = { mode: 'accurate', entities: [...PII_ENTITIES], replaceStyle: 'tag' };
  else if (o.redactPII && typeof o.redactPII === 'object') {
    redactPII = {
      mode: o.redactPII.mode ?? 'accurate',
      entities:
        o.redactPII.entities && o.redactPII.entities.length > 0
          ? [...new Set(o.redactPII.entities)]
          : [...PII_ENTITIES],
      replaceStyle: o.redactPII.replaceStyle ?? 'tag',
    };
  }

  return {
    formats,
    onlyMainContent: o.onlyMainContent ?? true,
    includeTags: o.includeTags ?? [],
    excludeTags: o.excludeTags ?? [],
    headers: o.headers ?? {},
    timeout: o.timeout ?? DEFAULT_TIMEOUT_MS,
    pdf,
    skipTlsVerification: o.skipTlsVerification ?? true,
    removeBase64Images: o.removeBase64Images ?? true,
    blockAds: o.blockAds ?? true,
    redactPII,
    proxy: o.proxy,
    origin: o.origin ?? 'api',
    integration: o.integration ?? null,
    auditMetadata: o.auditMetadata,
    zeroDataRetention: o.zeroDataRetention ?? false,
  };
}

/** The options checked by the schema; throws BAD_REQUEST naming every rule broken. */
function checkWithSchema(input: object): ParseOptions {
  const parsed = schema().parseOptionsSchema.safeParse(input);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    const messages = parsed.error.issues.map(describeIssue);
    throw new ParseError('BAD_REQUEST', messages.join('; '), { details: { field: pathOf(first.path) } });
  }
  return parsed.data;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  [Object.prototype, null].includes(Object.getPrototypeOf(v));
const isBoolean = (v: unknown): boolean => typeof v === 'boolean';
const isIntIn = (v: unknown, min: number, max: number): boolean =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const PDF_MODES: readonly unknown[] = ['fast', 'auto', 'ocr'];

/** A `parsers` item the schema accepts: "pdf" or { type: "pdf", mode?, maxPages?, pages?, blocks? }. */
function plainPdfParser(v: unknown): boolean {
  if (v === 'pdf') return true;
  if (!isPlainObject(v) || v['type'] !== 'pdf') return false;
  for (const [key, value] of Object.entries(v)) {
    const rule = Object.hasOwn(PLAIN_PDF_PARSER, key) ? PLAIN_PDF_PARSER[key]! : undefined;
    // An unknown member is refused by the schema even when undefined.
    if (!rule || (value !== undefined && !rule(value))) return false;
  }
  return true;
}

const PLAIN_PDF_PARSER: Record<string, (v: unknown) => boolean> = {
  type: (v) => v === 'pdf',
  mode: (v) => PDF_MODES.includes(v),
  maxPages: (v) => isIntIn(v, 1, 10000),
  pages: isBoolean,
  blocks: isBoolean,
};

/** What each option may be for the shortcut: only shapes whose every value the schema accepts as it is. */
const PLAIN_OPTIONS: Record<string, (v: unknown) => boolean> = {
  formats: (v) => Array.isArray(v) && v.every((f) => (PARSE_FORMATS as readonly unknown[]).includes(f)),
  onlyMainContent: isBoolean,
  timeout: (v) => isIntIn(v, 1, 300000),
  parsers: (v) => Array.isArray(v) && v.every(plainPdfParser),
  skipTlsVerification: isBoolean,
  removeBase64Images: isBoolean,
  blockAds: isBoolean,
  redactPII: isBoolean,
  zeroDataRetention: isBoolean,
};

/**
 * The options as the schema would return them, when every member is one the schema accepts as it is
 * (no options, booleans, listed format names, a timeout, the pdf parser); otherwise undefined, and the
 * schema decides (and words any error).
 */
function plainOptions(input: Record<string, unknown>): ParseOptions | undefined {
  if (!isPlainObject(input)) return undefined;
  for (const [key, value] of Object.entries(input)) {
    const rule = Object.hasOwn(PLAIN_OPTIONS, key) ? PLAIN_OPTIONS[key]! : undefined;
    // An unknown member is refused by the schema even when undefined.
    if (!rule || (value !== undefined && !rule(value))) return undefined;
  }
  return input as ParseOptions;
}

export function wantsFormat(options: NormalizedOptions, type: ParseFormat): boolean {
  return options.formats.some((f) => f.type === type);
}
