/** Helpers shared by the HTTP service tests. */
import { Writable } from 'node:stream';
import { buildServer, type BuildOptions } from '../src/server/app.js';
import { parseApiKeys, type ServerConfig } from '../src/server/config.js';
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
    return this.records().filter((r) => r['msg'] === 'audit').map((r) => r['audit'] as Record<string, unknown>);
  }
}

export async function makeServer(config: Partial<ServerConfig> = {}, extra: Omit<BuildOptions, 'config' | 'logStream'> & { store?: Store } = {}) {
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
      const blob = new Blob([p.value as BlobPart], p.contentType ? { type: p.contentType } : {});
      form.append(p.name, blob, p.filename);
    } else {
      form.append(p.name, typeof p.value === 'string' ? p.value : new Blob([p.value as BlobPart]));
    }
  }
  const res = new Response(form);
  const payload = Buffer.from(await res.arrayBuffer());
  return { payload, headers: { 'content-type': res.headers.get('content-type')! } };
}

export async function fileForm(bytes: Uint8Array | string, filename: string, options?: unknown, contentType?: string) {
  const parts: Part[] = [{ name: 'file', value: typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes, filename, contentType }];
  if (options !== undefined) parts.push({ name: 'options', value: typeof options === 'string' ? options : JSON.stringify(options) });
  return multipart(parts);
}
