/** Helpers shared by the HTTP service tests. */
import { Writable } from 'node:stream';
import { ParseError } from '../src/errors.js';
import { normalizeOptions } from '../src/options/schema.js';
import type { FileInfo, Parser, ParseInput } from '../src/parser.js';
import type { ParseDocument } from '../src/types.js';
import { buildServer, type BuildOptions } from '../src/server/app.js';
import { MONITOR_DEFAULTS, parseApiKeys, type ServerConfig } from '../src/server/config.js';
import type { Store } from '../src/server/store/store.js';

export const KEY_A = 'test-key-alpha-0123456789abcdef';
export const KEY_B = 'test-key-bravo-0123456789abcdef';
export const AUTH_A = { authorization: `Bearer ${KEY_A}` };
export const AUTH_B = { authorization: `Bearer ${KEY_B}` };

export function testConfig(over: Partial<ServerConfig> = {}): ServerConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    apiKeys: parseApiKeys(`alpha:${KEY_A},bravo:${KEY_B}`),
    databaseUrl: undefined,
    dataDir: ':memory:',
    concurrencyPerKey: 2,
    queueLength: 4,
    pageQuota: 0,
    maxFileBytes: 50 * 1024 * 1024,
    logLevel: 'info',
    textThreads: 1,
    ocrThreads: 1,
    ...over,
    // Checks run only where a test asks for them (tests of monitors pass their own settings).
    monitors: { ...MONITOR_DEFAULTS, run: false, ...over.monitors },
  };
}

/** Collects the service's JSON log lines. */
export class LogSink {
  readonly lines: string[] = [];
  readonly stream = new Writable({
    write: (chunk: Buffer, _enc, done) => {
      this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });

  get text(): string {
    return this.lines.join('\n');
  }

  records(): Record<string, unknown>[] {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  audits(): Record<string, unknown>[] {
    return this.records()
      .filter((r) => r['msg'] === 'audit')
      .map((r) => r['audit'] as Record<string, unknown>);
  }
}

export async function makeServer(
  config: Partial<ServerConfig> = {},
  extra: Omit<BuildOptions, 'config' | 'logStream'> & { store?: Store } = {},
) {
  const log = new LogSink();
  const app = await buildServer({ config: testConfig(config), logStream: log.stream, ...extra });
  return { app, log };
}

export interface Part {
  name: string;
  value: string | Uint8Array;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body, encoded by the platform's FormData (as real clients do). */
export async function multipart(parts: Part[]): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const p of parts) {
    if (p.filename !== undefined) {
      const blob = new Blob([Buffer.from(p.value)], p.contentType ? { type: p.contentType } : {});
      form.append(p.name, blob, p.filename);
    } else {
      form.append(p.name, typeof p.value === 'string' ? p.value : new Blob([Buffer.from(p.value)]));
    }
  }
  const res = new Response(form);
  const payload = Buffer.from(await res.arrayBuffer());
  return { payload, headers: { 'content-type': res.headers.get('content-type')! } };
}

export async function fileForm(bytes: Uint8Array | string, filename: string, options?: unknown, contentType?: string) {
  const parts: Part[] = [
    { name: 'file', value: typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes, filename, contentType },
  ];
  if (options !== undefined)
    parts.push({ name: 'options', value: typeof options === 'string' ? options : JSON.stringify(options) });
  return multipart(parts);
}

/**
 * A stand-in parser whose parses finish only when the test says so, or when its `timeout` option runs
 * out (as the real pipeline does), or when the request is aborted. It makes queueing and timeouts
 * deterministic; the real parser is used wherever the outcome does not depend on timing.
 */
export class GatedParser implements Parser {
  started = 0;
  private readonly waiting: Array<(doc: ParseDocument) => void> = [];

  get pending(): number {
    return this.waiting.length;
  }

  async parseFile(_input: ParseInput, options?: unknown, file?: FileInfo): Promise<ParseDocument> {
    const normalized = normalizeOptions(options);
    this.started++;
    return new Promise<ParseDocument>((resolve, reject) => {
      const finish = (doc: ParseDocument): void => {
        clearTimeout(timer);
        resolve(doc);
      };
      const drop = (err: ParseError): void => {
        clearTimeout(timer);
        const i = this.waiting.indexOf(finish);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(err);
      };
      const timer = setTimeout(() => {
        drop(new ParseError('TIMEOUT', `The parse did not finish within options.timeout (${normalized.timeout} ms).`));
      }, normalized.timeout);
      file?.signal?.addEventListener('abort', () => drop(new ParseError('ABORTED', 'aborted')), { once: true });
      this.waiting.push(finish);
    });
  }

  /** Finishes the oldest running parse. */
  finishOne(markdown = 'done'): void {
    const next = this.waiting.shift();
    if (!next) throw new Error('no parse is running');
    next({ markdown, metadata: { numPages: 1 } });
  }

  async close(): Promise<void> {}
}

/** A parser that fails the way a defect would: a plain Error, not a ParseError. */
export const brokenParser: Parser = {
  parseFile: async () => {
    throw new TypeError("Cannot read properties of undefined (reading 'x')");
  },
  close: async () => undefined,
};

export async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
}
