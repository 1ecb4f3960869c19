/**
 * The scheduler: finds active monitors whose `next_run_at` has come and turns each fire time into one
 * queued check. Every instance runs one; they agree without talking to each other:
 *
 * - a fire time is claimed by moving `next_run_at` from it by compare-and-set, in the same transaction that
 *   records its check: one instance wins, the others find nothing to do;
 * - the check of a fire time has an id derived from the monitor id and the fire time, with a unique index on
 *   (monitor, fire time) behind it, and the job queue takes the check id as job id, so it is queued once;
 * - an instance that dies after recording a check and before queueing it leaves the check `queued`; the
 *   schedulers hand such checks to the queue again every 30 s.
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
import type { CheckStore, DueMonitor } from './check-store.js';
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

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

const BATCH = 500;
const FIRE_CONCURRENCY = 8;
const SWEEP_MS = 30_000;

export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private lastSweep = 0;
  private sweeping: Promise<void> | undefined;

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
      // Shuffled: instances that see the same fire times then mostly claim different monitors, not race for each.
      const due = shuffle(await this.checks.dueMonitors(now.toISOString(), BATCH));
      // A few fire times at once: each is a short transaction, and a minute boundary may bring thousands.
      const fired = await inBatches(due, FIRE_CONCURRENCY, (d) => this.fire(d, now));
      handled += fired.filter(Boolean).length;
      if (due.length < BATCH || this.stopped) break;
    }
    // Not awaited: a long backlog of queued checks must not hold up the next fire times.
    if (!this.sweeping) {
      this.sweeping = this.sweep()
        .catch((err: unknown) => this.log.warn({ err }, 'monitor queue sweep failed'))
        .finally(() => (this.sweeping = undefined));
    }
    return handled;
  }

  private async fire(due: DueMonitor, now: Date): Promise<boolean> {
    let next: string | null = null;
    try {
      next = nextRunAt(due.cron, due.timezone, now);
    } catch (err) {
      this.log.warn({ err, monitorId: due.id }, 'monitor schedule has no next run');
    }
    const check = await this.checks.claimFireTime(due, next, {
      id: fireCheckId(due.id, due.nextRunAt),
      monitorId: due.id,
      status: 'queued',
      trigger: 'scheduled',
      scheduledFor: due.nextRunAt,
      estimatedCredits: due.urls,
      at: this.clock.now().toISOString(),
    });
    if (check?.status === 'queued') await this.queue.send(check.id);
    return check !== undefined;
  }

  /**
   * Now and then, hands the queue the checks that stayed `queued` for a while: an instance that died between
   * recording a check and queueing it leaves one behind. Sending a check the queue holds already does nothing.
   */
  private async sweep(): Promise<void> {
    const at = this.clock.now().getTime();
    if (at - this.lastSweep < SWEEP_MS) return;
    this.lastSweep = at;
    for (const id of await this.checks.queuedBefore(new Date(at - SWEEP_MS).toISOString())) await this.queue.send(id);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.sweeping;
  }
}
