/**
 * Several service instances on one PostgreSQL share the monitors' checks through the job queue (pg-boss):
 * each fire time of each monitor is checked exactly once whatever instance sees it first, and a check
 * whose instance is killed (SIGKILL, mid-check, in a process of its own) is finished by another.
 * Needs DOCMILL_TEST_PG_URL (test-support/postgres.sh starts a server); skipped, saying so, without it.
 * The killed instance runs the built code (`npm test` builds first).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONITOR_DEFAULTS } from '../src/server/config.js';
import { ManualClock } from '../src/server/monitors/scheduler.js';
import { Store } from '../src/server/store/store.js';
import { REPO_ROOT } from '../test-support/corpus.js';
import { KEY_A, makeServer } from './server-helpers.js';
import { PageServer, waitFor } from './monitor-helpers.js';

const PG_URL = process.env['DOCMILL_TEST_PG_URL'];
const PG_SKIP =
  'DOCMILL_TEST_PG_URL is not set: multi-instance monitor tests skipped (start one with: export DOCMILL_TEST_PG_URL="$(bash test-support/postgres.sh start)")';
if (!PG_URL) console.warn(PG_SKIP);

const INSTANCE_SCRIPT = path.join(REPO_ROOT, 'dist', 'test-support', 'monitor-instance.js');

type App = Awaited<ReturnType<typeof makeServer>>['app'];

describe.skipIf(!PG_URL)('monitors on two instances sharing one PostgreSQL', () => {
  const schema = `docmill_mon_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const queueSchema = `${schema}_queue`;
  const scoped = `${PG_URL}${PG_URL?.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const clock = new ManualClock(new Date('2026-03-02T10:00:30Z'));
  const pages = new PageServer();
  let admin: Store;
  const apps: App[] = [];
  let child: ChildProcess | undefined;

  const monitorConfig = {
    ...MONITOR_DEFAULTS,
    run: true,
    allowPrivateUrls: true,
    schedulerTickMs: 20,
    checkConcurrency: 2,
    queueSchema,
    queueHeartbeatSeconds: 10,
  };

  async function instance(): Promise<App> {
    const { app } = await makeServer(
      { databaseUrl: scoped, monitors: monitorConfig },
      { monitors: { clock, superviseIntervalSeconds: 1, pollingIntervalSeconds: 0.5 } },
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    apps.push(app);
    return app;
  }

  const sdk = (app: App) =>
    new Firecrawl({
      apiKey: KEY_A,
      apiUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      maxRetries: 1,
    });

  beforeAll(async () => {
    admin = await Store.open({ databaseUrl: PG_URL });
    await admin.sql.query(`CREATE SCHEMA ${schema}`);
    await pages.start();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    for (const app of apps) await app.close();
    await pages.close();
    if (admin) {
      await admin.sql.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.sql.query(`DROP SCHEMA IF EXISTS ${queueSchema} CASCADE`);
      await admin.close();
    }
  });

  it('each fire time of each monitor is checked once, by whichever instance takes it', async () => {
    const [a, b] = [await instance(), await instance()];
    const monitors = [];
    for (let i = 0; i < 6; i++) {
      pages.html(`/m${i}/one.html`, `Monitor ${i}`, '<p>one</p>');
      pages.html(`/m${i}/two.html`, `Monitor ${i}`, '<p>two</p>');
      monitors.push(
        await sdk(i % 2 ? a : b).createMonitor({
          name: `m${i}`,
          schedule: { cron: '* * * * *' },
          targets: [{ type: 'scrape', urls: [pages.url(`/m${i}/one.html`), pages.url(`/m${i}/two.html`)] }],
        }),
      );
    }
    const fires = ['2026-03-02T10:01:00.000Z', '2026-03-02T10:02:00.000Z', '2026-03-02T10:03:00.000Z'];
    for (const fire of fires) {
      clock.set(new Date(new Date(fire).getTime() + 1000));
      await waitFor(`the checks of ${fire}`, async () => {
        const rows = await admin.sql.query(
          `SELECT COUNT(*) AS n FROM ${schema}.monitor_checks WHERE scheduled_for = $1 AND status = 'completed'`,
          [fire],
        );
        return Number(rows[0]!['n']) === monitors.length ? true : undefined;
      });
    }
    // Let both schedulers look a few more times: nothing new may appear.
    await new Promise((r) => setTimeout(r, 300));
    const rows = await admin.sql.query(
      `SELECT monitor_id, scheduled_for, status, claimed_by FROM ${schema}.monitor_checks ORDER BY monitor_id, scheduled_for`,
    );
    expect(rows).toHaveLength(monitors.length * fires.length);
    for (const m of monitors) {
      const mine = rows.filter((r) => String(r['monitor_id']) === m.id);
      expect(mine.map((r) => new Date(String(r['scheduled_for'])).toISOString())).toEqual(fires);
      expect(mine.every((r) => r['status'] === 'completed')).toBe(true);
    }
    // Every page fetched once per fire time, and both instances did some of the work.
    for (let i = 0; i < monitors.length; i++) {
      expect(pages.hits.filter((h) => h.startsWith(`/m${i}/`))).toHaveLength(2 * fires.length);
    }
    const claimers = new Set(rows.map((r) => String(r['claimed_by'])));
    expect([...claimers].sort()).toEqual([a.monitors.instanceId, b.monitors.instanceId].sort());

    // Both instances answer with the same monitor state.
    const viaA = await sdk(a).getMonitor(monitors[0]!.id);
    const viaB = await sdk(b).getMonitor(monitors[0]!.id);
    expect(viaA).toEqual(viaB);
    expect(viaA.nextRunAt).toBe('2026-03-02T10:04:00.000Z');
    expect(viaA.lastCheckSummary).toEqual({ totalPages: 2, same: 2, changed: 0, new: 0, removed: 0, error: 0 });

    for (const m of monitors) await sdk(a).deleteMonitor(m.id);
    for (const app of apps.splice(0)) await app.close();
  });

  it('a check whose instance is killed mid-check is taken up and finished by another instance', async () => {
    expect(existsSync(INSTANCE_SCRIPT), `${INSTANCE_SCRIPT} is missing: run npm run build`).toBe(true);
    pages.pages.set('/slow.html', { hang: true });
    pages.html('/fast.html', 'Fast', '<p>fast</p>');
    child = spawn(process.execPath, [INSTANCE_SCRIPT], {
      env: {
        ...process.env,
        DOCMILL_API_KEYS: `alpha:${KEY_A}`,
        DOCMILL_DATABASE_URL: scoped,
        DOCMILL_QUEUE_SCHEMA: queueSchema,
        DOCMILL_QUEUE_HEARTBEAT_SECONDS: '10',
        DOCMILL_ALLOW_PRIVATE_URLS: 'true',
        DOCMILL_LOG_LEVEL: 'silent',
        DOCMILL_TEXT_THREADS: '1',
        DOCMILL_OCR_THREADS: '1',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [port, victimId] = await new Promise<[number, string]>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /ready (\d+) (\S+)/.exec(out);
        if (m) resolve([Number(m[1]), m[2]!]);
      });
      child!.on('exit', (code) => reject(new Error(`instance exited early (${code})`)));
    });
    const victim = new Firecrawl({ apiKey: KEY_A, apiUrl: `http://127.0.0.1:${port}`, maxRetries: 1 });
    const m = await victim.createMonitor({
      name: 'survivor',
      schedule: { cron: '0 0 1 1 *' },
      targets: [{ type: 'scrape', urls: [pages.url('/fast.html'), pages.url('/slow.html')] }],
    });
    const queued = await victim.runMonitor(m.id);
    await waitFor('the killed instance to be inside the check', () =>
      pages.hits.includes('/slow.html') ? true : undefined,
    );
    const running = await victim.getMonitorCheck(m.id, queued.id);
    expect(running.status).toBe('running');

    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    child = undefined;
    pages.html('/slow.html', 'Slow', '<p>slow, but here</p>');

    const heir = await instance();
    const done = await waitFor(
      'the check to be finished by the other instance',
      async () => {
        const c = await sdk(heir).getMonitorCheck(m.id, queued.id);
        return c.status === 'completed' ? c : undefined;
      },
      60_000,
    );
    expect(done.summary).toEqual({ totalPages: 2, same: 0, changed: 0, new: 2, removed: 0, error: 0 });
    expect(done.pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/fast.html', '/slow.html']);
    const row = await admin.sql.query(`SELECT claimed_by FROM ${schema}.monitor_checks WHERE id = $1`, [queued.id]);
    expect(String(row[0]!['claimed_by'])).toBe(heir.monitors.instanceId);
    expect(String(row[0]!['claimed_by'])).not.toBe(victimId);
    expect(await sdk(heir).listMonitorChecks(m.id)).toHaveLength(1);
  }, 90_000);
});
