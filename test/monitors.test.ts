/**
 * Monitors that run, on one instance (embedded database), against real parts on loopback: a page server
 * whose HTML and PDF pages change between checks, a webhook receiver that verifies signatures, an SMTP
 * server, and the official SDK (runMonitor, listMonitorChecks, getMonitorCheck). The scheduler runs on a
 * test clock, so fire times come when the test moves the clock instead of once a minute.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Firecrawl, { SdkError, type MonitorCheck, type MonitorCheckDetail } from '@mendable/firecrawl-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONITOR_DEFAULTS, type MonitorConfig } from '../src/server/config.js';
import { ManualClock } from '../src/server/monitors/scheduler.js';
import type { MonitorRuntimeOptions } from '../src/server/monitors/service.js';
import { KEY_A, KEY_B, makeServer } from './server-helpers.js';
import { mailText, PageServer, SmtpSink, waitFor, WebhookReceiver } from './monitor-helpers.js';

const SECRET = 'whsec-docmill-test-5d1c0e';
const FINISHED = ['completed', 'partial', 'failed', 'skipped_overlap'];
const FIXTURE_PDF = readFileSync(new URL('../fixtures/pdf/single-page.pdf', import.meta.url));

/** The fixture memo with a second page carrying `note`: the PDF "changes" between checks. */
async function memoWithNote(note: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(FIXTURE_PDF);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText(note, { x: 72, y: 760, size: 12, font });
  return doc.save();
}

async function service(monitors: Partial<MonitorConfig>, runtime: MonitorRuntimeOptions = {}) {
  const { app, log } = await makeServer(
    { monitors: { ...MONITOR_DEFAULTS, run: true, schedulerTickMs: 20, ...monitors } },
    { monitors: { webhookBackoffMs: 20, ...runtime } },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, log, base, client: new Firecrawl({ apiKey: KEY_A, apiUrl: base, maxRetries: 1 }) };
}

/** Waits until the check is finished and its notifications (if any) are recorded. */
async function finished(client: Firecrawl, monitorId: string, checkId: string, notified = true) {
  return waitFor(
    `check ${checkId}`,
    async () => {
      const c = await client.getMonitorCheck(monitorId, checkId);
      return FINISHED.includes(c.status) && (!notified || c.notificationStatus) ? c : undefined;
      // Generous: the first PDF check starts the parser's worker threads, slow on a busy machine.
    },
    90_000,
  );
}

const byUrl = (c: MonitorCheckDetail) => Object.fromEntries(c.pages.map((p) => [new URL(p.url).pathname, p]));

describe('checks through the official SDK: HTML and PDF pages that change, webhooks, e-mail', () => {
  const pages = new PageServer();
  const hooks = new WebhookReceiver(SECRET);
  const smtp = new SmtpSink();
  let svc: Awaited<ReturnType<typeof service>>;
  let monitorId = '';
  const checks: MonitorCheckDetail[] = [];

  beforeAll(async () => {
    await Promise.all([pages.start(), hooks.start(), smtp.start()]);
    svc = await service({ allowPrivateUrls: true, webhookSecret: SECRET, smtpUrl: smtp.url, webhookAttempts: 2 });
    pages.html('/news.html', 'Release notes', '<p>Version 1.0 adds tables.</p><p>Support ends in May.</p>');
    pages.pages.set('/report.pdf', { type: 'application/pdf', body: FIXTURE_PDF });
    pages.html('/price.html', 'Widget', '<p>Price: 10</p><p>Stock: plenty</p>');
    pages.html('/old.html', 'Old page', '<p>Soon gone.</p>');
  });
  afterAll(async () => {
    await svc?.app.close();
    await Promise.all([pages.close(), hooks.close(), smtp.close()]);
  });

  async function runAndWait(): Promise<MonitorCheckDetail> {
    const queued = await svc.client.runMonitor(monitorId);
    expect(queued.trigger).toBe('manual');
    expect(['queued', 'running', 'completed']).toContain(queued.status);
    const done = await finished(svc.client, monitorId, queued.id);
    checks.push(done);
    return done;
  }

  it('first check: every page is new; the webhook gets signed events and the mail goes out', async () => {
    const m = await svc.client.createMonitor({
      name: 'Docs site',
      schedule: { cron: '0 0 1 1 *', timezone: 'UTC' },
      targets: [
        {
          type: 'scrape',
          urls: [pages.url('/news.html'), pages.url('/report.pdf'), pages.url('/old.html')],
          scrapeOptions: { formats: ['markdown'], waitFor: 500 },
        },
        {
          type: 'scrape',
          urls: [pages.url('/price.html')],
          scrapeOptions: {
            formats: [
              { type: 'json', schema: { properties: { price: { type: 'number' }, stock: { type: 'string' } } } },
            ],
          },
        },
      ],
      webhook: {
        url: hooks.url,
        headers: { 'x-team-token': 't0k3n' },
        metadata: { team: 'docs' },
        events: ['monitor.page', 'monitor.check.completed'],
      },
      notification: { email: { enabled: true, recipients: ['ops@example.com'], includeDiffs: true } },
    });
    monitorId = m.id;
    expect(m.lastRunAt).toBeNull();

    const c = await runAndWait();
    expect(c.status).toBe('completed');
    expect(c.summary).toEqual({ totalPages: 4, same: 0, changed: 0, new: 4, removed: 0, error: 0 });
    const p = byUrl(c);
    expect(p['/news.html']!.status).toBe('new');
    expect(p['/report.pdf']!.status).toBe('new');
    expect(p['/report.pdf']!.metadata).toMatchObject({ statusCode: 200, contentType: 'application/pdf' });
    // A browser-only option is not honoured by a plain fetch, and the page says so.
    expect((p['/news.html']!.metadata as Record<string, unknown>)['ignoredOptions']).toEqual(['waitFor']);
    expect(p['/price.html']!.snapshot).toEqual({ json: { price: 10, stock: 'plenty' } });

    const events = hooks.received.filter((r) => r.body['checkId'] === c.id);
    expect(events.map((e) => e.event).sort()).toEqual([
      'monitor.check.completed',
      'monitor.page',
      'monitor.page',
      'monitor.page',
      'monitor.page',
    ]);
    for (const e of events) {
      expect(e.signatureValid).toBe(true);
      expect(e.headers['x-team-token']).toBe('t0k3n');
      expect(e.body['metadata']).toEqual({ team: 'docs' });
      expect(e.body['monitorId']).toBe(monitorId);
    }
    const completed = events.find((e) => e.event === 'monitor.check.completed')!;
    expect(completed.body['check']).toMatchObject({ status: 'completed', trigger: 'manual', summary: c.summary });
    const ns = c.notificationStatus as { webhook: { delivered: number; failed: number }; email: { status: string } };
    expect(ns.webhook).toMatchObject({ delivered: 5, failed: 0 });
    expect(ns.email.status).toBe('sent');
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.to).toEqual(['ops@example.com']);
    expect(mailText(smtp.mails[0]!.raw)).toMatch(/Subject: \[docmill\] Docs site: 0 changed, 4 new/);

    const after = await svc.client.getMonitor(monitorId);
    expect(after.lastRunAt).toBe(c.startedAt);
    expect(after.currentCheckId).toBe(c.id);
    expect(after.lastCheckSummary).toEqual(c.summary);
  });

  it('second check: changed pages carry a unified diff (HTML, PDF) or a per-field diff (json); a 404 is removed', async () => {
    pages.html('/news.html', 'Release notes', '<p>Version 1.1 adds charts.</p><p>Support ends in May.</p>');
    pages.pages.set('/report.pdf', { type: 'application/pdf', body: await memoWithNote('Harbour Road opens at 8.') });
    pages.html('/price.html', 'Widget', '<p>Price: 12</p><p>Stock: plenty</p>');
    pages.pages.delete('/old.html');
    const before = hooks.received.length;

    const c = await runAndWait();
    expect(c.status).toBe('completed');
    expect(c.summary).toEqual({ totalPages: 4, same: 0, changed: 3, new: 0, removed: 1, error: 0 });
    const p = byUrl(c);
    const news = p['/news.html']!;
    expect(news.status).toBe('changed');
    expect(news.diff!.text).toMatch(
      /^diff --git a\/127\.0\.0\.1:\d+\/news\.html b\/127\.0\.0\.1:\d+\/news\.html\n--- a\//,
    );
    expect(news.diff!.text).toContain('\n-Version 1.0 adds tables.\n+Version 1.1 adds charts.\n');
    expect(news.diff!.text).toMatch(/\n@@ -\d+(,\d+)? \+\d+(,\d+)? @@\n/);
    expect((news.diff!.json as { files: unknown[] }).files).toHaveLength(1);
    expect(news.previousScrapeId).toBe(byUrl(checks[0]!)['/news.html']!.currentScrapeId);

    const pdf = p['/report.pdf']!;
    expect(pdf.status).toBe('changed');
    expect(pdf.diff!.text).toMatch(/\n\+.*Harbour Road opens at 8\./);
    expect(pdf.diff!.text).not.toMatch(/\n-.*Warehouse Move/);

    expect(p['/price.html']!.diff!.json).toEqual({ price: { previous: 10, current: 12 } });
    expect(p['/price.html']!.snapshot).toEqual({ json: { price: 12, stock: 'plenty' } });
    expect(p['/old.html']).toMatchObject({ status: 'removed', statusCode: 404 });

    const events = hooks.received.slice(before);
    const pageEvents = events.filter((e) => e.event === 'monitor.page');
    expect(pageEvents.map((e) => `${new URL(e.body['page'].url).pathname} ${e.body['page'].status}`).sort()).toEqual([
      '/news.html changed',
      '/old.html removed',
      '/price.html changed',
      '/report.pdf changed',
    ]);
    expect(pageEvents.find((e) => e.body['page'].url.endsWith('/news.html'))!.body['page'].diff.text).toBe(
      news.diff!.text,
    );
    expect(events.every((e) => e.signatureValid)).toBe(true);

    expect(smtp.mails).toHaveLength(2);
    const mail = mailText(smtp.mails[1]!.raw);
    expect(mail).toMatch(/3 changed, 0 new, 1 removed/);
    expect(mail).toContain('+Version 1.1 adds charts.');
  });

  it('third check: nothing changed, so no page events and no mail; a page still 404 stays quiet', async () => {
    const before = hooks.received.length;
    const c = await runAndWait();
    expect(c.summary).toEqual({ totalPages: 4, same: 4, changed: 0, new: 0, removed: 0, error: 0 });
    expect(c.pages.every((p) => p.diff == null)).toBe(true);
    expect(hooks.received.slice(before).map((e) => e.event)).toEqual(['monitor.check.completed']);
    expect(smtp.mails).toHaveLength(2);
    expect((c.notificationStatus as { email: { status: string } }).email.status).toBe('not_needed');
  });

  it('a URL taken out of the targets is removed once; a page in error makes the check partial', async () => {
    await svc.client.updateMonitor(monitorId, {
      targets: [
        {
          type: 'scrape',
          urls: [pages.url('/report.pdf'), pages.url('/broken.html')],
          scrapeOptions: { formats: ['markdown'] },
        },
      ],
    });
    pages.pages.set('/broken.html', { status: 503, body: 'busy' });
    const c = await runAndWait();
    expect(c.status).toBe('partial');
    const p = byUrl(c);
    expect(p['/news.html']).toMatchObject({ status: 'removed' });
    expect(p['/price.html']).toMatchObject({ status: 'removed' });
    expect(p['/broken.html']).toMatchObject({ status: 'error', statusCode: 503, error: 'HTTP 503' });
    expect(c.error).toMatch(/1 of 4 pages/);
  });

  it('listMonitorChecks pages newest first; getMonitorCheck pages through pages and filters by status', async () => {
    const all = await svc.client.listMonitorChecks(monitorId);
    expect(all.map((c: MonitorCheck) => c.id)).toEqual(checks.map((c) => c.id).reverse());
    const second = await svc.client.listMonitorChecks(monitorId, { limit: 1, offset: 1 });
    expect(second.map((c) => c.id)).toEqual([checks[2]!.id]);

    const first = checks[1]!;
    const followed = await svc.client.getMonitorCheck(monitorId, first.id, { limit: 1 });
    expect(followed.pages.map((p) => p.id).sort()).toEqual(first.pages.map((p) => p.id).sort());
    const one = await svc.client.getMonitorCheck(monitorId, first.id, { limit: 1, autoPaginate: false });
    expect(one.pages).toHaveLength(1);
    expect(one.next).toMatch(/\/checks\/[0-9a-f-]+\?skip=1&limit=1$/);
    const changed = await svc.client.getMonitorCheck(monitorId, first.id, { status: 'changed' });
    expect(changed.pages.map((p) => p.status)).toEqual(['changed', 'changed', 'changed']);
  });

  it("another key's monitor and checks are 404", async () => {
    const other = new Firecrawl({ apiKey: KEY_B, apiUrl: svc.base, maxRetries: 1 });
    for (const call of [
      () => other.runMonitor(monitorId),
      () => other.listMonitorChecks(monitorId),
      () => other.getMonitorCheck(monitorId, checks[0]!.id),
    ]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SdkError);
      expect((err as SdkError).status).toBe(404);
    }
  });
});

describe('webhook receivers that fail', () => {
  const pages = new PageServer();
  const hooks = new WebhookReceiver(SECRET);
  let svc: Awaited<ReturnType<typeof service>>;

  beforeAll(async () => {
    await Promise.all([pages.start(), hooks.start()]);
    pages.html('/a.html', 'A', '<p>a</p>');
    svc = await service({ allowPrivateUrls: true, webhookSecret: SECRET, webhookAttempts: 3, webhookTimeoutMs: 300 });
  });
  afterAll(async () => {
    await svc?.app.close();
    await Promise.all([pages.close(), hooks.close()]);
  });

  const create = () =>
    svc.client.createMonitor({
      name: 'hooked',
      schedule: { cron: '0 0 1 1 *' },
      targets: [{ type: 'scrape', urls: [pages.url('/a.html')] }],
      webhook: { url: hooks.url, events: ['monitor.page'] },
    });

  it('a 5xx is retried with backoff, a bounded number of times, and recorded as failed', async () => {
    hooks.mode = { status: 500 };
    const m = await create();
    const c = await finished(svc.client, m.id, (await svc.client.runMonitor(m.id)).id);
    const status = c.notificationStatus as { webhook: { failed: number; deliveries: Array<Record<string, unknown>> } };
    expect(status.webhook.failed).toBe(1);
    expect(status.webhook.deliveries[0]).toMatchObject({
      event: 'monitor.page',
      status: 'failed',
      attempts: 3,
      httpStatus: 500,
    });
    expect(hooks.received.filter((r) => r.body['checkId'] === c.id)).toHaveLength(3);
  });

  it('a receiver that never answers does not stall the check: each attempt times out', async () => {
    hooks.mode = 'hang';
    const m = await create();
    const c = await finished(svc.client, m.id, (await svc.client.runMonitor(m.id)).id);
    expect(c.status).toBe('completed');
    const status = c.notificationStatus as { webhook: { deliveries: Array<Record<string, unknown>> } };
    expect(status.webhook.deliveries[0]).toMatchObject({ status: 'failed', attempts: 3, httpStatus: null });
    expect(String(status.webhook.deliveries[0]!['error'])).toMatch(/No complete answer/);
  });
});

describe('e-mail needs a mail server', () => {
  it('creating (or changing) a monitor with e-mail enabled and no DOCMILL_SMTP_URL is a 400', async () => {
    const svc = await service({});
    try {
      const body = {
        name: 'mail',
        schedule: { cron: '0 * * * *' },
        targets: [{ type: 'scrape' as const, urls: ['https://example.com/'] }],
      };
      const err = await svc.client
        .createMonitor({ ...body, notification: { email: { enabled: true, recipients: ['a@example.com'] } } })
        .catch((e: unknown) => e);
      expect((err as SdkError).status).toBe(400);
      expect((err as SdkError).message).toMatch(/DOCMILL_SMTP_URL/);
      const m = await svc.client.createMonitor(body);
      const patched = await svc.client
        .updateMonitor(m.id, { notification: { email: { recipients: ['a@example.com'] } } })
        .catch((e: unknown) => e);
      expect((patched as SdkError).status).toBe(400);
    } finally {
      await svc.app.close();
    }
  });
});

describe('the scheduler on a test clock', () => {
  const pages = new PageServer();
  const clock = new ManualClock(new Date('2026-03-02T10:00:30Z'));
  let svc: Awaited<ReturnType<typeof service>>;

  beforeAll(async () => {
    await pages.start();
    pages.html('/a.html', 'A', '<p>a</p>');
    pages.pages.set('/hang.html', { hang: true });
    svc = await service({ allowPrivateUrls: true }, { clock });
  });
  afterAll(async () => {
    await svc?.app.close();
    await pages.close();
  });

  const scheduled = async (id: string) =>
    (await svc.client.listMonitorChecks(id, { limit: 100 })).filter((c) => c.trigger === 'scheduled');

  it('fires when the cron expression says, catches up once after downtime, honours the time zone', async () => {
    const m = await svc.client.createMonitor({
      name: 'every five minutes',
      schedule: { cron: '*/5 * * * *', timezone: 'UTC' },
      targets: [{ type: 'scrape', urls: [pages.url('/a.html')] }],
    });
    expect(m.nextRunAt).toBe('2026-03-02T10:05:00.000Z');
    const tokyo = await svc.client.createMonitor({
      name: 'Tokyo mornings',
      schedule: { cron: '0 9 * * *', timezone: 'Asia/Tokyo' },
      targets: [{ type: 'scrape', urls: [pages.url('/a.html')] }],
    });
    expect(tokyo.nextRunAt).toBe('2026-03-03T00:00:00.000Z');

    clock.set(new Date('2026-03-02T10:05:01Z'));
    const [first] = await waitFor('the 10:05 check', async () => {
      const s = await scheduled(m.id);
      return s.length === 1 && FINISHED.includes(s[0]!.status) ? s : undefined;
    });
    expect(first!.scheduledFor).toBe('2026-03-02T10:05:00.000Z');
    expect(first!.status).toBe('completed');
    const now = await svc.client.getMonitor(m.id);
    expect(now.nextRunAt).toBe('2026-03-02T10:10:00.000Z');
    expect(now.lastCheckSummary).toEqual({ totalPages: 1, same: 0, changed: 0, new: 1, removed: 0, error: 0 });

    // Down from 10:05 to 11:02: eleven fire times missed, one catch-up check.
    clock.set(new Date('2026-03-02T11:02:00Z'));
    await waitFor('the catch-up check', async () => ((await scheduled(m.id)).length === 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 200)); // ten more scheduler ticks: still no second catch-up
    const after = await scheduled(m.id);
    expect(after.map((c) => c.scheduledFor)).toEqual(['2026-03-02T10:10:00.000Z', '2026-03-02T10:05:00.000Z']);
    expect((await svc.client.getMonitor(m.id)).nextRunAt).toBe('2026-03-02T11:05:00.000Z');
    expect(await scheduled(tokyo.id)).toEqual([]);
  });

  it('a fire time that finds the previous check still running is recorded as skipped_overlap', async () => {
    const m = await svc.client.createMonitor({
      name: 'slow',
      schedule: { cron: '* * * * *' },
      targets: [{ type: 'scrape', urls: [pages.url('/hang.html')], scrapeOptions: { timeout: 1500 } }],
    });
    clock.advance(60_000);
    const running = await waitFor('a running check', async () => {
      const s = await scheduled(m.id);
      return s[0]?.status === 'running' ? s[0] : undefined;
    });
    clock.advance(60_000);
    const both = await waitFor('the overlap', async () => {
      const s = await scheduled(m.id);
      return s.length === 2 ? s : undefined;
    });
    const skipped = both.find((c) => c.id !== running.id)!;
    expect(skipped.status).toBe('skipped_overlap');
    expect(new Date(skipped.scheduledFor!).getTime()).toBeGreaterThan(new Date(running.scheduledFor!).getTime());
    const done = await finished(svc.client, m.id, running.id, false);
    expect(done.status).toBe('failed');
    expect(done.pages[0]!.error).toMatch(/^TIMEOUT/);
  });

  it('checks and snapshots older than retentionDays are deleted', async () => {
    const m = await svc.client.createMonitor({
      name: 'short memory',
      schedule: { cron: '0 0 1 1 *' },
      retentionDays: 1,
      targets: [{ type: 'scrape', urls: [pages.url('/a.html'), pages.url('/b.html')] }],
    });
    pages.html('/b.html', 'B', '<p>b</p>');
    const old = await finished(svc.client, m.id, (await svc.client.runMonitor(m.id)).id, false);
    expect(old.summary.new).toBe(2);
    // Two days on (and /b.html taken out of the target, so it is reported removed): the first check is deleted.
    clock.advance(2 * 86400_000);
    await svc.client.updateMonitor(m.id, { targets: [{ type: 'scrape', urls: [pages.url('/a.html')] }] });
    const recent = await finished(svc.client, m.id, (await svc.client.runMonitor(m.id)).id, false);
    expect(byUrl(recent)['/a.html']!.status).toBe('same');
    expect(byUrl(recent)['/b.html']!.status).toBe('removed');
    expect((await svc.client.listMonitorChecks(m.id)).map((c) => c.id)).toEqual([recent.id]);
    const gone = await svc.client.getMonitorCheck(m.id, old.id).catch((e: unknown) => e);
    expect((gone as SdkError).status).toBe(404);
    // A check less than a day later keeps the second one, and compares /a.html with the snapshot it refreshed.
    clock.advance(86400_000 - 1000);
    const third = await finished(svc.client, m.id, (await svc.client.runMonitor(m.id)).id, false);
    expect(third.summary).toEqual({ totalPages: 1, same: 1, changed: 0, new: 0, removed: 0, error: 0 });
    expect((await svc.client.listMonitorChecks(m.id)).map((c) => c.id)).toEqual([third.id, recent.id]);
  });

  it('a paused monitor is never checked, and has no next run', async () => {
    const m = await svc.client.createMonitor({
      name: 'paused',
      schedule: { cron: '* * * * *' },
      targets: [{ type: 'scrape', urls: [pages.url('/a.html')] }],
    });
    const paused = await svc.client.updateMonitor(m.id, { status: 'paused' });
    expect(paused.nextRunAt).toBeNull();
    const hits = pages.hits.length;
    clock.advance(5 * 60_000);
    // Another monitor's check on the same clock shows the scheduler did look after the clock moved.
    const witness = await svc.client.createMonitor({
      name: 'witness',
      schedule: { cron: '* * * * *' },
      targets: [{ type: 'scrape', urls: [pages.url('/a.html')] }],
    });
    clock.advance(60_000);
    await waitFor('the witness check', async () => ((await scheduled(witness.id)).length > 0 ? true : undefined));
    expect(await svc.client.listMonitorChecks(m.id)).toEqual([]);
    expect(pages.hits.length).toBeGreaterThan(hits);
  });
});
