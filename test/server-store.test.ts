/**
 * The monitor store on both engines: the embedded default (node:sqlite) and a real PostgreSQL server.
 * PostgreSQL runs when DOCMILL_TEST_PG_URL is set (test-support/postgres.sh starts one); otherwise its
 * half is skipped with a message. Each PostgreSQL run works in a schema of its own, dropped at the end.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMonitor } from '../src/server/monitors.js';
import { MIGRATIONS, migrate } from '../src/server/store/migrations.js';
import { Store, usagePeriod } from '../src/server/store/store.js';
import { AUTH_A, AUTH_B, makeServer } from './server-helpers.js';

const PG_URL = process.env['DOCMILL_TEST_PG_URL'];
const PG_SKIP =
  'DOCMILL_TEST_PG_URL is not set: PostgreSQL store tests skipped (start one with: export DOCMILL_TEST_PG_URL="$(bash test-support/postgres.sh start)")';
if (!PG_URL) console.warn(PG_SKIP);

interface Engine {
  name: string;
  /** Opens a store on a fresh, empty database. */
  open(): Promise<Store>;
  /** Creates the empty database without opening a store on it. */
  prepare?(): Promise<void>;
  /** Opens another store on the same database as the last `open`. */
  reopen(): Promise<Store>;
  cleanup(): Promise<void>;
}

function sqliteEngine(): Engine {
  let dir = '';
  return {
    name: 'embedded (node:sqlite)',
    open: async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'docmill-store-'));
      return Store.open({ dataDir: dir });
    },
    reopen: async () => Store.open({ dataDir: dir }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function postgresEngine(url: string): Engine {
  const schema = `docmill_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const scoped = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let admin: Store | undefined;
  const prepare = async (): Promise<void> => {
    admin = await Store.open({ databaseUrl: url });
    await admin.sql.query(`CREATE SCHEMA ${schema}`);
  };
  return {
    name: 'PostgreSQL',
    prepare,
    open: async () => {
      await prepare();
      return Store.open({ databaseUrl: scoped });
    },
    reopen: async () => Store.open({ databaseUrl: scoped }),
    cleanup: async () => {
      if (admin) {
        await admin.sql.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.close();
      }
    },
  };
}

const engines: Array<[string, () => Engine, boolean]> = [
  ['embedded', sqliteEngine, true],
  ['postgres', () => postgresEngine(PG_URL ?? ''), Boolean(PG_URL)],
];

const target = (n: number) => [{ type: 'scrape' as const, urls: [`https://example.com/${n}`] }];

describe.each(engines)('store on %s', (_label, makeEngine, available) => {
  describe.skipIf(!available)('', () => {
    const engine = makeEngine();
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => {
      await store?.close();
      await engine.cleanup();
    });

    it('migrates once: a second run finds nothing to do', async () => {
      expect(await migrate(store.sql)).toEqual([]);
      const versions = await store.sql.query('SELECT version FROM schema_migrations ORDER BY version');
      expect(versions.map((r) => Number(r['version']))).toEqual(MIGRATIONS.map((m) => m.version));
    });

    // Several instances share one PostgreSQL and may start together; the embedded database belongs to one process.
    // Defined only for PostgreSQL rather than skipped elsewhere: there is nothing to assert on the embedded engine.
    if (engine.name === 'PostgreSQL')
      it('instances starting at the same time migrate one at a time', async () => {
        const fresh = postgresEngine(PG_URL!);
        await fresh.prepare!();
        const all = await Promise.all([fresh.reopen(), fresh.reopen(), fresh.reopen(), fresh.reopen()]);
        const versions = await all[0]!.sql.query('SELECT version FROM schema_migrations');
        expect(versions).toHaveLength(MIGRATIONS.length);
        await Promise.all(all.map((s) => s.close()));
        await fresh.cleanup();
      });

    it('stores and returns every monitor field unchanged, scoped to its owner', async () => {
      const m = buildMonitor(
        {
          name: 'Docs',
          schedule: { cron: '15 3 * * *', timezone: 'Europe/Berlin' },
          targets: target(1),
          webhook: { url: 'https://h.example.com/x', metadata: { team: 'docs' } },
          notification: { email: { recipients: ['a@example.com'] } },
          goal: 'g',
          judgeEnabled: true,
          retentionDays: 7,
        },
        new Date(),
      );
      await store.createMonitor('owner-1', m);
      expect(await store.getMonitor('owner-1', m.id)).toEqual(m);
      expect(await store.getMonitor('owner-2', m.id)).toBeUndefined();
      expect(await store.listMonitors('owner-2', 25, 0)).toEqual([]);
      expect(await store.updateMonitor('owner-2', m.id, (x) => ({ ...x, name: 'stolen' }))).toBeUndefined();
      expect(await store.deleteMonitor('owner-2', m.id)).toBe(false);
      const renamed = await store.updateMonitor('owner-1', m.id, (x) => ({
        ...x,
        name: 'Renamed',
        status: 'paused',
        nextRunAt: null,
      }));
      expect(await store.getMonitor('owner-1', m.id)).toEqual(renamed);
      expect(renamed?.name).toBe('Renamed');
    });

    it('lists oldest first with ties broken by id, and pages without gaps or repeats', async () => {
      const owner = `lister-${randomUUID()}`;
      const at = new Date('2026-01-01T00:00:00Z');
      const made = [];
      for (let i = 0; i < 12; i++) {
        // Several monitors share a creation time: the order must still be total.
        const m = buildMonitor(
          { name: `m${i}`, schedule: { cron: '0 * * * *' }, targets: target(i) },
          new Date(at.getTime() + Math.floor(i / 3) * 1000),
        );
        made.push(await store.createMonitor(owner, m));
      }
      const expected = [...made]
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
        .map((m) => m.id);
      const paged = [];
      for (let offset = 0; offset < 12; offset += 5)
        paged.push(...(await store.listMonitors(owner, 5, offset)).map((m) => m.id));
      expect(paged).toEqual(expected);
      expect((await store.listMonitors(owner, 100, 0)).map((m) => m.id)).toEqual(expected);
    });

    it('counts pages per key and month exactly under concurrent updates', async () => {
      const key = `k-${randomUUID()}`;
      await Promise.all(Array.from({ length: 40 }, (_, i) => store.addPages(key, i + 1)));
      expect(await store.pagesUsed(key)).toBe((40 * 41) / 2);
      expect(await store.pagesUsed(key, '1999-01')).toBe(0);
      expect(usagePeriod(new Date('2026-03-31T23:59:59Z'))).toBe('2026-03');
    });

    it('has the tables checks will need, removed with their monitor', async () => {
      const m = await store.createMonitor(
        'owner-c',
        buildMonitor({ name: 'c', schedule: { cron: '0 0 * * *' }, targets: target(9) }, new Date()),
      );
      const checkId = randomUUID();
      const now = new Date().toISOString();
      await store.sql.query(
        `INSERT INTO monitor_checks (id, monitor_id, status, check_trigger, scheduled_for, summary, created_at, updated_at)
         VALUES ($1, $2, 'queued', 'scheduled', $3, $4, $3, $3)`,
        [checkId, m.id, now, JSON.stringify({ totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 })],
      );
      await store.sql.query(
        `INSERT INTO monitor_check_pages (id, check_id, monitor_id, target_id, url, change_status, created_at)
         VALUES ($1, $2, $3, $4, $5, 'new', $6)`,
        [randomUUID(), checkId, m.id, m.targets[0]!.id, m.targets[0]!.urls[0]!, now],
      );
      await expect(
        store.sql.query(
          `INSERT INTO monitor_checks (id, monitor_id, status, check_trigger, scheduled_for, summary, created_at, updated_at)
         VALUES ($1, $2, 'exploded', 'scheduled', $3, '{}', $3, $3)`,
          [randomUUID(), m.id, now],
        ),
      ).rejects.toThrow();
      expect(await store.deleteMonitor('owner-c', m.id)).toBe(true);
      expect(await store.sql.query('SELECT id FROM monitor_checks WHERE monitor_id = $1', [m.id])).toEqual([]);
      expect(await store.sql.query('SELECT id FROM monitor_check_pages WHERE monitor_id = $1', [m.id])).toEqual([]);
    });

    it('keeps monitors across restarts', async () => {
      const m = await store.createMonitor(
        'owner-r',
        buildMonitor({ name: 'r', schedule: { cron: '5 5 * * *' }, targets: target(5) }, new Date()),
      );
      const again = await engine.reopen();
      try {
        expect(await again.getMonitor('owner-r', m.id)).toEqual(m);
      } finally {
        await again.close();
      }
    });

    it('serves the monitor routes', async () => {
      const { app } = await makeServer({}, { store });
      const created = [];
      for (let i = 0; i < 4; i++) {
        const res = await app.inject({
          method: 'POST',
          url: '/v2/monitor',
          headers: AUTH_A,
          payload: { name: `h${i}`, schedule: { cron: '*/10 * * * *', timezone: 'Asia/Tokyo' }, targets: target(i) },
        });
        expect(res.statusCode).toBe(200);
        created.push(res.json().data);
      }
      const listed = (
        await app.inject({ method: 'GET', url: '/v2/monitor?limit=100&offset=0', headers: AUTH_A })
      ).json().data;
      expect(listed.slice(-4)).toEqual(created);
      expect(
        (await app.inject({ method: 'GET', url: '/v2/monitor?limit=2&offset=1', headers: AUTH_A })).json().data,
      ).toEqual(listed.slice(1, 3));
      expect((await app.inject({ method: 'GET', url: '/v2/monitor', headers: AUTH_B })).json().data).toEqual([]);
      const patched = await app.inject({
        method: 'PATCH',
        url: `/v2/monitor/${created[0].id}`,
        headers: AUTH_A,
        payload: { status: 'paused' },
      });
      expect(patched.json().data.status).toBe('paused');
      expect(
        (await app.inject({ method: 'GET', url: `/v2/monitor/${created[0].id}`, headers: AUTH_A })).json().data,
      ).toEqual(patched.json().data);
      expect(
        (await app.inject({ method: 'DELETE', url: `/v2/monitor/${created[1].id}`, headers: AUTH_A })).json(),
      ).toEqual({ success: true });
      expect(
        (await app.inject({ method: 'GET', url: `/v2/monitor/${created[1].id}`, headers: AUTH_A })).statusCode,
      ).toBe(404);
      await app.close();
    });
  });
});
