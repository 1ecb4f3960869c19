/**
 * Plain HTTP(S) for monitors: one request at a time to an address the SSRF guard has checked, redirects
 * followed by hand (each hop resolved and checked again), a deadline over the whole exchange and a cap on
 * the bytes read. No browser, no cookies, no connection reuse (a kept-alive socket would skip the check).
 */
import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, resolveAllowed, type AddressGuard } from './ssrf.js';

export const MAX_PAGE_BYTES = 50 * 1024 * 1024;
export const MAX_REDIRECTS = 5;
const USER_AGENT = 'docmill-monitor/0.1 (+https://github.com/docmill)';

export class FetchError extends Error {
  override readonly name = 'FetchError';
  constructor(
    readonly code: 'TIMEOUT' | 'TOO_LARGE' | 'TOO_MANY_REDIRECTS' | 'BAD_URL' | 'NETWORK' | 'SSRF_REFUSED',
    message: string,
  ) {
    super(message);
  }
}

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Absolute time (ms since epoch, performance-independent Date.now) by which everything must be done. */
  deadline: number;
  maxBytes: number;
  guard: AddressGuard;
  rejectUnauthorized?: boolean;
  /** Leave the body of 3xx answers unread (the caller follows the Location). */
  skipRedirectBody?: boolean;
}

function toUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('BAD_URL', `"${raw}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError('BAD_URL', `"${raw}": only http and https URLs are fetched.`);
  }
  return url;
}

/** One request/response, to an address checked by the guard. */
export async function guardedRequest(raw: string, opts: RequestOptions): Promise<HttpResponse> {
  const url = toUrl(raw);
  const remaining = (): number => opts.deadline - Date.now();
  if (remaining() <= 0) throw new FetchError('TIMEOUT', `Timed out before requesting ${url.href}.`);
  let addresses;
  try {
    addresses = await withTimeout(resolveAllowed(opts.guard, url.hostname), remaining(), url.href);
  } catch (err) {
    if (err instanceof FetchError) throw err;
    const code = (err as { code?: string }).code === 'SSRF_REFUSED' ? 'SSRF_REFUSED' : 'NETWORK';
    throw new FetchError(code, (err as Error).message);
  }
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    const fail = (err: FetchError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(err);
    };
    const timer = setTimeout(
      () => fail(new FetchError('TIMEOUT', `No complete answer from ${url.href} in time.`)),
      Math.max(1, remaining()),
    );
    const req = lib.request(
      url,
      {
        method: opts.method ?? 'GET',
        headers: { 'user-agent': USER_AGENT, accept: '*/*', ...opts.headers },
        agent: false,
        lookup: pinnedLookup(addresses),
        rejectUnauthorized: opts.rejectUnauthorized ?? true,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (opts.skipRedirectBody && status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          settled = true;
          clearTimeout(timer);
          req.destroy();
          resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
          return;
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          fail(new FetchError('TOO_LARGE', `${url.href} is ${declared} bytes, over the ${opts.maxBytes}-byte limit.`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            fail(new FetchError('TOO_LARGE', `${url.href} is over the ${opts.maxBytes}-byte limit.`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status, headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on('error', (err) => fail(new FetchError('NETWORK', `${url.href}: ${err.message}`)));
      },
    );
    req.on('error', (err) => fail(new FetchError('NETWORK', `${url.href}: ${err.message}`)));
    req.end(opts.body);
  });
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new FetchError('TIMEOUT', `Resolving ${what} took too long.`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface FetchedPage {
  finalUrl: string;
  status: number;
  contentType: string | undefined;
  body: Buffer;
  redirects: string[];
}

export interface FetchPageOptions {
  timeoutMs: number;
  headers: Record<string, string>;
  guard: AddressGuard;
  skipTlsVerification: boolean;
  maxBytes?: number;
  maxRedirects?: number;
}

/** GET with redirects followed (at most 5), each hop checked by the guard. */
export async function fetchPage(raw: string, opts: FetchPageOptions): Promise<FetchedPage> {
  const deadline = Date.now() + opts.timeoutMs;
  const maxRedirects = opts.maxRedirects ?? MAX_REDIRECTS;
  const redirects: string[] = [];
  let current = raw;
  for (;;) {
    const res = await guardedRequest(current, {
      headers: opts.headers,
      deadline,
      maxBytes: opts.maxBytes ?? MAX_PAGE_BYTES,
      guard: opts.guard,
      rejectUnauthorized: !opts.skipTlsVerification,
      skipRedirectBody: true,
    });
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location) {
      if (redirects.length >= maxRedirects) {
        throw new FetchError('TOO_MANY_REDIRECTS', `More than ${maxRedirects} redirects from ${raw}.`);
      }
      current = new URL(location, current).href;
      redirects.push(current);
      continue;
    }
    const type = res.headers['content-type'];
    return { finalUrl: current, status: res.status, contentType: type, body: res.body, redirects };
  }
}
