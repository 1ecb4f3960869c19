/**
 * Runs hostile variants and classifies what happened. Acceptable: a document, or a ParseError with a
 * code other than UNKNOWN_ERROR. Everything else is a defect: a hang past the bound, a rejection that
 * is not a ParseError, UNKNOWN_ERROR, leaked external-entity content; for the CLI also a crash, a kill,
 * a malformed error line, or a process that lingers after printing.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ParseError } from '../../src/errors.js';
import type { Parser } from '../../src/parser.js';
import type { ParseOptions } from '../../src/options/schema.js';
import { REPO_ROOT } from '../corpus.js';
import type { Variant } from './util.js';
import { XXE_MARKER } from './zip.js';

export type Defect =
  'hang' | 'unknown-error' | 'not-a-parse-error' | 'xxe-leak' | 'crash' | 'bad-exit' | 'lingers' | 'memory';

export interface Outcome {
  id: string;
  family: Variant['family'];
  status: 'document' | 'error' | 'hang' | 'crash';
  code?: string;
  ms: number;
  message?: string;
  /** First frames of the stack, for defects. */
  stack?: string;
  defect?: Defect;
  /** Peak resident memory of the CLI process in MiB (CLI runs only). */
  peakMiB?: number;
}

function stackHead(err: unknown, lines = 8): string | undefined {
  let e: unknown = err;
  // The interesting stack of a wrapped error is its cause's.
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? e.stack?.split('\n').slice(0, lines).join('\n') : undefined;
}

/** Parses one variant in this process; never takes much longer than `boundMs`. */
export async function runLibrary(
  parser: Parser,
  v: Variant,
  opts: { options?: ParseOptions; boundMs: number },
): Promise<Outcome> {
  const bytes = v.make();
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), opts.boundMs);
  });
  try {
    const r = await Promise.race([
      parser.parseFile(bytes, opts.options ?? {}, { filename: v.filename }).then(
        (doc) => ({ doc }),
        (err: unknown) => ({ err }),
      ),
      hang,
    ]);
    const ms = Math.round(performance.now() - t0);
    if (r === 'hang') return { id: v.id, family: v.family, status: 'hang', ms, defect: 'hang' };
    if ('doc' in r) {
      const md = r.doc.markdown ?? '';
      if (md.includes(XXE_MARKER))
        return {
          id: v.id,
          family: v.family,
          status: 'document',
          ms,
          defect: 'xxe-leak',
          message: 'markdown contains /etc/passwd content',
        };
      return { id: v.id, family: v.family, status: 'document', ms };
    }
    const err = r.err;
    if (!(err instanceof ParseError)) {
      return {
        id: v.id,
        family: v.family,
        status: 'error',
        ms,
        defect: 'not-a-parse-error',
        message: String(err),
        stack: stackHead(err),
      };
    }
    if (err.code === 'UNKNOWN_ERROR') {
      return {
        id: v.id,
        family: v.family,
        status: 'error',
        code: err.code,
        ms,
        defect: 'unknown-error',
        message: err.message,
        stack: stackHead(err),
      };
    }
    if (err.message.includes(XXE_MARKER))
      return {
        id: v.id,
        family: v.family,
        status: 'error',
        code: err.code,
        ms,
        defect: 'xxe-leak',
        message: 'error message contains /etc/passwd content',
      };
    return { id: v.id, family: v.family, status: 'error', code: err.code, ms, message: err.message.slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
}

export const CLI = path.join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');

function peakRss(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs the built CLI on one variant written to `dir`, killing it after `hardMs`. A process that exits
 * more than `lingerMs` after its last output lingers (timers or threads left running).
 */
export async function runCli(
  v: Variant,
  opts: { dir: string; hardMs: number; lingerMs?: number; memoryMiB?: number; args?: string[] },
): Promise<Outcome> {
  const file = path.join(opts.dir, v.filename.replace(/[^A-Za-z0-9._-]/g, '_'));
  writeFileSync(file, v.make());
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, file, ...(opts.args ?? [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  // Lingering is measured from the last output; a run that prints nothing at all cannot be judged.
  let lastOutput: number | undefined;
  let peak = 0;
  child.stdout.on('data', () => {
    lastOutput = performance.now();
  });
  child.stderr.on('data', (d: Buffer) => {
    lastOutput = performance.now();
    if (stderr.length < 20000) stderr += d.toString();
  });
  const poll = setInterval(() => {
    const p = child.pid && peakRss(child.pid);
    if (p) peak = Math.max(peak, p);
  }, 100);
  let killed = false;
  const kill = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, opts.hardMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('exit', (c, s) => resolve([c, s])),
  );
  const end = performance.now();
  clearTimeout(kill);
  clearInterval(poll);
  const ms = Math.round(end - t0);
  const base = { id: v.id, family: v.family, ms, ...(peak ? { peakMiB: Math.round(peak) } : {}) };
  if (killed)
    return {
      ...base,
      status: 'hang',
      defect: 'hang',
      message: `killed after ${opts.hardMs} ms; stderr: ${stderr.slice(-500)}`,
    };
  if (signal || (code !== 0 && code !== 1))
    return {
      ...base,
      status: 'crash',
      defect: 'crash',
      message: `exit ${code ?? signal}`,
      stack: stderr.slice(0, 1500),
    };
  const line = /^docmill: ([A-Z_]+): (.*)$/m.exec(stderr);
  const lingers = lastOutput !== undefined && end - lastOutput > (opts.lingerMs ?? 3000);
  const memory = opts.memoryMiB !== undefined && peak > opts.memoryMiB;
  if (code === 0) {
    if (lingers)
      return {
        ...base,
        status: 'document',
        defect: 'lingers',
        message: `exited ${Math.round(end - lastOutput!)} ms after its last output`,
      };
    if (memory) return { ...base, status: 'document', defect: 'memory', message: `peak RSS ${Math.round(peak)} MiB` };
    return { ...base, status: 'document' };
  }
  if (!line)
    return {
      ...base,
      status: 'crash',
      defect: 'bad-exit',
      message: 'exit 1 without a "docmill: CODE: message" line',
      stack: stderr.slice(0, 1500),
    };
  const errCode = line[1]!;
  if (errCode === 'UNKNOWN_ERROR')
    return { ...base, status: 'error', code: errCode, defect: 'unknown-error', message: line[2] };
  if (lingers)
    return {
      ...base,
      status: 'error',
      code: errCode,
      defect: 'lingers',
      message: `exited ${Math.round(end - lastOutput!)} ms after its last output`,
    };
  if (memory)
    return { ...base, status: 'error', code: errCode, defect: 'memory', message: `peak RSS ${Math.round(peak)} MiB` };
  return { ...base, status: 'error', code: errCode, message: line[2]?.slice(0, 200) };
}
