/**
 * The monitor runtime of one service instance: the scheduler, the queue that hands checks to instances
 * (in-process on the embedded database, pg-boss on PostgreSQL), and the check runner with its fetcher,
 * SSRF guard, webhook and e-mail settings. Built from the service configuration plus a few seams that
 * only tests and benchmarks set (clock, DNS, trusted addresses, webhook backoff).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Parser } from '../../parser.js';
import type { MonitorConfig } from '../config.js';
import type { Monitor } from '../monitors.js';
import type { Store } from '../store/store.js';
import { runCheck, type RunnerDeps, type RunnerLog } from './check-runner.js';
import { CheckStore, type MonitorCheck } from './check-store.js';
import { LocalQueue, PgBossQueue, type CheckQueue } from './queue.js';
import { Scheduler, systemClock, type Clock } from './scheduler.js';
import { systemResolver, type AddressGuard, type Resolver } from './ssrf.js';

export interface MonitorRuntimeOptions {
  clock?: Clock;
  /** DNS used by checks and webhook deliveries (tests inject a fake one). */
  resolver?: Resolver;
  /** Addresses taken as public although their range is private (tests only). */
  trustAddress?: (address: string) => boolean;
  /** Pause before the second webhook attempt (doubled after); default 1000 ms. */
  webhookBackoffMs?: number;
  /** How often pg-boss looks for the jobs of dead instances (default 10 s). */
  superviseIntervalSeconds?: number;
  /** How often an idle pg-boss worker looks for jobs (default 1 s). */
  pollingIntervalSeconds?: number;
}

export class MonitorService {
  readonly checks: CheckStore;
  readonly queue: CheckQueue;
  readonly scheduler: Scheduler;
  readonly instanceId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly deps: RunnerDeps;
  private started = false;

  constructor(
    readonly config: MonitorConfig,
    store: Store,
    parser: Parser,
    databaseUrl: string | undefined,
    private readonly log: RunnerLog,
    options: MonitorRuntimeOptions = {},
  ) {
    const clock = options.clock ?? systemClock;
    this.checks = new CheckStore(store.sql);
    const guard: AddressGuard = {
      allowPrivate: config.allowPrivateUrls,
      resolve: options.resolver ?? systemResolver,
      ...(options.trustAddress ? { trust: options.trustAddress } : {}),
    };
    this.deps = {
      checks: this.checks,
      parser,
      guard,
      webhook: {
        secret: config.webhookSecret,
        timeoutMs: config.webhookTimeoutMs,
        attempts: config.webhookAttempts,
        backoffMs: options.webhookBackoffMs ?? 1000,
        guard,
      },
      email: config.smtpUrl ? { smtpUrl: config.smtpUrl, from: config.smtpFrom, timeoutMs: 30_000 } : undefined,
      pageConcurrency: config.pageConcurrency,
      instanceId: this.instanceId,
      now: () => clock.now(),
      log,
    };
    this.queue = databaseUrl
      ? new PgBossQueue(
          {
            connectionString: databaseUrl,
            schema: config.queueSchema,
            concurrency: config.checkConcurrency,
            heartbeatSeconds: config.queueHeartbeatSeconds,
            superviseIntervalSeconds: options.superviseIntervalSeconds ?? 10,
            pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
          },
          log,
        )
      : new LocalQueue(config.checkConcurrency, log);
    this.scheduler = new Scheduler(this.checks, this.queue, clock, config.schedulerTickMs, log);
  }

  /** Starts running and scheduling checks (unless this instance is configured not to run them). */
  async start(): Promise<void> {
    if (!this.config.run || this.started) return;
    this.started = true;
    if (!this.config.webhookSecret) {
      this.log.warn({}, 'DOCMILL_WEBHOOK_SECRET is not set: webhook deliveries go out unsigned');
    }
    await this.queue.start((id) => runCheck(this.deps, id));
    // Checks a stopped process left behind are queued again (the queue ignores those it already holds).
    for (const id of await this.checks.unfinishedCheckIds()) await this.queue.send(id);
    this.scheduler.start();
  }

  /** A manual check of the monitor: queued now, or `skipped_overlap` when one is already queued or running. */
  async runNow(monitor: Monitor): Promise<MonitorCheck> {
    const id = randomUUID();
    const active = await this.checks.activeCheckId(monitor.id);
    await this.checks.insertCheck({
      id,
      monitorId: monitor.id,
      status: active ? 'skipped_overlap' : 'queued',
      trigger: 'manual',
      scheduledFor: this.deps.now().toISOString(),
      estimatedCredits: monitor.targets.reduce((n, t) => n + t.urls.length, 0),
      at: this.deps.now().toISOString(),
    });
    if (!active && this.started) await this.queue.send(id);
    return (await this.checks.check(id, monitor))!;
  }

  /** The monitor clock (the system clock except in tests): next runs are computed from it. */
  now(): Date {
    return this.deps.now();
  }

  /** Resolves when this instance has no check queued or running. */
  async idle(): Promise<void> {
    await this.queue.idle();
  }

  async stop(): Promise<void> {
    await this.scheduler.stop();
    if (this.started) await this.queue.stop();
  }
}
