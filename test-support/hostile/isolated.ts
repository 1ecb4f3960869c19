/**
 * Runs library parses of hostile variants in a child process (dist/test-support/hostile/child.js)
 * and watches it from outside: a variant that does not settle within `hardMs` (its event loop may be
 * blocked, so no timer inside can fire) gets the child killed and is recorded as a hang; a child that
 * dies mid-variant records a crash; unhandled rejections are charged to the variant running. The run
 * then resumes in a fresh child with the next variant.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from '../corpus.js';
import type { ChildRequest } from './child.js';
import type { Outcome } from './run.js';
import type { Variant } from './util.js';

export const CHILD = path.join(REPO_ROOT, 'dist', 'test-support', 'hostile', 'child.js');

export interface IsolatedOptions {
  seed: number;
  mutations: number;
  /** ParseOptions for every parse. */
  options: Record<string, unknown>;
  /** Bound used inside the child (Promise.race) and, plus a margin, outside (kill). */
  boundMs: number;
  onOutcome?: (o: Outcome) => void;
}

type Msg = { start?: string; outcome?: Outcome; unhandled?: string; error?: string; done?: boolean; missing?: string };

export async function runIsolated(variants: Variant[], opts: IsolatedOptions): Promise<Outcome[]> {
  const family = new Map(variants.map((v) => [v.id, v.family]));
  const results = new Map<string, Outcome>();
  const unhandled = new Map<string, string>();
  let queue = variants.map((v) => v.id);
  const record = (o: Outcome): void => {
    const extra = unhandled.get(o.id);
    const final =
      extra && !o.defect
        ? {
            ...o,
            defect: 'crash' as const,
            message: `unhandled rejection/exception during the parse: ${extra.split('\n')[0]}`,
            stack: extra,
          }
        : o;
    results.set(o.id, final);
    opts.onOutcome?.(final);
  };
  while (queue.length) {
    const before = results.size;
    const req: ChildRequest = {
      seed: opts.seed,
      mutations: opts.mutations,
      ids: queue,
      options: opts.options,
      boundMs: opts.boundMs,
    };
    const child = spawn(process.execPath, [CHILD], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.stdin.end(JSON.stringify(req));
    let running: string | undefined;
    let started = 0;
    let timer: NodeJS.Timeout | undefined;
    let hung = false;
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (c, s) => resolve([c, s])),
    );
    const lines = createInterface({ input: child.stdout });
    for await (const line of lines) {
      let msg: Msg;
      try {
        msg = JSON.parse(line) as Msg;
      } catch {
        continue;
      }
      if (msg.start) {
        running = msg.start;
        started = performance.now();
        clearTimeout(timer);
        timer = setTimeout(() => {
          hung = true;
          child.kill('SIGKILL');
        }, opts.boundMs + 15000);
      } else if (msg.outcome) {
        clearTimeout(timer);
        record(msg.outcome);
        running = undefined;
      } else if (msg.unhandled !== undefined || msg.error) {
        const id = msg.unhandled ?? running ?? '(between variants)';
        unhandled.set(id, msg.error ?? '');
        if (!msg.unhandled && !running) {
          // An error after a variant settled: charge it to the last one recorded.
          const last = [...results.keys()].at(-1);
          if (last) unhandled.set(last, msg.error ?? '');
        }
      } else if (msg.missing) {
        results.set(msg.missing, {
          id: msg.missing,
          family: family.get(msg.missing) ?? 'other',
          status: 'crash',
          ms: 0,
          defect: 'crash',
          message: 'variant not found in the child',
        });
      }
    }
    clearTimeout(timer);
    const [code, signal] = await exited;
    if (running) {
      const ms = Math.round(performance.now() - started);
      const fam = family.get(running) ?? 'other';
      if (hung)
        record({
          id: running,
          family: fam,
          status: 'hang',
          ms,
          defect: 'hang',
          message: `did not settle within ${opts.boundMs + 15000} ms (event loop blocked?); child killed`,
        });
      else
        record({
          id: running,
          family: fam,
          status: 'crash',
          ms,
          defect: 'crash',
          message: `the process died (exit ${code ?? signal})`,
          stack: stderr.slice(-1500),
        });
    }
    // Whatever ran after the last settled variant is charged to it (late unhandled rejections).
    for (const [id, err] of unhandled) {
      const o = results.get(id);
      if (o && !o.defect)
        results.set(id, {
          ...o,
          defect: 'crash',
          message: `unhandled rejection/exception: ${err.split('\n')[0]}`,
          stack: err,
        });
    }
    queue = queue.filter((id) => !results.has(id));
    if (!running && queue.length && results.size === before) {
      // The child ended without settling anything: charge the first waiting variant, go on with the rest.
      const id = queue.shift()!;
      results.set(id, {
        id,
        family: family.get(id) ?? 'other',
        status: 'crash',
        ms: 0,
        defect: 'crash',
        message: `child exited (${code ?? signal}) before settling: ${stderr.slice(-300)}`,
      });
    }
  }
  return variants.map((v) => results.get(v.id)!);
}
