/**
 * Worker pools of the readers that move heavy or risky work off the calling thread (large HTML pages,
 * binary workbooks), so that the event loop stays free and a timeout really stops the work: aborting a
 * piscina task ends its thread.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Piscina } from 'piscina';
import { ParseError } from '../errors.js';
import { PACKAGE_ROOT } from './package-root.js';
import type { ParserRuntime } from './runtime.js';

/** The built entry file of `workers/<name>.ts`. */
export function workerFile(name: string): string {
  return path.join(PACKAGE_ROOT, 'dist', 'workers', `${name}.js`);
}

/**
 * The parser's pool for `workers/<name>.ts`, created on first use; undefined when the worker has not
 * been built (callers then run the work inline). Idle threads exit, so the pool never keeps the process alive.
 */
export function readerPool<Task, Result>(
  runtime: ParserRuntime,
  name: string,
  maxOldGenerationSizeMb = 2048,
  maxYoungGenerationSizeMb?: number,
): Piscina<Task, Result> | undefined {
  const filename = workerFile(name);
  if (!existsSync(filename)) return undefined;
  return runtime.resource(`${name}-pool`, () => {
    const pool = new Piscina<Task, Result>({
      filename,
      minThreads: 0,
      maxThreads: runtime.config.textThreads,
      idleTimeout: runtime.config.idleTimeoutMs,
      concurrentTasksPerWorker: 1,
      maxQueue: Infinity,
      // Input that balloons memory ends its own thread, not the process.
      resourceLimits: { maxOldGenerationSizeMb, ...(maxYoungGenerationSizeMb ? { maxYoungGenerationSizeMb } : {}) },
    });
    ignoreIdleWorkerDeaths(pool);
    return { value: pool, close: () => pool.close({ force: true }) };
  });
}

/**
 * A worker that dies while it runs a task fails that task, and its parse reports it. One whose death is
 * reported when it holds no task (its task was already settled by an abort or a timeout as it ran out of
 * memory) fails nothing, and piscina then emits 'error' on the pool, which, with no listener, is thrown
 * as an uncaught exception and ends the process (seen once in the hostile-PDF suite). The pool starts
 * a new thread as needed.
 */
export function ignoreIdleWorkerDeaths(pool: { on(event: 'error', fn: (err: unknown) => void): unknown }): void {
  pool.on('error', () => undefined);
}

/** The error a parse ends with when its signal fired: the TIMEOUT the parser set, or ABORTED. */
export function abortReason(signal: AbortSignal): ParseError {
  const reason: unknown = signal.reason;
  return reason instanceof ParseError ? reason : new ParseError('ABORTED', 'The parse was aborted.');
}
