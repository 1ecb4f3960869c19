/**
 * The one schema of the service, as ordered migrations that run on both engines. Column types are written
 * as placeholders ({uuid}, {ts}, {json}) so that PostgreSQL gets native types (uuid, timestamptz, jsonb:
 * indexable, comparable by a scheduler shared by several instances) and SQLite gets text.
 *
 * Checks: a check row per scheduled or manual run (one per monitor and fire time, by a unique index), a
 * page row per URL checked with its change status, diff and content hash, the last snapshot of each URL,
 * and the monitor's `next_run_at` indexed for the scheduler's "what is due" query.
 */
import type { Dialect, Sql } from './sql.js';

interface Migration {
  version: number;
  name: string;
  statements: string[];
}

const TYPES: Record<Dialect, Record<string, string>> = {
  sqlite: { uuid: 'TEXT', ts: 'TEXT', json: 'TEXT' },
  postgres: { uuid: 'UUID', ts: 'TIMESTAMPTZ', json: 'JSONB' },
};

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'monitors, checks, check pages, usage',
    statements: [
      `CREATE TABLE monitors (
        id {uuid} PRIMARY KEY,
        owner_key_id TEXT NOT NULL,
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'paused')),
        cron TEXT NOT NULL,
        timezone TEXT NOT NULL,
        next_run_at {ts},
        last_run_at {ts},
        current_check_id {uuid},
        targets {json} NOT NULL,
        webhook {json},
        notification {json},
        retention_days INTEGER NOT NULL,
        estimated_credits_per_month INTEGER NOT NULL,
        last_check_summary {json} NOT NULL,
        goal TEXT,
        judge_enabled INTEGER NOT NULL DEFAULT 0,
        created_at {ts} NOT NULL,
        updated_at {ts} NOT NULL
      )`,
      'CREATE INDEX monitors_owner_order ON monitors (owner_key_id, created_at, id)',
      'CREATE INDEX monitors_due ON monitors (status, next_run_at)',
      `CREATE TABLE monitor_checks (
        id {uuid} PRIMARY KEY,
        monitor_id {uuid} NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'partial', 'skipped_overlap', 'skipped_no_credits')),
        check_trigger TEXT NOT NULL CHECK (check_trigger IN ('scheduled', 'manual')),
        scheduled_for {ts} NOT NULL,
        claimed_by TEXT,
        started_at {ts},
        finished_at {ts},
        estimated_credits INTEGER,
        actual_credits INTEGER,
        summary {json} NOT NULL,
        error TEXT,
        created_at {ts} NOT NULL,
        updated_at {ts} NOT NULL
      )`,
      'CREATE INDEX monitor_checks_monitor ON monitor_checks (monitor_id, created_at)',
      'CREATE INDEX monitor_checks_queue ON monitor_checks (status, scheduled_for)',
      `CREATE TABLE monitor_check_pages (
        id {uuid} PRIMARY KEY,
        check_id {uuid} NOT NULL REFERENCES monitor_checks (id) ON DELETE CASCADE,
        monitor_id {uuid} NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        target_id {uuid} NOT NULL,
        url TEXT NOT NULL,
        change_status TEXT NOT NULL CHECK (change_status IN ('same', 'changed', 'new', 'removed', 'error')),
        status_code INTEGER,
        content_hash TEXT,
        error TEXT,
        created_at {ts} NOT NULL
      )`,
      'CREATE INDEX monitor_check_pages_check ON monitor_check_pages (check_id)',
      'CREATE INDEX monitor_check_pages_url ON monitor_check_pages (monitor_id, url, created_at)',
      `CREATE TABLE key_usage (
        key_id TEXT NOT NULL,
        period TEXT NOT NULL,
        pages BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (key_id, period)
      )`,
    ],
  },
  {
    version: 2,
    name: 'running checks: snapshots, page diffs, notification outcomes, one scheduled check per fire time',
    statements: [
      'ALTER TABLE monitor_checks ADD COLUMN notification_status {json}',
      'ALTER TABLE monitor_check_pages ADD COLUMN diff {json}',
      'ALTER TABLE monitor_check_pages ADD COLUMN metadata {json}',
      'ALTER TABLE monitor_check_pages ADD COLUMN snapshot {json}',
      'ALTER TABLE monitor_check_pages ADD COLUMN previous_page_id {uuid}',
      // The last content seen at each URL of a monitor: what the next check compares with.
      `CREATE TABLE monitor_snapshots (
        monitor_id {uuid} NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        target_id {uuid} NOT NULL,
        content_hash TEXT NOT NULL,
        markdown TEXT NOT NULL,
        json {json},
        page_id {uuid},
        updated_at {ts} NOT NULL,
        PRIMARY KEY (monitor_id, url)
      )`,
      // Exactly one scheduled check per monitor and fire time, whichever instance inserts it first.
      "CREATE UNIQUE INDEX monitor_checks_fire ON monitor_checks (monitor_id, scheduled_for) WHERE check_trigger = 'scheduled'",
      'CREATE INDEX monitor_checks_active ON monitor_checks (monitor_id, status)',
    ],
  },
];

function render(sql: string, dialect: Dialect): string {
  return sql.replace(/\{(uuid|ts|json)\}/g, (_, t: string) => TYPES[dialect][t]!);
}

/** Applies every migration not yet applied. Safe when several instances start at once. */
export async function migrate(sql: Sql): Promise<number[]> {
  return sql.transaction(async (tx) => {
    // PostgreSQL: one instance migrates, the others wait here and then find nothing to do.
    if (tx.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(7317220001)');
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)),
    );
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      for (const s of m.statements) await tx.query(render(s, tx.dialect));
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        new Date().toISOString(),
      ]);
      applied.push(m.version);
    }
    return applied;
  });
}
