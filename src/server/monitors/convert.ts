/**
 * A monitor target's `scrapeOptions`, turned into docmill parse options. A check fetches with plain HTTP,
 * so options that need a browser (actions, waitFor, mobile, location, screenshots, ...) cannot be honoured:
 * they are dropped and named in the page's metadata (`ignoredOptions`) rather than refusing the check.
 * The markdown is always produced, because the check compares and diffs it.
 */
import { PARSE_FORMATS, type ParseOptions } from '../../options/schema.js';

export interface CheckParsePlan {
  options: ParseOptions;
  /** Option and format names that were given but cannot be honoured without a browser. */
  ignored: string[];
  /** The JSON format was asked for: the page carries a per-field diff and a snapshot of it. */
  wantsJson: boolean;
  timeoutMs: number;
  headers: Record<string, string>;
  skipTlsVerification: boolean;
}

/** Options the parser takes unchanged. */
const PASSED = [
  'onlyMainContent',
  'includeTags',
  'excludeTags',
  'parsers',
  'redactPII',
  'removeBase64Images',
  'blockAds',
];
/** Options that shape the fetch, not the conversion. */
const FETCH = ['headers', 'timeout', 'skipTlsVerification', 'proxy', 'auditMetadata'];
const DEFAULT_TIMEOUT_MS = 30000;

function formatName(f: unknown): string | undefined {
  if (typeof f === 'string') return f;
  if (f && typeof f === 'object' && typeof (f as { type?: unknown }).type === 'string')
    return (f as { type: string }).type;
  return undefined;
}

export function planParse(scrapeOptions: Record<string, unknown>): CheckParsePlan {
  const ignored: string[] = [];
  const options: Record<string, unknown> = {};
  for (const key of Object.keys(scrapeOptions)) {
    if (key === 'formats') continue;
    if (PASSED.includes(key)) options[key] = scrapeOptions[key];
    else if (!FETCH.includes(key)) ignored.push(key);
  }
  if (scrapeOptions['proxy'] !== undefined && !['basic', 'auto'].includes(String(scrapeOptions['proxy']))) {
    ignored.push('proxy');
  }
  const formats: unknown[] = [];
  let wantsJson = false;
  const given = Array.isArray(scrapeOptions['formats']) ? scrapeOptions['formats'] : ['markdown'];
  for (const f of given) {
    const name = formatName(f);
    if (!name || !(PARSE_FORMATS as readonly string[]).includes(name)) {
      ignored.push(`formats.${name ?? '?'}`);
      continue;
    }
    if (formats.some((g) => formatName(g) === name)) continue;
    if (name === 'json') {
      wantsJson = true;
      const { type: _type, ...rest } = typeof f === 'object' ? (f as Record<string, unknown>) : {};
      formats.push({ type: 'json', ...rest });
    } else formats.push(name);
  }
  if (!formats.some((f) => formatName(f) === 'markdown')) formats.push('markdown');
  options['formats'] = formats;
  const timeout = Number(scrapeOptions['timeout'] ?? DEFAULT_TIMEOUT_MS);
  options['timeout'] = timeout;
  const headers = (scrapeOptions['headers'] as Record<string, string> | undefined) ?? {};
  return {
    options: options as ParseOptions,
    ignored,
    wantsJson,
    timeoutMs: timeout,
    headers,
    skipTlsVerification: scrapeOptions['skipTlsVerification'] === true,
  };
}

/** A file name for the parser's type hints: the last path segment of the URL, or "index.html". */
export function filenameOf(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    return decodeURIComponent(last) || 'index.html';
  } catch {
    return 'index.html';
  }
}
