/**
 * The official client, unchanged, against the service on 127.0.0.1: @mendable/firecrawl-js 4.x parses a
 * PDF, a DOCX and an HTML file and lists monitors with limit/offset, and gets exactly what the server
 * sent (compared with the same request made by hand). Its errors carry the server's status and code.
 */
import type { AddressInfo } from 'node:net';
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_SKIP_MESSAGE, corpusAvailable, readCorpus } from '../test-support/corpus.js';
import { AUTH_A, KEY_A, KEY_B, makeServer } from './server-helpers.js';

if (!corpusAvailable) console.warn(CORPUS_SKIP_MESSAGE);

type App = Awaited<ReturnType<typeof makeServer>>['app'];

describe('official SDK against the service', () => {
  let app: App;
  let base = '';
  let client: Firecrawl;

  beforeAll(async () => {
    ({ app } = await makeServer());
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    client = new Firecrawl({ apiKey: KEY_A, apiUrl: base, maxRetries: 1 });
  });
  afterAll(async () => app?.close());

  /** The same multipart request the SDK makes, sent by hand, to see what the server answers. */
  async function rawParse(
    bytes: Buffer,
    filename: string,
    contentType: string,
    options: Record<string, unknown>,
  ): Promise<{ status: number; body: any }> {
    const form = new FormData();
    form.append('options', JSON.stringify(options));
    form.append('file', new Blob([bytes], { type: contentType }), filename);
    const res = await fetch(`${base}/v2/parse`, { method: 'POST', headers: AUTH_A, body: form });
    return { status: res.status, body: await res.json() };
  }

  const files: Array<[string, string, string[]]> = [
    ['test.pdf', 'application/pdf', ['While there is contemporaneous exploration of multi-agent approaches']],
    [
      'test.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      [
        '314b0a30-5b04-470b-b9f7-eed2c2bec74a',
        '49e168b7-d2ae-407f-a055-2167576f39a1',
        'AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation',
      ],
    ],
    ['test_blog.html', 'text/html', ['an example where high cost can easily prevent a generic complex']],
  ];

  describe.skipIf(!corpusAvailable)('parse()', () => {
    it.each(files)('%s', async (name, contentType, mustInclude) => {
      const bytes = readCorpus('markitdown', name);
      const options = { formats: ['markdown' as const], origin: 'docmill-test' };
      const doc = await client.parse({ data: bytes, filename: name, contentType }, options);
      for (const s of mustInclude) expect(doc.markdown).toContain(s);
      expect(doc.metadata?.sourceURL).toBe(name);
      const raw = await rawParse(bytes, name, contentType, options);
      expect(raw.status).toBe(200);
      expect(raw.body.success).toBe(true);
      expect(doc).toEqual(raw.body.data);
    });
  });

  it("parse() failures surface as SdkError with the server's status and code", async () => {
    const html = Buffer.from('<p>hello</p>');
    const bad = await client.parse({ data: html, filename: 'a.html' }, { timeout: 999999 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(SdkError);
    expect((bad as SdkError).status).toBe(400);
    expect((bad as SdkError).code).toBe('BAD_REQUEST');
    expect((bad as SdkError).message).toMatch(/timeout/);
    const unsupported = await client
      .parse({ data: Buffer.from([0, 1, 2, 3, 250, 251, 252, 253]), filename: 'x.bin' })
      .catch((e: unknown) => e);
    expect((unsupported as SdkError).status).toBe(415);
    expect((unsupported as SdkError).code).toBe('UNSUPPORTED_FILE_TYPE');
    const stranger = new Firecrawl({ apiKey: 'not-a-key-of-this-service', apiUrl: base, maxRetries: 1 });
    const denied = await stranger.parse({ data: html, filename: 'a.html' }).catch((e: unknown) => e);
    expect((denied as SdkError).status).toBe(401);
  });

  it('createMonitor, listMonitors({limit, offset}), getMonitor, updateMonitor, deleteMonitor', async () => {
    const created = [];
    for (let i = 0; i < 5; i++) {
      created.push(
        await client.createMonitor({
          name: `sdk-${i}`,
          schedule: { cron: '0 */6 * * *', timezone: 'Europe/London' },
          targets: [{ type: 'scrape', urls: [`https://example.com/${i}`], scrapeOptions: { formats: ['markdown'] } }],
          webhook: { url: 'https://hooks.example.com/m', events: ['monitor.page'] },
        }),
      );
    }
    expect(created[0]!.status).toBe('active');
    expect(created[0]!.lastCheckSummary).toEqual({ totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 });

    const page = await client.listMonitors({ limit: 2, offset: 1 });
    const raw = (await (await fetch(`${base}/v2/monitor?limit=2&offset=1`, { headers: AUTH_A })).json()) as {
      data: unknown;
    };
    expect(page).toEqual(raw.data);
    expect(page.map((m) => m.id)).toEqual([created[1]!.id, created[2]!.id]);
    expect((await client.listMonitors()).map((m) => m.id)).toEqual(created.map((m) => m.id));

    const other = new Firecrawl({ apiKey: KEY_B, apiUrl: base, maxRetries: 1 });
    expect(await other.listMonitors({ limit: 100, offset: 0 })).toEqual([]);

    const bad = await client.listMonitors({ limit: 101, offset: 0 }).catch((e: unknown) => e);
    expect((bad as SdkError).status).toBe(400);
    expect((bad as SdkError).code).toBe('BAD_REQUEST');

    expect(await client.getMonitor(created[3]!.id)).toEqual(created[3]);
    const paused = await client.updateMonitor(created[3]!.id, { status: 'paused', name: 'renamed' });
    expect([paused.status, paused.name, paused.nextRunAt]).toEqual(['paused', 'renamed', null]);
    expect(await client.deleteMonitor(created[4]!.id)).toBe(true);
    const gone = await client.getMonitor(created[4]!.id).catch((e: unknown) => e);
    expect((gone as SdkError).status).toBe(404);
  });
});
