/**
 * Per-key concurrency with a bounded FIFO queue. A request either runs at once, waits in its key's queue
 * (and learns how long it waited), or is refused because the queue is full. Admission happens before the
 * upload is read, so a flood of requests costs neither memory nor CPU beyond the queue's bound.
 */

export interface Slot {
  /** Resolves when the request may run; rejects if it is cancelled while waiting. */
  ready: Promise<void>;
  /** True when the request had to wait for a slot. */
  readonly waited: boolean;
  /** Milliseconds spent waiting (0 when it ran at once); final once `ready` resolved. */
  readonly queueMs: number;
  /** Frees the slot (or leaves the queue). Idempotent. */
  release(): void;
}

interface Waiter {
  start: () => void;
  cancel: (err: Error) => void;
}

interface KeyState {
  active: number;
  queue: Waiter[];
}

export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';
  constructor(
    message: string,
    /** When a retry has a fair chance: about one parse's run time (sent as the Retry-After header). */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Bounds of Retry-After: never "now", never so long that a client gives up on a briefly busy service. */
const RETRY_AFTER_MIN_S = 1;
const RETRY_AFTER_MAX_S = 60;

export class KeyLimiter {
  private readonly keys = new Map<string, KeyState>();
  /** Moving average of how long a slot is held: a full queue frees a place in about that time. */
  private meanRunMs = 0;

  constructor(
    readonly concurrency: number,
    readonly queueLength: number,
  ) {}

  /** Current load of a key, for tests and metrics. */
  load(keyId: string): { active: number; queued: number } {
    const s = this.keys.get(keyId);
    return { active: s?.active ?? 0, queued: s?.queue.length ?? 0 };
  }

  /** Seconds a refused client should wait before retrying. */
  retryAfterSeconds(): number {
    return Math.min(RETRY_AFTER_MAX_S, Math.max(RETRY_AFTER_MIN_S, Math.ceil(this.meanRunMs / 1000)));
  }

  private recordRun(ms: number): void {
    this.meanRunMs = this.meanRunMs === 0 ? ms : this.meanRunMs * 0.8 + ms * 0.2;
  }

  /** Takes a slot or a queue place; throws QueueFullError when neither is free. */
  acquire(keyId: string): Slot {
    let state = this.keys.get(keyId);
    if (!state) {
      state = { active: 0, queue: [] };
      this.keys.set(keyId, state);
    }
    const s = state;
    const enqueuedAt = performance.now();
    let released = false;
    let running = false;
    let waited = false;
    let queueMs = 0;
    let runningSince = 0;

    const free = (): void => {
      this.recordRun(performance.now() - runningSince);
      s.active--;
      const next = s.queue.shift();
      if (next) next.start();
      else if (s.active === 0) this.keys.delete(keyId);
    };

    let ready: Promise<void>;
    let waiter: Waiter | undefined;
    if (s.active < this.concurrency) {
      s.active++;
      running = true;
      runningSince = performance.now();
      ready = Promise.resolve();
    } else if (s.queue.length < this.queueLength) {
      waited = true;
      ready = new Promise<void>((resolve, reject) => {
        waiter = {
          start: () => {
            s.active++;
            running = true;
            runningSince = performance.now();
            queueMs = performance.now() - enqueuedAt;
            if (released) free();
            else resolve();
          },
          cancel: reject,
        };
        s.queue.push(waiter);
      });
      // A cancelled wait is reported through release(); nobody has to observe the rejection.
      ready.catch(() => undefined);
    } else {
      throw new QueueFullError(
        `Concurrency limit reached: ${this.concurrency} parses running and ${this.queueLength} waiting for this API key. Retry later.`,
        this.retryAfterSeconds(),
      );
    }

    return {
      ready,
      get waited() {
        return waited;
      },
      get queueMs() {
        return queueMs;
      },
      release: () => {
        if (released) return;
        released = true;
        if (running) free();
        else if (waiter) {
          const i = s.queue.indexOf(waiter);
          if (i >= 0) s.queue.splice(i, 1);
          waiter.cancel(new Error('left the queue'));
          if (s.active === 0 && s.queue.length === 0) this.keys.delete(keyId);
        }
      },
    };
  }
}
