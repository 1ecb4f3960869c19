/**
 * The service's persistent state: monitors (owned by an API key id) and per-key page usage. Every read
 * and write is scoped to the owner, so one key never sees or changes another key's monitors.
 */
import type { Monitor } from '../monitors.js';
import { migrate } from './migrations.js';
import { openSql, type OpenOptions, type Row, type Sql, type SqlValue } from './sql.js';

export function iso(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  return new Date(String(v)).toISOString();
}

export function json<T>(v: unknown): T {
  if (typeof v === 'string') return JSON.parse(v) as T;
  return v as T;
}

export function toMonitor(r: Row): Monitor {
  return {
    id: String(r['id']),
    name: String(r['name']),
    status: r['status'] as Monitor['status'],
    schedule: { cron: String(r['cron']), timezone: String(r['timezone']) },
    nextRunAt: iso(r['next_run_at']),
    lastRunAt: iso(r['last_run_at']),
    currentCheckId: r['current_check_id'] == null ? null : String(r['current_check_id']),
    targets: json(r['targets']),
    webhook: r['webhook'] == null ? null : json(r['webhook']),
    notification: r['notification'] == null ? null : json(r['notification']),
    retentionDays: Number(r['retention_days']),
    estimatedCreditsPerMonth: Number(r['estimated_credits_per_month']),
    lastCheckSummary: json(r['last_check_summary']),
    goal: r['goal'] == null ? null : String(r['goal']),
    judgeEnabled: Number(r['judge_enabled']) === 1,
    createdAt: iso(r['created_at'])!,
    updatedAt: iso(r['updated_at'])!,
  };
}

function columns(m: Monitor): SqlValue[] {
  return [
    m.name,
    m.status,
    m.schedule.cron,
    m.schedule.timezone,
    m.nextRunAt,
    m.lastRunAt,
    m.currentCheckId,
    JSON.stringify(m.targets),
    m.webhook ? JSON.stringify(m.webhook) : null,
    m.notification ? JSON.stringify(m.notification) : null,
    m.retentionDays,
    m.estimatedCreditsPerMonth,
    JSON.stringify(m.lastCheckSummary),
    m.goal,
    m.judgeEnabled ? 1 : 0,
    m.updatedAt,
  ];
}

/** The calendar month (UTC) a page quota counts in. */
export function usagePeriod(at: Date = new Date()): string {
  return at.toISOString().slice(0, 7);
}

export class Store {
  private constructor(readonly sql: Sql) {}

  static async open(options: OpenOptions): Promise<Store> {
    const sql = await openSql(options);
    try {
      await migrate(sql);
    } catch (err) {
      await sql.close();
      throw err;
    }
    return new Store(sql);
  }

  get engine(): 'sqlite' | 'postgres' {
    return this.sql.dialect;
  }

  async createMonitor(owner: string, m: Monitor): Promise<Monitor> {
    await this.sql.query(
      `INSERT INTO monitors (name, status, cron, timezone, next_run_at, last_run_at, current_check_id, targets, webhook, notification,
         retention_days, estimated_credits_per_month, last_check_summary, goal, judge_enabled, updated_at, id, owner_key_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
      [...columns(m), m.id, owner, m.createdAt],
    );
    return m;
  }

  async getMonitor(owner: string, id: string): Promise<Monitor | undefined> {
    const rows = await this.sql.query('SELECT * FROM monitors WHERE owner_key_id = $1 AND id = $2', [owner, id]);
    return rows[0] ? toMonitor(rows[0]) : undefined;
  }

  /** The owner's monitors, oldest first (ties broken by id): a stable order for limit/offset paging. */
  async listMonitors(owner: string, limit: number, offset: number): Promise<Monitor[]> {
    const rows = await this.sql.query(
      'SELECT * FROM monitors WHERE owner_key_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3',
      [owner, limit, offset],
    );
    return rows.map(toMonitor);
  }

  /** Reads, changes and writes one monitor in a transaction; undefined when the owner has no such monitor. */
  async updateMonitor(owner: string, id: string, change: (m: Monitor) => Monitor): Promise<Monitor | undefined> {
    return this.sql.transaction(async (tx) => {
      const lock = tx.dialect === 'postgres' ? ' FOR UPDATE' : '';
      const rows = await tx.query(`SELECT * FROM monitors WHERE owner_key_id = $1 AND id = $2${lock}`, [owner, id]);
      if (!rows[0]) return undefined;
      const next = change(toMonitor(rows[0]));
      await tx.query(
        `UPDATE monitors SET name = $1, status = $2, cron = $3, timezone = $4, next_run_at = $5, last_run_at = $6, current_check_id = $7,
           targets = $8, webhook = $9, notification = $10, retention_days = $11, estimated_credits_per_month = $12,
           last_check_summary = $13, goal = $14, judge_enabled = $15, updated_at = $16
         WHERE owner_key_id = $17 AND id = $18`,
        [...columns(next), owner, id],
      );
      return next;
    });
  }

  async deleteMonitor(owner: string, id: string): Promise<boolean> {
    const rows = await this.sql.query('DELETE FROM monitors WHERE owner_key_id = $1 AND id = $2 RETURNING id', [
      owner,
      id,
    ]);
    return rows.length > 0;
  }

  async pagesUsed(keyId: string, period: string = usagePeriod()): Promise<number> {
    const rows = await this.sql.query('SELECT pages FROM key_usage WHERE key_id = $1 AND period = $2', [keyId, period]);
    return rows[0] ? Number(rows[0]['pages']) : 0;
  }

  async addPages(keyId: string, pages: number, period: string = usagePeriod()): Promise<void> {
    await this.sql.query(
      `INSERT INTO key_usage (key_id, period, pages) VALUES ($1, $2, $3)
       ON CONFLICT (key_id, period) DO UPDATE SET pages = key_usage.pages + excluded.pages`,
      [keyId, period, pages],
    );
  }

  async close(): Promise<void> {
    await this.sql.close();
  }
}
