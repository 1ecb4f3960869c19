/**
 * Where queued checks wait for an instance to run them.
 *
 * - One instance (embedded database): an in-process queue with a concurrency limit. Checks left queued
 *   or running by a stopped process are put back at start.
 * - Several instances (PostgreSQL): pg-boss. A check's job id is the check id, so sending the same check
 *   twice (two schedulers seeing the same fire time) makes one job; a job is handed to one worker; a worker
 *   that stops sending heartbeats (its process died) loses the job to another instance, which runs the
 *   check again from the start.
 */
import { PgBoss } from 'pg-boss';
import type { RunnerLog } from './check-runner.js';

export type CheckHandler = (checkId: string) => Promise<void>;

export interface CheckQueue {
  readonly kind: 'local' | 'pg-boss';
  start(handler: CheckHandler): Promise<void>;
  /** Queues the check unless it is already queued or running (idempotent). */
  send(checkId: string): Promise<void>;
  /** Resolves when nothing is queued or running in this instance (tests and benchmarks). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export class LocalQueue implements CheckQueue {
  readonly kind = 'local' as const;
  private handler: CheckHandler | undefined;
  private readonly waiting: string[] = [];
  private readonly known = new Set<string>();
  private running = 0;
  private stopped = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly log: RunnerLog,
  ) {}

  async start(handler: CheckHandler): Promise<void> {
    this.handler = handler;
    this.pump();
  }

  async send(checkId: string): Promise<void> {
    if (this.stopped || this.known.has(checkId)) return;
    this.known.add(checkId);
    this.waiting.push(checkId);
    this.pump();
  }

  private pump(): void {
    while (this.handler && !this.stopped && this.running < this.concurrency && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      this.running++;
      this.handler(id)
        .catch((err: unknown) => this.log.error({ err, checkId: id }, 'monitor check crashed'))
        .finally(() => {
          this.running--;
          this.known.delete(id);
          this.pump();
          if (this.running === 0 && this.waiting.length === 0) {
            for (const w of this.idleWaiters.splice(0)) w();
          }
        });
    }
  }

  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    await this.idle();
  }
}

export interface PgBossSettings {
  connectionString: string;
  schema: string;
  concurrency: number;
  /** A worker that misses heartbeats this long is taken for dead and its job is retried (pg-boss minimum 10). */
  heartbeatSeconds: number;
  /** How often pg-boss looks for dead workers' jobs. */
  superviseIntervalSeconds: number;
  pollingIntervalSeconds: number;
}

export const CHECK_QUEUE = 'docmill-monitor-check';

export class PgBossQueue implements CheckQueue {
  readonly kind = 'pg-boss' as const;
  private readonly boss: PgBoss;
  private readonly active = new Set<Promise<void>>();

  constructor(
    private readonly settings: PgBossSettings,
    private readonly log: RunnerLog,
  ) {
    this.boss = new PgBoss({
      connectionString: settings.connectionString,
      schema: settings.schema,
      // Dead workers' jobs are found by the per-queue monitor pass, which runs at most this often too.
      superviseIntervalSeconds: settings.superviseIntervalSeconds,
      monitorIntervalSeconds: settings.superviseIntervalSeconds,
      max: Math.max(4, settings.concurrency + 2),
    });
    this.boss.on('error', (err: unknown) => log.warn({ err }, 'job queue error'));
  }

  async start(handler: CheckHandler): Promise<void> {
    await this.boss.start();
    await this.boss.createQueue(CHECK_QUEUE, {
      // A dead instance's check is retried; a check that fails by itself records `failed` and does not throw.
      retryLimit: 5,
      retryDelay: 1,
      retryBackoff: true,
      expireInSeconds: 6 * 3600,
      heartbeatSeconds: this.settings.heartbeatSeconds,
      deleteAfterSeconds: 7 * 86400,
      notify: true,
    } as Parameters<PgBoss['createQueue']>[1]);
    await this.boss.work<{ checkId: string }>(
      CHECK_QUEUE,
      {
        batchSize: 1,
        localConcurrency: this.settings.concurrency,
        pollingIntervalSeconds: this.settings.pollingIntervalSeconds,
      },
      async ([job]) => {
        if (!job) return;
        const work = handler(job.data.checkId);
        this.active.add(work);
        try {
          await work;
        } finally {
          this.active.delete(work);
        }
      },
    );
  }

  async send(checkId: string): Promise<void> {
    // The check id is the job id: a second send of the same check inserts nothing.
    await this.boss.send(CHECK_QUEUE, { checkId }, { id: checkId });
  }

  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 30_000, wait: true } as Parameters<PgBoss['stop']>[0]);
  }
}
