/**
 * The scheduler: finds active monitors whose `next_run_at` has come and turns each fire time into one
 * queued check. Every instance runs one; they agree without talking to each other:
 *
 * - the check of a fire time has an id derived from the monitor id and the fire time, and a unique index on
 *   (monitor, fire time) backs it, so two instances that see the same fire time insert one check row;
 * - the job queue takes the check id as job id, so the check is queued once;
 * - `next_run_at` moves forward by compare-and-set, only from the fire time that was handled.
 *
 * Missed fire times (the service was down) give one catch-up check for the first of them, then
 * `next_run_at` jumps to the next fire time still to come. A fire time that finds the monitor's previous
 * check still queued or running is recorded as `skipped_overlap`.
 *
 * Time comes from an injected clock so tests can move it; the loop only decides how often to look.
 */
import { createHash } from 'node:crypto';
import { nextRunAt } from '../monitors.js';
import type { RunnerLog } from './check-runner.js';
import type { CheckStore } from './check-store.js';
import type { CheckQueue } from './queue.js';
import { inBatches } from './concurrency.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved (tests). */
export class ManualClock implements Clock {
  constructor(private at: Date) {}
  now(): Date {
    return new Date(this.at);
  }
  set(at: Date): void {
    this.at = new Date(at);
  }
  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
}

/** A UUID that every instance derives alike from a monitor id and a fire time. */
export function fireCheckId(monitorId: string, fireTime: string): string {
  const h = createHash('sha256').update(`${monitorId}|${fireTime}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const BATCH = 500;
const FIRE_CONCURRENCY = 8;

export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(
    private readonly checks: CheckStore,
    private readonly queue: CheckQueue,
    private readonly clock: Clock,
    private readonly tickMs: number,
    private readonly log: RunnerLog,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .then(() => undefined)
        .catch((err: unknown) => this.log.warn({ err }, 'monitor scheduler tick failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.tickMs);
        });
    }, ms);
    this.timer.unref?.();
  }

  /** Handles every fire time that has come; returns how many it handled. */
  async tick(): Promise<number> {
    let handled = 0;
    for (;;) {
      const now = this.clock.now();
      const due = await this.checks.dueMonitors(now.toISOString(), BATCH);
      // A few fire times at once: each is a handful of round trips to the database, and a minute boundary may
      // bring thousands of them.
      const fired = await inBatches(due, FIRE_CONCURRENCY, (d) => this.fire(d.id, d.nextRunAt, now));
      handled += fired.filter(Boolean).length;
      if (due.length < BATCH || this.stopped) return handled;
    }
  }

  private async fire(monitorId: string, fireTime: string, now: Date): Promise<boolean> {
    const monitor = await this.checks.monitorById(monitorId);
    if (!monitor || monitor.status !== 'active' || monitor.nextRunAt !== fireTime) return false;
    const checkId = fireCheckId(monitorId, fireTime);
    const active = await this.checks.activeCheckId(monitorId);
    const overlap = active !== undefined && active !== checkId;
    await this.checks.insertCheck({
      id: checkId,
      monitorId,
      status: overlap ? 'skipped_overlap' : 'queued',
      trigger: 'scheduled',
      scheduledFor: fireTime,
      estimatedCredits: monitor.targets.reduce((n, t) => n + t.urls.length, 0),
      at: now.toISOString(),
    });
    // Sent whenever the row is still queued, not only by the instance that inserted it: if that one died
    // before sending, the next look (here or elsewhere) sends it. The queue drops the duplicates.
    const check = await this.checks.check(checkId);
    if (check?.status === 'queued') await this.queue.send(checkId);
    let next: string | null = null;
    try {
      next = nextRunAt(monitor.schedule.cron, monitor.schedule.timezone, now);
    } catch (err) {
      this.log.warn({ err, monitorId }, 'monitor schedule has no next run');
    }
    return this.checks.advanceNextRun(monitorId, fireTime, next);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
