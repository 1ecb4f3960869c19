/** The per-key limiter on its own: slots, FIFO queue, refusals, leaving the queue, wait time. */
import { describe, expect, it } from 'vitest';
import { KeyLimiter, QueueFullError } from '../src/server/limiter.js';

describe('KeyLimiter', () => {
  it('runs up to the limit, queues up to the queue length, refuses the rest, per key', () => {
    const l = new KeyLimiter(2, 1);
    const a = l.acquire('k');
    const b = l.acquire('k');
    const c = l.acquire('k');
    expect([a.waited, b.waited, c.waited]).toEqual([false, false, true]);
    expect(() => l.acquire('k')).toThrow(QueueFullError);
    expect(l.load('k')).toEqual({ active: 2, queued: 1 });
    expect(l.acquire('other').waited).toBe(false);
  });

  it('hands freed slots to waiters in arrival order and reports how long they waited', async () => {
    const l = new KeyLimiter(1, 3);
    const first = l.acquire('k');
    const order: string[] = [];
    const waiters = ['w1', 'w2', 'w3'].map((name) => {
      const s = l.acquire('k');
      void s.ready.then(() => order.push(name));
      return s;
    });
    await new Promise((r) => setTimeout(r, 20));
    first.release();
    await waiters[0]!.ready;
    expect(waiters[0]!.queueMs).toBeGreaterThanOrEqual(15);
    waiters[0]!.release();
    await waiters[1]!.ready;
    waiters[1]!.release();
    await waiters[2]!.ready;
    expect(order).toEqual(['w1', 'w2', 'w3']);
    waiters[2]!.release();
    expect(l.load('k')).toEqual({ active: 0, queued: 0 });
  });

  it('a waiter that leaves frees its queue place and never takes a slot; release is idempotent', async () => {
    const l = new KeyLimiter(1, 1);
    const running = l.acquire('k');
    const leaving = l.acquire('k');
    expect(() => l.acquire('k')).toThrow(QueueFullError);
    leaving.release();
    await expect(leaving.ready).rejects.toThrow();
    expect(l.load('k')).toEqual({ active: 1, queued: 0 });
    const next = l.acquire('k');
    expect(next.waited).toBe(true);
    running.release();
    running.release();
    await next.ready;
    expect(l.load('k')).toEqual({ active: 1, queued: 0 });
    next.release();
    expect(l.load('k')).toEqual({ active: 0, queued: 0 });
  });
});
