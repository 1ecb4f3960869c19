/**
 * The V8 flags the docmill command runs PDF work under, and how it gets them.
 *
 * `--max-opt=2`: V8 stops at its mid tier (Maglev) instead of compiling hot functions again with
 * TurboFan. pdf.js's evaluator is made of large, polymorphic functions that TurboFan compiles again and
 * again (each compile competing for the cores the page threads need) without running them faster:
 * measured with bench/pdf.ts, fast-mode PDF parses in a fresh process run about 20% faster (1.09-1.20×
 * pdf-inspector's pages per second against 0.89-0.94× without the flag) and about as fast in a running
 * one; OCR is unchanged (WebAssembly is not affected), and PII detection, which does gain from TurboFan,
 * loses about 15% (64 → 54 MB/s, still past its 50 MB/s target). V8 flags are process-wide and fixed
 * when the process starts, so the library leaves them to the application that embeds it (README,
 * "Library"); the command starts itself again with them (a `#!/usr/bin/env -S node …` line would do
 * it for free, but BusyBox's env, as on Alpine, has no -S).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';

export const CLI_NODE_FLAGS: readonly string[] = ['--max-opt=2'];

/** Set in the environment of the process started with the flags, so that it never starts another. */
const MARK = 'DOCMILL_NODE_FLAGS';

/** Whether this process runs with every flag (given on its node command line, or started so). */
export function hasNodeFlags(): boolean {
  return process.env[MARK] === '1' || CLI_NODE_FLAGS.every((f) => process.execArgv.includes(f));
}

/** Whether a command line will do PDF work: `serve`, or a file that is a PDF by name or by its first bytes. */
export function wantsNodeFlags(argv: readonly string[]): boolean {
  if (argv[0] === 'serve') return true;
  if (argv.some((a) => !a.startsWith('-') && a.toLowerCase().endsWith('.pdf'))) return true;
  for (const a of argv) {
    if (a.startsWith('-')) continue;
    try {
      const fd = openSync(a, 'r');
      try {
        const head = Buffer.alloc(1024);
        const n = readSync(fd, head, 0, head.length, 0);
        if (head.subarray(0, n).includes('%PDF-')) return true;
      } finally {
        closeSync(fd);
      }
    } catch {
      /* not a readable file: an option's value */
    }
  }
  return false;
}

/**
 * Runs this command again in a child process with the flags, passing standard streams through and
 * termination signals on, and exits with its status. Resolves only if the child could not be started
 * (the caller then goes on without the flags).
 */
export function rerunWithNodeFlags(script: string, argv: readonly string[]): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI_NODE_FLAGS, ...process.execArgv, path.resolve(script), ...argv], {
      stdio: 'inherit',
      env: { ...process.env, [MARK]: '1' },
    });
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const s of signals) process.on(s, forward);
    child.once('error', () => {
      for (const s of signals) process.off(s, forward);
      resolve();
    });
    child.once('exit', (code, signal) => {
      for (const s of signals) process.off(s, forward);
      if (signal) process.kill(process.pid, signal);
      process.exit(code ?? 1);
    });
  });
}
