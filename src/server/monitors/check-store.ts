/**
 * Persistent state of checks, on either engine: check rows, their page rows, the last snapshot of each
 * URL, and the monitor fields a check moves (next run, last run, current check, last summary). Callers
 * scope reads to an owner by loading the monitor through the Store first; these queries work by id.
 */
import { ZERO_SUMMARY, type Monitor, type MonitorSummary } from '../monitors.js';
import type { Row, Sql, SqlValue } from '../store/sql.js';
import { iso, json, toMonitor } from '../store/store.js';
import type { PageDiff } from './diff.js';

export type CheckStatus =
  'queued' | 'running' | 'completed' | 'failed' | 'partial' | 'skipped_overlap' | 'skipped_no_credits';
export type PageStatus = 'same' | 'new' | 'changed' | 'removed' | 'error';
export type CheckTrigger = 'scheduled' | 'manual';

/** A check as the API returns it (the official SDK's MonitorCheck). */
export interface MonitorCheck {
  id: string;
  monitorId: string;
  status: CheckStatus;
  trigger: CheckTrigger;
  scheduledFor: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  estimatedCredits: number | null;
  reservedCredits: number | null;
  actualCredits: number | null;
  billingStatus: 'not_applicable';
  summary: MonitorSummary;
  targetResults: Array<{ targetId: string; type: 'scrape' }>;
  notificationStatus: unknown;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A page of a check as the API returns it (the official SDK's MonitorCheckPage). */
export interface CheckPage {
  id: string;
  targetId: string;
  url: string;
  status: PageStatus;
  previousScrapeId: string | null;
  currentScrapeId: string | null;
  statusCode: number | null;
  error: string | null;
  metadata: Record<string, unknown> | null;
  diff: PageDiff | null;
  snapshot: { json?: Record<string, unknown> } | null;
  judgment: null;
  createdAt: string;
}

export interface Snapshot {
  url: string;
  targetId: string;
  contentHash: string;
  markdown: string;
  json: unknown;
  pageId: string | null;
  updatedAt: string;
}

const ACTIVE = "('queued', 'running')";

function toCheck(r: Row, monitor?: Pick<Monitor, 'targets'>): MonitorCheck {
  return {
    id: String(r['id']),
    monitorId: String(r['monitor_id']),
    status: r['status'] as CheckStatus,
    trigger: r['check_trigger'] as CheckTrigger,
    scheduledFor: iso(r['scheduled_for']),
    startedAt: iso(r['started_at']),
    finishedAt: iso(r['finished_at']),
    estimatedCredits: r['estimated_credits'] == null ? null : Number(r['estimated_credits']),
    reservedCredits: null,
    actualCredits: r['actual_credits'] == null ? null : Number(r['actual_credits']),
    billingStatus: 'not_applicable',
    summary: r['summary'] == null ? { ...ZERO_SUMMARY } : json(r['summary']),
    targetResults: (monitor?.targets ?? []).map((t) => ({ targetId: t.id, type: 'scrape' as const })),
    notificationStatus: r['notification_status'] == null ? null : json(r['notification_status']),
    error: r['error'] == null ? null : String(r['error']),
    createdAt: iso(r['created_at'])!,
    updatedAt: iso(r['updated_at'])!,
  };
}

function toPage(r: Row): CheckPage {
  return {
    id: String(r['id']),
    targetId: String(r['target_id']),
    url: String(r['url']),
    status: r['change_status'] as PageStatus,
    previousScrapeId: r['previous_page_id'] == null ? null : String(r['previous_page_id']),
    currentScrapeId: r['change_status'] === 'error' || r['change_status'] === 'removed' ? null : String(r['id']),
    statusCode: r['status_code'] == null ? null : Number(r['status_code']),
    error: r['error'] == null ? null : String(r['error']),
    metadata: r['metadata'] == null ? null : json(r['metadata']),
    diff: r['diff'] == null ? null : json(r['diff']),
    snapshot: r['snapshot'] == null ? null : json(r['snapshot']),
    judgment: null,
    createdAt: iso(r['created_at'])!,
  };
}

const jsonOrNull = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));

export interface NewCheck {
  id: string;
  monitorId: string;
  status: 'queued' | 'skipped_overlap';
  trigger: CheckTrigger;
  scheduledFor: string;
  estimatedCredits: number;
  at: string;
}

export interface DueMonitor {
  id: string;
  nextRunAt: string;
  cron: string;
  timezone: string;
  /** URLs of all targets: the check's estimated credits. */
  urls: number;
}

export interface NewPage {
  id: string;
  checkId: string;
  monitorId: string;
  targetId: string;
  url: string;
  status: PageStatus;
  statusCode: number | null;
  contentHash: string | null;
  error: string | null;
  diff: PageDiff | null;
  metadata: Record<string, unknown> | null;
  snapshot: { json?: Record<string, unknown> } | null;
  previousPageId: string | null;
  createdAt: string;
}

export class CheckStore {
  constructor(readonly sql: Sql) {}

  async monitorById(id: string): Promise<Monitor | undefined> {
    const rows = await this.sql.query('SELECT * FROM monitors WHERE id = $1', [id]);
    return rows[0] ? toMonitor(rows[0]) : undefined;
  }

  /** Inserts the check unless one with its id (or its monitor and fire time) exists; true when inserted. */
  async insertCheck(c: NewCheck): Promise<boolean> {
    const finished = c.status === 'skipped_overlap' ? c.at : null;
    const rows = await this.sql.query(
      `INSERT INTO monitor_checks (id, monitor_id, status, check_trigger, scheduled_for, estimated_credits, summary,
         finished_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) ON CONFLICT DO NOTHING RETURNING id`,
      [
        c.id,
        c.monitorId,
        c.status,
        c.trigger,
        c.scheduledFor,
        c.estimatedCredits,
        JSON.stringify(ZERO_SUMMARY),
        finished,
        c.at,
      ],
    );
    return rows.length > 0;
  }

  async check(id: string, monitor?: Monitor): Promise<MonitorCheck | undefined> {
    const rows = await this.sql.query('SELECT * FROM monitor_checks WHERE id = $1', [id]);
    return rows[0] ? toCheck(rows[0], monitor) : undefined;
  }

  /** The monitor's checks, newest first. */
  async listChecks(monitor: Monitor, limit: number, offset: number): Promise<MonitorCheck[]> {
    const rows = await this.sql.query(
      'SELECT * FROM monitor_checks WHERE monitor_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3',
      [monitor.id, limit, offset],
    );
    return rows.map((r) => toCheck(r, monitor));
  }

  async activeCheckId(monitorId: string): Promise<string | undefined> {
    const rows = await this.sql.query(
      `SELECT id FROM monitor_checks WHERE monitor_id = $1 AND status IN ${ACTIVE} LIMIT 1`,
      [monitorId],
    );
    return rows[0] ? String(rows[0]['id']) : undefined;
  }

  /** Checks not finished (after a restart of the only instance, these are run again). */
  async unfinishedCheckIds(): Promise<string[]> {
    const rows = await this.sql.query(`SELECT id FROM monitor_checks WHERE status IN ${ACTIVE} ORDER BY created_at`);
    return rows.map((r) => String(r['id']));
  }

  /** Marks the check running (again, when an earlier attempt died) and drops pages of that attempt. */
  async startCheck(id: string, monitorId: string, at: string, claimedBy: string): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.query('DELETE FROM monitor_check_pages WHERE check_id = $1', [id]);
      await tx.query(
        "UPDATE monitor_checks SET status = 'running', started_at = $2, claimed_by = $3, updated_at = $2 WHERE id = $1",
        [id, at, claimedBy],
      );
      await tx.query('UPDATE monitors SET current_check_id = $2, last_run_at = $3 WHERE id = $1', [monitorId, id, at]);
    });
  }

  async snapshots(monitorId: string): Promise<Map<string, Snapshot>> {
    const rows = await this.sql.query('SELECT * FROM monitor_snapshots WHERE monitor_id = $1', [monitorId]);
    return new Map(
      rows.map((r) => [
        String(r['url']),
        {
          url: String(r['url']),
          targetId: String(r['target_id']),
          contentHash: String(r['content_hash']),
          markdown: String(r['markdown']),
          json: r['json'] == null ? undefined : json(r['json']),
          pageId: r['page_id'] == null ? null : String(r['page_id']),
          updatedAt: iso(r['updated_at'])!,
        },
      ]),
    );
  }

  /** Writes a check's pages and the snapshots they replace or remove, in one transaction. */
  async savePages(
    pages: NewPage[],
    snapshots: Array<{ monitorId: string; snapshot: Snapshot }>,
    removed: Array<{ monitorId: string; url: string }>,
  ): Promise<void> {
    await this.sql.transaction(async (tx) => {
      for (const p of pages) {
        const values: SqlValue[] = [
          p.id,
          p.checkId,
          p.monitorId,
          p.targetId,
          p.url,
          p.status,
          p.statusCode,
          p.contentHash,
          p.error,
          jsonOrNull(p.diff),
          jsonOrNull(p.metadata),
          jsonOrNull(p.snapshot),
          p.previousPageId,
          p.createdAt,
        ];
        await tx.query(
          `INSERT INTO monitor_check_pages (id, check_id, monitor_id, target_id, url, change_status, status_code, content_hash,
             error, diff, metadata, snapshot, previous_page_id, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
          values,
        );
      }
      for (const { monitorId, snapshot: s } of snapshots) {
        await tx.query(
          `INSERT INTO monitor_snapshots (monitor_id, url, target_id, content_hash, markdown, json, page_id, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (monitor_id, url) DO UPDATE SET target_id = excluded.target_id, content_hash = excluded.content_hash,
             markdown = excluded.markdown, json = excluded.json, page_id = excluded.page_id, updated_at = excluded.updated_at`,
          [monitorId, s.url, s.targetId, s.contentHash, s.markdown, jsonOrNull(s.json), s.pageId, s.updatedAt],
        );
      }
      for (const r of removed) {
        await tx.query('DELETE FROM monitor_snapshots WHERE monitor_id = $1 AND url = $2', [r.monitorId, r.url]);
      }
    });
  }

  /** Records the outcome and moves the monitor's last summary, in one transaction. */
  async finishCheck(
    id: string,
    monitorId: string,
    outcome: { status: CheckStatus; summary: MonitorSummary; error: string | null; at: string; credits: number },
  ): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.query(
        `UPDATE monitor_checks SET status = $2, summary = $3, error = $4, finished_at = $5, updated_at = $5, actual_credits = $6
         WHERE id = $1`,
        [id, outcome.status, JSON.stringify(outcome.summary), outcome.error, outcome.at, outcome.credits],
      );
      await tx.query('UPDATE monitors SET last_check_summary = $2, current_check_id = $3 WHERE id = $1', [
        monitorId,
        JSON.stringify(outcome.summary),
        id,
      ]);
    });
  }

  async setNotificationStatus(id: string, status: unknown): Promise<void> {
    await this.sql.query('UPDATE monitor_checks SET notification_status = $2 WHERE id = $1', [
      id,
      JSON.stringify(status),
    ]);
  }

  async pages(
    checkId: string,
    limit: number,
    skip: number,
    status: PageStatus | undefined,
  ): Promise<{ pages: CheckPage[]; total: number }> {
    const filter = status ? ' AND change_status = $2' : '';
    const params: SqlValue[] = status ? [checkId, status] : [checkId];
    const count = await this.sql.query(
      `SELECT COUNT(*) AS n FROM monitor_check_pages WHERE check_id = $1${filter}`,
      params,
    );
    const n = params.length;
    const rows = await this.sql.query(
      `SELECT * FROM monitor_check_pages WHERE check_id = $1${filter} ORDER BY created_at, url, id LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, limit, skip],
    );
    return { pages: rows.map(toPage), total: Number(count[0]?.['n'] ?? 0) };
  }

  /** Active monitors whose next fire time has come, with what firing them needs. */
  async dueMonitors(now: string, limit: number): Promise<DueMonitor[]> {
    const rows = await this.sql.query(
      `SELECT id, next_run_at, cron, timezone, targets FROM monitors WHERE status = 'active' AND next_run_at <= $1
       ORDER BY next_run_at LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => ({
      id: String(r['id']),
      nextRunAt: iso(r['next_run_at'])!,
      cron: String(r['cron']),
      timezone: String(r['timezone']),
      urls: json<Array<{ urls: string[] }>>(r['targets']).reduce((n, t) => n + t.urls.length, 0),
    }));
  }

  /**
   * Claims a fire time: moves next_run_at from it to `next` (compare-and-set: only one caller wins) and, in
   * the same transaction, records its check (`queued`, or `skipped_overlap` when a check of the monitor is
   * still queued or running). Returns the new check, or undefined when another instance claimed it first.
   */
  async claimFireTime(due: DueMonitor, next: string | null, check: NewCheck): Promise<NewCheck | undefined> {
    if (this.sql.dialect === 'postgres') {
      // One statement, one round trip: at a minute boundary thousands of fire times are claimed at once.
      const busy = `EXISTS (SELECT 1 FROM monitor_checks c WHERE c.monitor_id = $1 AND c.status IN ${ACTIVE})`;
      const rows = await this.sql.query(
        `WITH moved AS (
           UPDATE monitors SET next_run_at = $3 WHERE id = $1 AND next_run_at = $2 AND status = 'active' RETURNING id
         )
         INSERT INTO monitor_checks (id, monitor_id, status, check_trigger, scheduled_for, estimated_credits, summary,
           finished_at, created_at, updated_at)
         SELECT $4, moved.id, CASE WHEN ${busy} THEN 'skipped_overlap' ELSE 'queued' END, 'scheduled', $2, $5, $6,
           CASE WHEN ${busy} THEN $7::timestamptz END, $7, $7
         FROM moved
         ON CONFLICT DO NOTHING RETURNING status`,
        [due.id, due.nextRunAt, next, check.id, check.estimatedCredits, JSON.stringify(ZERO_SUMMARY), check.at],
      );
      return rows[0] ? { ...check, status: rows[0]['status'] as NewCheck['status'] } : undefined;
    }
    return this.sql.transaction(async (tx) => {
      const moved = await tx.query(
        "UPDATE monitors SET next_run_at = $3 WHERE id = $1 AND next_run_at = $2 AND status = 'active' RETURNING id",
        [due.id, due.nextRunAt, next],
      );
      if (moved.length === 0) return undefined;
      const active = await tx.query(
        `SELECT id FROM monitor_checks WHERE monitor_id = $1 AND status IN ${ACTIVE} LIMIT 1`,
        [due.id],
      );
      const recorded: NewCheck = { ...check, status: active.length > 0 ? 'skipped_overlap' : 'queued' };
      await new CheckStore(tx).insertCheck(recorded);
      return recorded;
    });
  }

  /** Checks queued longer ago than `before` (their instance may have died before handing them to the queue). */
  async queuedBefore(before: string): Promise<string[]> {
    const rows = await this.sql.query(
      "SELECT id FROM monitor_checks WHERE status = 'queued' AND created_at < $1 ORDER BY created_at LIMIT 200",
      [before],
    );
    return rows.map((r) => String(r['id']));
  }

  /** Deletes the monitor's checks and snapshots older than `cutoff`; pages go with their checks. */
  async applyRetention(monitorId: string, cutoff: string): Promise<void> {
    await this.sql.query(
      `DELETE FROM monitor_checks WHERE monitor_id = $1 AND created_at < $2 AND status NOT IN ${ACTIVE}`,
      [monitorId, cutoff],
    );
    await this.sql.query('DELETE FROM monitor_snapshots WHERE monitor_id = $1 AND updated_at < $2', [
      monitorId,
      cutoff,
    ]);
  }
}
