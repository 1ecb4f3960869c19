/**
 * The HTTP service in process (Fastify inject): every row of the specification's Errors table, every
 * limit, authentication, the per-key queue, zero data retention and the audit line, and monitor
 * validation. The store here is the embedded default; test/server-store.test.ts runs the store and the
 * monitor routes against PostgreSQL as well.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, MONITOR_DEFAULTS, parseApiKeys } from '../src/server/config.js';
import { CORPUS_SKIP_MESSAGE, corpusAvailable, readCorpus } from '../test-support/corpus.js';
import {
  AUTH_A,
  AUTH_B,
  GatedParser,
  KEY_A,
  KEY_B,
  brokenParser,
  fileForm,
  makeServer,
  multipart,
  until,
} from './server-helpers.js';

type App = Awaited<ReturnType<typeof makeServer>>['app'];

const HTML =
  '<html><head><title>Quarterly note</title></head><body><h1>Results</h1><p>Revenue grew in the third quarter.</p></body></html>';

async function postParse(
  app: App,
  form: { payload: Buffer; headers: Record<string, string> },
  auth: Record<string, string> = AUTH_A,
) {
  return app.inject({ method: 'POST', url: '/v2/parse', headers: { ...auth, ...form.headers }, payload: form.payload });
}

function encryptedDocx(): Buffer {
  const z = Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      'word/document.xml': strToU8('<w:document/>'),
    }),
  );
  // Set the "encrypted" flag of every local and central directory header, as a password-protected ZIP has.
  for (let i = 0; i < z.length - 4; i++) {
    if (z.readUInt32LE(i) === 0x04034b50) z[i + 6]! |= 1;
    if (z.readUInt32LE(i) === 0x02014b50) z[i + 8]! |= 1;
  }
  return z;
}

describe('configuration', () => {
  it('reads keys with ids, limits and the database URL from the environment', () => {
    const c = loadConfig({
      DOCMILL_API_KEYS: `one:${KEY_A}, two:${KEY_B}`,
      DOCMILL_PORT: '8080',
      DOCMILL_CONCURRENCY_PER_KEY: '3',
      DOCMILL_QUEUE_LENGTH: '0',
      DOCMILL_PAGE_QUOTA: '1000',
      DOCMILL_DATABASE_URL: 'postgres://u:p@db:5432/docmill',
    });
    expect(c.apiKeys.map((k) => k.id)).toEqual(['one', 'two']);
    expect([c.port, c.concurrencyPerKey, c.queueLength, c.pageQuota]).toEqual([8080, 3, 0, 1000]);
    expect(c.databaseUrl).toBe('postgres://u:p@db:5432/docmill');
    expect(c.maxFileBytes).toBe(50 * 1024 * 1024);
  });

  it('refuses to start without keys, with short keys or with bad numbers', () => {
    expect(() => loadConfig({})).toThrow(/No API keys/);
    expect(() => parseApiKeys('a:short')).toThrow(/shorter than 16/);
    expect(() => parseApiKeys(`nocolon${KEY_A}`)).toThrow(/id:key/);
    expect(() => parseApiKeys(`a:${KEY_A},a:${KEY_B}`)).toThrow(/twice/);
    expect(() => loadConfig({ DOCMILL_API_KEYS: `a:${KEY_A}`, DOCMILL_QUEUE_LENGTH: '-1' })).toThrow(
      /DOCMILL_QUEUE_LENGTH/,
    );
    expect(() => loadConfig({ DOCMILL_API_KEYS: `a:${KEY_A}`, DOCMILL_DATABASE_URL: 'mysql://x' })).toThrow(/postgres/);
  });
});

describe('authentication', () => {
  let app: App;
  let log: Awaited<ReturnType<typeof makeServer>>['log'];
  beforeAll(async () => ({ app, log } = await makeServer()));
  afterAll(async () => app.close());

  const routes: Array<[string, string]> = [
    ['POST', '/v2/parse'],
    ['GET', '/v2/monitor'],
    ['POST', '/v2/monitor'],
    ['GET', '/v2/monitor/7d8f1b5e-4b0a-4c53-9a55-0f6a1f0f7c11'],
    ['PATCH', '/v2/monitor/7d8f1b5e-4b0a-4c53-9a55-0f6a1f0f7c11'],
    ['DELETE', '/v2/monitor/7d8f1b5e-4b0a-4c53-9a55-0f6a1f0f7c11'],
    ['GET', '/v2/openapi.json'],
    ['GET', '/no/such/route'],
  ];

  it.each(routes)('%s %s without a key → 401 {success:false, error}', async (method, url) => {
    const res = await app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    const body = res.json();
    expect(body).toEqual({ success: false, error: expect.any(String) });
  });

  it('refuses unknown keys, other schemes and keys in the query or body', async () => {
    const attempts = [
      { headers: { authorization: 'Bearer not-a-configured-key-000000' } },
      { headers: { authorization: `Basic ${KEY_A}` } },
      { headers: { authorization: KEY_A } },
      { headers: { authorization: `Bearer ${KEY_A}x` } },
      { headers: { authorization: `Bearer ${KEY_A.slice(0, -1)}` } },
      { url: `/v2/monitor?api_key=${KEY_A}` },
      { url: `/v2/monitor?apiKey=${KEY_A}&key=${KEY_A}&authorization=Bearer%20${KEY_A}` },
    ];
    for (const a of attempts) {
      const res = await app.inject({ method: 'GET', url: a.url ?? '/v2/monitor', headers: a.headers ?? {} });
      expect(res.statusCode, JSON.stringify(a)).toBe(401);
      expect(res.json().success).toBe(false);
    }
    const body = await app.inject({ method: 'POST', url: '/v2/monitor', payload: { apiKey: KEY_A, api_key: KEY_A } });
    expect(body.statusCode).toBe(401);
  });

  it('accepts each configured key, the scheme in any case, and never logs a key', async () => {
    expect((await app.inject({ method: 'GET', url: '/v2/monitor', headers: AUTH_A })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/v2/monitor', headers: AUTH_B })).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: '/v2/monitor', headers: { authorization: `bearer ${KEY_A}` } }))
        .statusCode,
    ).toBe(200);
    await app.inject({ method: 'GET', url: `/v2/monitor?api_key=${KEY_A}` });
    expect(log.lines.length).toBeGreaterThan(0);
    expect(log.text).not.toContain(KEY_A);
    expect(log.text).not.toContain(KEY_B);
  });
});

describe('POST /v2/parse', () => {
  let app: App;
  let log: Awaited<ReturnType<typeof makeServer>>['log'];
  beforeAll(async () => ({ app, log } = await makeServer()));
  afterAll(async () => app.close());

  it('200 {success:true, data} with markdown and metadata.sourceURL set to the file name', async () => {
    const res = await postParse(
      app,
      await fileForm(HTML, 'note.html', { formats: ['markdown', 'links'] }, 'text/html'),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.markdown).toContain('# Results');
    expect(body.data.markdown).toContain('Revenue grew in the third quarter.');
    expect(body.data.metadata.sourceURL).toBe('note.html');
    expect(body.data.metadata.title).toBe('Quarterly note');
    expect(body.data.metadata.contentType).toMatch(/text\/html/);
    expect(Array.isArray(body.data.links)).toBe(true);
    expect(body.data.metadata.concurrencyLimited).toBeUndefined();
  });

  it('accepts options sent as a JSON part with a file name and content type', async () => {
    const form = await multipart([
      {
        name: 'options',
        value: strToU8(JSON.stringify({ formats: ['html'] })),
        filename: 'blob',
        contentType: 'application/json',
      },
      { name: 'file', value: strToU8(HTML), filename: 'note.html', contentType: 'text/html' },
    ]);
    const res = await postParse(app, form);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().data).sort()).toEqual(['html', 'metadata']);
  });

  it('markdown by default when options are omitted', async () => {
    const res = await postParse(app, await fileForm(HTML, 'plain.html'));
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().data).sort()).toEqual(['markdown', 'metadata']);
  });

  // Errors table, row 400: {success:false, code:"BAD_REQUEST", error}.
  const badRequests: Array<
    [string, () => Promise<{ payload: Buffer | string; headers: Record<string, string> }>, RegExp]
  > = [
    [
      'a JSON body instead of multipart',
      async () => ({ payload: JSON.stringify({ file: 'x' }), headers: { 'content-type': 'application/json' } }),
      /multipart/,
    ],
    ['no file part', async () => multipart([{ name: 'options', value: '{}' }]), /Missing file/],
    [
      'the file under another field name',
      async () => multipart([{ name: 'document', value: strToU8(HTML), filename: 'a.html' }]),
      /field "file"/,
    ],
    [
      'an unknown field',
      async () =>
        multipart([
          { name: 'file', value: strToU8(HTML), filename: 'a.html' },
          { name: 'extra', value: '1' },
        ]),
      /Unexpected multipart field "extra"/,
    ],
    [
      'two files',
      async () =>
        multipart([
          { name: 'file', value: strToU8(HTML), filename: 'a.html' },
          { name: 'file', value: strToU8(HTML), filename: 'b.html' },
        ]),
      /exactly one file/,
    ],
    [
      'three files',
      async () => multipart([1, 2, 3].map((i) => ({ name: 'file', value: strToU8(HTML), filename: `${i}.html` }))),
      /one file/,
    ],
    [
      'options given twice',
      async () =>
        multipart([
          { name: 'options', value: '{}' },
          { name: 'options', value: '{}' },
          { name: 'file', value: strToU8(HTML), filename: 'a.html' },
        ]),
      /twice/,
    ],
    ['an empty file', async () => fileForm('', 'empty.html'), /empty/],
    [
      'options that are not JSON',
      async () => fileForm(HTML, 'a.html', '{formats: markdown'),
      /options: not valid JSON/,
    ],
    ['options that are not an object', async () => fileForm(HTML, 'a.html', '[1,2]'), /options: expected an object/],
    [
      'a timeout above 300000',
      async () => fileForm(HTML, 'a.html', { timeout: 300001 }),
      /options\.timeout: must be at most 300000/,
    ],
    ['an unknown proxy', async () => fileForm(HTML, 'a.html', { proxy: 'stealth' }), /options\.proxy/],
    [
      'maxPages out of range',
      async () => fileForm(HTML, 'a.html', { parsers: [{ type: 'pdf', maxPages: 10001 }] }),
      /maxPages/,
    ],
    [
      'auditMetadata.username over 1024 characters',
      async () => fileForm(HTML, 'a.html', { auditMetadata: { username: 'u'.repeat(1025) } }),
      /auditMetadata\.username/,
    ],
    [
      'a browser-only format',
      async () => fileForm(HTML, 'a.html', { formats: [{ type: 'screenshot' }] }),
      /not supported for parse/,
    ],
    [
      'a truncated multipart body',
      async () => {
        const f = await fileForm(HTML, 'a.html');
        return { payload: f.payload.subarray(0, f.payload.length - 60), headers: f.headers };
      },
      /./,
    ],
    [
      'a multipart content type without boundary',
      async () => ({ payload: 'x', headers: { 'content-type': 'multipart/form-data' } }),
      /./,
    ],
  ];

  it.each(badRequests)('400 BAD_REQUEST for %s', async (_name, make, message) => {
    const form = await make();
    const res = await app.inject({
      method: 'POST',
      url: '/v2/parse',
      headers: { ...AUTH_A, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toEqual({ success: false, code: 'BAD_REQUEST', error: expect.any(String) });
    expect(body.error).toMatch(message);
  });

  it('library failures keep their code, with the status the library assigns', async () => {
    const cases: Array<[Uint8Array, string, number, string]> = [
      [new Uint8Array(300).map((_, i) => (i * 37 + 11) % 256), 'noise.bin', 415, 'UNSUPPORTED_FILE_TYPE'],
      [new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 'broken.docx', 422, 'MALFORMED'],
      [encryptedDocx(), 'locked.docx', 422, 'ENCRYPTED'],
    ];
    for (const [bytes, name, status, code] of cases) {
      const res = await postParse(app, await fileForm(bytes, name));
      expect(res.statusCode, name).toBe(status);
      expect(res.json()).toEqual({ success: false, code, error: expect.any(String) });
    }
  });

  it('413 RESOURCE_LIMIT for a file one byte over 50 MB; exactly 50 MB is read', async () => {
    const over = Buffer.alloc(50 * 1024 * 1024 + 1, 0x20);
    const res = await postParse(app, await fileForm(over, 'big.csv'));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ success: false, code: 'RESOURCE_LIMIT', error: expect.stringMatching(/50 MB/) });
    expect(log.audits().at(-1)).toMatchObject({ status: 413, code: 'RESOURCE_LIMIT' });
    // At the limit the upload is accepted and handed to the parser (which then judges the content).
    const at = Buffer.alloc(50 * 1024 * 1024, 0x00);
    const ok = await postParse(app, await fileForm(at, 'zeros.bin'));
    expect(ok.statusCode).toBe(415);
  });

  it('writes one audit line per parse with the key id and auditMetadata.username, never the key or the content', async () => {
    const marker = 'Zebra-4711-unique-content-marker';
    const before = log.lines.length;
    const res = await postParse(
      app,
      await fileForm(`<p>${marker}</p>`, 'memo.html', { auditMetadata: { username: 'alice@example.org' } }),
    );
    expect(res.statusCode).toBe(200);
    const lines = log.lines.slice(before);
    const audits = lines
      .map((l) => JSON.parse(l))
      .filter((r) => r.msg === 'audit')
      .map((r) => r.audit);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      event: 'parse',
      keyId: 'alpha',
      username: 'alice@example.org',
      status: 200,
      filename: 'memo.html',
      zeroDataRetention: false,
    });
    expect(lines.join('\n')).not.toContain(marker);
    expect(lines.join('\n')).not.toContain(KEY_A);
  });

  it('zeroDataRetention: no temporary file, no content or file name in the logs, audit line kept', async () => {
    const marker = 'Okapi-9931-private-content';
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'docmill-zdr-'));
    const saved = process.env['TMPDIR'];
    process.env['TMPDIR'] = tmp;
    try {
      const before = log.lines.length;
      const res = await postParse(
        app,
        await fileForm(`<h1>${marker}</h1>`, 'patient-jane-doe.html', {
          zeroDataRetention: true,
          auditMetadata: { username: 'bob' },
        }),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().data.markdown).toContain(marker);
      const failed = await postParse(
        app,
        await fileForm(encryptedDocx(), 'patient-jane-doe.docx', { zeroDataRetention: true }),
      );
      expect(failed.statusCode).toBe(422);
      const text = log.lines.slice(before).join('\n');
      expect(text).not.toContain(marker);
      expect(text).not.toContain('jane-doe');
      const audits = log.audits().slice(-2);
      expect(audits[0]).toMatchObject({
        keyId: 'alpha',
        username: 'bob',
        zeroDataRetention: true,
        filename: null,
        status: 200,
      });
      expect(audits[1]).toMatchObject({ zeroDataRetention: true, filename: null, status: 422, code: 'ENCRYPTED' });
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = saved;
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

if (!corpusAvailable) console.warn(CORPUS_SKIP_MESSAGE);

describe.skipIf(!corpusAvailable)('POST /v2/parse with the real PDF reader', () => {
  let app: App;
  beforeAll(async () => ({ app } = await makeServer()));
  afterAll(async () => app.close());

  it('pages and blocks only when asked; numPages in metadata', async () => {
    const pdf = readCorpus('markitdown', 'REPAIR-2022-INV-001_multipage.pdf');
    const plain = (
      await postParse(app, await fileForm(pdf, 'repair.pdf', { parsers: [{ type: 'pdf', mode: 'fast' }] }))
    ).json();
    expect(plain.success).toBe(true);
    expect(plain.data.pages).toBeUndefined();
    expect(plain.data.blocks).toBeUndefined();
    const rich = (
      await postParse(
        app,
        await fileForm(pdf, 'repair.pdf', {
          parsers: [{ type: 'pdf', mode: 'fast', pages: true, blocks: true, maxPages: 1 }],
        }),
      )
    ).json();
    expect(rich.data.pages).toHaveLength(1);
    expect(rich.data.blocks[0].pageNumber).toBe(1);
    expect(rich.data.metadata.numPages).toBe(1);
    expect(rich.data.metadata.totalPages).toBeGreaterThan(1);
    expect(rich.data.metadata.sourceURL).toBe('repair.pdf');
  });

  it('a timeout shorter than the parse answers 408 TIMEOUT promptly', async () => {
    const pdf = readCorpus('markitdown', 'REPAIR-2022-INV-001_multipage.pdf');
    const t0 = performance.now();
    const res = await postParse(app, await fileForm(pdf, 'repair.pdf', { timeout: 1 }));
    expect(res.statusCode).toBe(408);
    expect(res.json()).toEqual({ success: false, code: 'TIMEOUT', error: expect.stringMatching(/timeout/) });
    expect(performance.now() - t0).toBeLessThan(30_000);
  });
});

describe('POST /v2/parse: 500, timeout, queue and quota', () => {
  it('500 {success:false, code:"UNKNOWN_ERROR", error} for an unexpected failure', async () => {
    const { app } = await makeServer({}, { parser: brokenParser });
    const res = await postParse(app, await fileForm(HTML, 'a.html'));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      code: 'UNKNOWN_ERROR',
      error: expect.stringContaining('Cannot read properties'),
    });
    await app.close();
  });

  it('a parse that outlives options.timeout answers 408 TIMEOUT instead of hanging', async () => {
    const parser = new GatedParser();
    const { app } = await makeServer({}, { parser });
    const res = await postParse(app, await fileForm(HTML, 'slow.html', { timeout: 50 }));
    expect(res.statusCode).toBe(408);
    expect(res.json()).toEqual({ success: false, code: 'TIMEOUT', error: expect.stringMatching(/50 ms/) });
    await app.close();
  });

  it('per-key concurrency: waiters are flagged, a full queue gives 429 {error}, other keys are unaffected', async () => {
    const parser = new GatedParser();
    const { app, log } = await makeServer({ concurrencyPerKey: 1, queueLength: 1 }, { parser });
    const form = await fileForm(HTML, 'a.html');
    const first = postParse(app, form);
    await until(() => parser.started === 1);
    const second = postParse(app, form);
    await new Promise((r) => setTimeout(r, 30));
    const third = await postParse(app, form);
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ error: expect.stringMatching(/Concurrency limit/) });
    expect(log.audits().at(-1)).toMatchObject({ keyId: 'alpha', status: 429, code: 'RATE_LIMITED' });
    // Another key has its own slots.
    const other = postParse(app, form, AUTH_B);
    await until(() => parser.started === 2);
    expect(parser.pending).toBe(2);
    parser.finishOne();
    parser.finishOne();
    const r1 = (await first).json();
    expect(r1.data.metadata.concurrencyLimited).toBeUndefined();
    expect((await other).statusCode).toBe(200);
    await until(() => parser.started === 3);
    parser.finishOne('second');
    const r2 = (await second).json();
    expect(r2.data.markdown).toBe('second');
    expect(r2.data.metadata.concurrencyLimited).toBe(true);
    expect(r2.data.metadata.concurrencyQueueDurationMs).toBeGreaterThanOrEqual(25);
    // Slots are free again.
    const again = postParse(app, form);
    await until(() => parser.started === 4);
    parser.finishOne();
    expect((await again).statusCode).toBe(200);
    await app.close();
  });

  it('a client that hangs up leaves the queue, and one that hangs up while parsing aborts its parse', async () => {
    const parser = new GatedParser();
    const { app } = await makeServer({ concurrencyPerKey: 1, queueLength: 1 }, { parser });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const send = (signal?: AbortSignal) => {
      const form = new FormData();
      form.append('file', new Blob([HTML], { type: 'text/html' }), 'a.html');
      return fetch(`${base}/v2/parse`, { method: 'POST', headers: AUTH_A, body: form, signal });
    };
    const first = new AbortController();
    const running = send(first.signal).catch((e: unknown) => e);
    await until(() => parser.started === 1);
    const second = new AbortController();
    const waiting = send(second.signal).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    expect((await send()).status).toBe(429);
    second.abort();
    await waiting;
    // The queue place is free again: the next request waits instead of being refused.
    await new Promise((r) => setTimeout(r, 50));
    const third = send();
    await new Promise((r) => setTimeout(r, 50));
    first.abort();
    await running;
    await until(() => parser.started === 2);
    expect(parser.pending).toBe(1); // the first parse was aborted, not left running
    parser.finishOne('third');
    const res = await third;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { markdown: string; metadata: { concurrencyLimited?: boolean } } };
    expect(body.data.markdown).toBe('third');
    expect(body.data.metadata.concurrencyLimited).toBe(true);
    await app.close();
  });

  it('a queue length of 0 refuses every request beyond the running ones', async () => {
    const parser = new GatedParser();
    const { app } = await makeServer({ concurrencyPerKey: 1, queueLength: 0 }, { parser });
    const form = await fileForm(HTML, 'a.html');
    const first = postParse(app, form);
    await until(() => parser.started === 1);
    expect((await postParse(app, form)).statusCode).toBe(429);
    parser.finishOne();
    expect((await first).statusCode).toBe(200);
    await app.close();
  });

  it('402 {error} once the key has spent its page quota; other keys keep theirs', async () => {
    const { app, log } = await makeServer({ pageQuota: 2 });
    const form = await fileForm(HTML, 'a.html');
    expect((await postParse(app, form)).statusCode).toBe(200);
    expect((await postParse(app, form)).statusCode).toBe(200);
    const spent = await postParse(app, form);
    expect(spent.statusCode).toBe(402);
    expect(spent.json()).toEqual({ error: expect.stringMatching(/quota/) });
    expect(log.audits().at(-1)).toMatchObject({ keyId: 'alpha', status: 402, code: 'PAYMENT_REQUIRED' });
    expect((await postParse(app, form, AUTH_B)).statusCode).toBe(200);
    await app.close();
  });
});

describe('monitors', () => {
  let app: App;
  // An SMTP URL is configured: monitors with e-mail notification are refused without one (tested below).
  beforeAll(
    async () =>
      ({ app } = await makeServer({ monitors: { ...MONITOR_DEFAULTS, run: false, smtpUrl: 'smtp://127.0.0.1:25' } })),
  );
  afterAll(async () => app.close());

  const valid = {
    name: 'Pricing pages',
    schedule: { cron: '0 9 * * 1-5', timezone: 'America/New_York' },
    targets: [
      {
        type: 'scrape',
        urls: ['https://example.com/pricing', 'https://example.com/plans'],
        scrapeOptions: { onlyMainContent: true, formats: ['markdown'] },
      },
    ],
    webhook: { url: 'https://hooks.example.com/docmill', headers: { 'x-token': 't' }, events: ['monitor.page'] },
    notification: { email: { enabled: true, recipients: ['ops@example.com'], includeDiffs: true } },
    retentionDays: 14,
    goal: 'Tell me when prices change',
    judgeEnabled: true,
    origin: 'js-sdk@4.42.0',
  };

  it('creates a monitor with every field of the Monitor table', async () => {
    const res = await app.inject({ method: 'POST', url: '/v2/monitor', headers: AUTH_A, payload: valid });
    expect(res.statusCode).toBe(200);
    const m = res.json().data;
    expect(Object.keys(m).sort()).toEqual([
      'createdAt',
      'currentCheckId',
      'estimatedCreditsPerMonth',
      'goal',
      'id',
      'judgeEnabled',
      'lastCheckSummary',
      'lastRunAt',
      'name',
      'nextRunAt',
      'notification',
      'retentionDays',
      'schedule',
      'status',
      'targets',
      'updatedAt',
      'webhook',
    ]);
    expect(m.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(m.status).toBe('active');
    expect(m.schedule).toEqual({ cron: '0 9 * * 1-5', timezone: 'America/New_York' });
    expect(m.targets[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(m.targets[0].urls).toEqual(valid.targets[0]!.urls);
    expect(m.webhook).toEqual({
      url: valid.webhook.url,
      headers: { 'x-token': 't' },
      metadata: {},
      events: ['monitor.page'],
    });
    expect(m.notification).toEqual(valid.notification);
    expect(m.lastCheckSummary).toEqual({ totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 });
    expect([m.lastRunAt, m.currentCheckId]).toEqual([null, null]);
    expect([m.retentionDays, m.goal, m.judgeEnabled]).toEqual([14, valid.goal, true]);
    // 2 URLs × about 21.7 weekdays a month.
    expect(m.estimatedCreditsPerMonth).toBeGreaterThanOrEqual(40);
    expect(m.estimatedCreditsPerMonth).toBeLessThanOrEqual(46);
    expect(m.createdAt).toBe(m.updatedAt);
    // nextRunAt is 09:00 on a weekday in New York: check it in that zone, independently of croner.
    const next = new Date(m.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(4 * 24 * 3600 * 1000);
    const local = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    }).formatToParts(next);
    const part = (t: string) => local.find((p) => p.type === t)!.value;
    expect(`${part('hour')}:${part('minute')}`).toBe('09:00');
    expect(['Sat', 'Sun']).not.toContain(part('weekday'));
    const get = await app.inject({ method: 'GET', url: `/v2/monitor/${m.id}`, headers: AUTH_A });
    expect(get.json()).toEqual({ success: true, data: m });
  });

  const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a cron expression with a bad field', { schedule: { cron: '61 * * * *' } }, /schedule\.cron/],
    ['a six-field cron expression', { schedule: { cron: '0 0 9 * * *' } }, /five fields/],
    ['a cron expression that is not one', { schedule: { cron: 'every day' } }, /schedule\.cron/],
    ['an unknown time zone', { schedule: { cron: '0 9 * * *', timezone: 'Mars/Olympus' } }, /IANA/],
    ['a schedule text it does not understand', { schedule: { text: 'whenever it rains' } }, /schedule\.text/],
    ['both cron and text', { schedule: { cron: '0 9 * * *', text: 'daily' } }, /either cron or text/],
    ['a schedule without cron or text', { schedule: { timezone: 'UTC' } }, /schedule\.cron/],
    ['no targets', { targets: [] }, /targets/],
    ['a target without urls', { targets: [{ type: 'scrape', urls: [] }] }, /urls/],
    ['a non-http URL', { targets: [{ type: 'scrape', urls: ['ftp://example.com/x'] }] }, /urls\[0\]/],
    ['an unsupported target type', { targets: [{ type: 'crawl', urls: ['https://example.com'] }] }, /type/],
    [
      'an unknown scrapeOptions member',
      { targets: [{ type: 'scrape', urls: ['https://example.com'], scrapeOptions: { turbo: true } }] },
      /turbo/,
    ],
    ['a webhook without url', { webhook: { headers: {} } }, /webhook\.url/],
    ['a webhook to a non-http URL', { webhook: { url: 'javascript:alert(1)' } }, /webhook\.url/],
    ['an unknown webhook event', { webhook: { url: 'https://h.example.com', events: ['page'] } }, /events/],
    [
      'a webhook event name of another kind',
      { webhook: { url: 'https://h.example.com', events: ['monitor.crawl.finished'] } },
      /monitor\.page, monitor\.check\.completed|events/,
    ],
    [
      'a bad e-mail recipient',
      { notification: { email: { enabled: true, recipients: ['not-an-address'] } } },
      /recipients/,
    ],
    ['e-mail enabled without recipients', { notification: { email: { enabled: true, recipients: [] } } }, /recipient/],
    ['an unknown member', { colour: 'red' }, /colour/],
    ['a name of the wrong type', { name: 5 }, /name/],
    ['an empty name', { name: '' }, /name/],
    ['retentionDays of 0', { retentionDays: 0 }, /retentionDays/],
    ['judgeEnabled as text', { judgeEnabled: 'yes' }, /judgeEnabled/],
  ];

  it.each(invalid)('POST refuses %s with 400 BAD_REQUEST naming the field', async (_name, change, message) => {
    const res = await app.inject({
      method: 'POST',
      url: '/v2/monitor',
      headers: AUTH_A,
      payload: { ...valid, ...change },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toEqual({ success: false, code: 'BAD_REQUEST', error: expect.any(String) });
    expect(body.error).toMatch(message);
  });

  it.each([
    ['every 30 minutes', '*/30 * * * *'],
    ['every 2 hours', '0 */2 * * *'],
    ['hourly', '0 * * * *'],
    ['daily', '0 0 * * *'],
    ['Daily at 9:00', '0 9 * * *'],
    ['every day at 6pm', '0 18 * * *'],
    ['weekdays at 08:30', '30 8 * * 1-5'],
    ['every monday at 9:15', '15 9 * * 1'],
    ['every day at 12am', '0 0 * * *'],
  ])('schedule.text "%s" is stored as cron "%s"', async (text, cron) => {
    const res = await app.inject({
      method: 'POST',
      url: '/v2/monitor',
      headers: AUTH_A,
      payload: { ...valid, schedule: { text, timezone: 'Europe/Paris' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.schedule).toEqual({ cron, timezone: 'Europe/Paris' });
  });

  it('POST refuses a body that is not JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v2/monitor',
      headers: { ...AUTH_A, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('BAD_REQUEST');
  });

  it('PATCH pauses, resumes, reschedules and clears; refuses invalid changes', async () => {
    const created = (await app.inject({ method: 'POST', url: '/v2/monitor', headers: AUTH_A, payload: valid })).json()
      .data;
    const patch = (payload: unknown) =>
      app.inject({ method: 'PATCH', url: `/v2/monitor/${created.id}`, headers: AUTH_A, payload: payload as object });
    const paused = (await patch({ status: 'paused' })).json().data;
    expect(paused.status).toBe('paused');
    expect(paused.nextRunAt).toBeNull();
    expect(Date.parse(paused.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    const moved = (await patch({ status: 'active', schedule: { cron: '30 6 * * *', timezone: 'Asia/Kolkata' } })).json()
      .data;
    expect(moved.schedule).toEqual({ cron: '30 6 * * *', timezone: 'Asia/Kolkata' });
    expect(new Date(moved.nextRunAt).getUTCHours()).toBe(1); // 06:30 IST = 01:00 UTC
    expect(new Date(moved.nextRunAt).getUTCMinutes()).toBe(0);
    const rezoned = (await patch({ schedule: { timezone: 'UTC' } })).json().data;
    expect(rezoned.schedule).toEqual({ cron: '30 6 * * *', timezone: 'UTC' });
    expect(new Date(rezoned.nextRunAt).getUTCHours()).toBe(6);
    const worded = (await patch({ schedule: { text: 'every 15 minutes' } })).json().data;
    expect(worded.schedule).toEqual({ cron: '*/15 * * * *', timezone: 'UTC' });
    const cleared = (await patch({ webhook: null, notification: null, goal: null })).json().data;
    expect([cleared.webhook, cleared.notification, cleared.goal]).toEqual([null, null, null]);
    expect(cleared.createdAt).toBe(created.createdAt);
    for (const bad of [
      { status: 'deleted' },
      { schedule: { cron: '* * *' } },
      {},
      { id: created.id },
      { schedule: { cron: '0 1 * * *', timezone: 'Nowhere/City' } },
    ]) {
      const res = await patch(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().code).toBe('BAD_REQUEST');
    }
  });

  it("GET, PATCH and DELETE see only the caller's monitors; unknown ids → 404, malformed ids → 400", async () => {
    const mine = (await app.inject({ method: 'POST', url: '/v2/monitor', headers: AUTH_A, payload: valid })).json()
      .data;
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({
        method,
        url: `/v2/monitor/${mine.id}`,
        headers: AUTH_B,
        ...(method === 'PATCH' ? { payload: { name: 'stolen' } } : {}),
      });
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', error: expect.any(String) });
    }
    expect((await app.inject({ method: 'GET', url: '/v2/monitor/not-a-uuid', headers: AUTH_A })).statusCode).toBe(400);
    const del = await app.inject({ method: 'DELETE', url: `/v2/monitor/${mine.id}`, headers: AUTH_A });
    expect(del.json()).toEqual({ success: true });
    expect((await app.inject({ method: 'GET', url: `/v2/monitor/${mine.id}`, headers: AUTH_A })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/v2/monitor/${mine.id}`, headers: AUTH_A })).statusCode).toBe(
      404,
    );
  });
});

describe('GET /v2/monitor', () => {
  let app: App;
  const ids: string[] = [];
  beforeAll(async () => {
    ({ app } = await makeServer());
    for (let i = 0; i < 30; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/v2/monitor',
        headers: AUTH_A,
        payload: {
          name: `m${i}`,
          schedule: { cron: `${i} * * * *` },
          targets: [{ type: 'scrape', urls: [`https://example.com/${i}`] }],
        },
      });
      ids.push(res.json().data.id);
    }
    await app.inject({
      method: 'POST',
      url: '/v2/monitor',
      headers: AUTH_B,
      payload: {
        name: 'theirs',
        schedule: { cron: '0 0 * * *' },
        targets: [{ type: 'scrape', urls: ['https://example.org'] }],
      },
    });
  });
  afterAll(async () => app.close());

  const list = async (query = '', auth = AUTH_A) =>
    app.inject({ method: 'GET', url: `/v2/monitor${query}`, headers: auth });

  it("defaults to limit 25, offset 0, oldest first, the caller's monitors only", async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 25));
    expect(body.data[0].schedule.timezone).toBe('UTC');
    const theirs = (await list('', AUTH_B)).json().data;
    expect(theirs.map((m: { name: string }) => m.name)).toEqual(['theirs']);
  });

  it('pages with limit and offset in a stable order', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 40; offset += 7) {
      const page = (await list(`?limit=7&offset=${offset}`)).json().data;
      seen.push(...page.map((m: { id: string }) => m.id));
    }
    expect(seen).toEqual(ids);
    expect((await list('?limit=100')).json().data).toHaveLength(30);
    expect((await list('?limit=1&offset=29')).json().data[0].id).toBe(ids[29]);
    expect((await list('?offset=30')).json().data).toEqual([]);
  });

  it.each([
    '?limit=0',
    '?limit=101',
    '?limit=-1',
    '?limit=abc',
    '?limit=1.5',
    '?offset=-1',
    '?offset=x',
    '?limit=1&limit=2',
  ])('refuses %s with 400 BAD_REQUEST', async (query) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, code: 'BAD_REQUEST', error: expect.any(String) });
  });

  it('ignores query parameters it does not know', async () => {
    expect((await list('?page=2&limit=3')).json().data.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 3));
  });

  it('accepts the bounds limit=1 and limit=100', async () => {
    expect((await list('?limit=1')).json().data).toHaveLength(1);
    expect((await list('?limit=100&offset=0')).statusCode).toBe(200);
  });
});

describe('GET /v2/openapi.json', () => {
  it('is generated from the route schemas', async () => {
    const { app } = await makeServer();
    const doc = (await app.inject({ method: 'GET', url: '/v2/openapi.json', headers: AUTH_A })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/v2/monitor',
      '/v2/monitor/{id}',
      '/v2/monitor/{id}/checks',
      '/v2/monitor/{id}/checks/{checkId}',
      '/v2/monitor/{id}/run',
      '/v2/parse',
    ]);
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    const parse = doc.paths['/v2/parse'].post;
    expect(Object.keys(parse.requestBody.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(parse.requestBody.content['multipart/form-data'].schema.properties)).toEqual([
      'file',
      'options',
    ]);
    expect(JSON.stringify(doc)).not.toContain('x-docmill');
    expect(Object.keys(parse.responses)).toEqual(expect.arrayContaining(['200', '400', '402', '429', '500']));
    const listParams = doc.paths['/v2/monitor'].get.parameters.map((p: { name: string; schema: unknown }) => [
      p.name,
      p.schema,
    ]);
    expect(listParams).toEqual([
      ['limit', { type: 'integer', minimum: 1, maximum: 100, default: 25 }],
      ['offset', { type: 'integer', minimum: 0, maximum: 2147483647, default: 0 }],
    ]);
    expect(
      doc.paths['/v2/monitor/{id}'].patch.requestBody.content['application/json'].schema.properties.status.enum,
    ).toEqual(['active', 'paused']);
    await app.close();
  });
});
