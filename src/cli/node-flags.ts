/**
 * The V8 flags the docmill command runs PDF work under, and how it gets them.
 *
 * `--max-opt=2`: V8 stops at its mid tier (Maglev) instead of compiling hot functions again with
 * TurboFan. pdf.js's evaluator is made of large, polymorphic functions that TurboFan compiles again and
 * again (each compile competing for the cores the page threads need) without running them faster:
 * measured with bench/pdf.ts, fast-mode PDF parses in a fresh process run about 20% faster (1.09-1.20×
 * pdf-inspector's pages per second against 0.89-0.94× without the flag) and about as fast in a running
 * one; OCR is unchanged (WebAssembly is not affected), and PII detection, which does gain from TurboFan,
 * loses about 15% (64 → 54 MB/s, still past its 50 MB/s target). V8 flags are process-wide, so the
 * library leaves them to the application that embeds it (README, "Library").
 *
 * The command sets them in its own process, before it loads any of the library and before it starts a
 * thread (threads take the process's flags as they start), with `v8.setFlagsFromString`. `--max-opt` is
 * turned into its effects when V8 starts and is ignored when set later, so the flags set are those effects,
 * as `node --max-opt=2 --print-flag-values` lists them: TurboFan off and Maglev's inlining limits of a
 * Maglev-topped V8. Starting the process again with the flag on its command line (what the command did
 * before) cost a second node start and a second load of the command's modules: about 0.4 CPU s and 30-70 MB
 * of a one-page conversion.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import v8 from 'node:v8';

/** On a node command line (`npm start`, bench/http.ts): the same tier limit. */
export const CLI_NODE_FLAGS: readonly string[] = ['--max-opt=2'];

/** What `--max-opt=2` sets, as flags that can still be set in a running process. */
export const CLI_V8_FLAGS: readonly string[] = [
  '--no-turbofan',
  '--max-maglev-inlined-bytecode-size=100',
  '--min-maglev-inlining-frequency=0.95',
];

/** Sets the flags in this process: call it before any PDF code has run and before any thread starts. */
export function applyNodeFlags(): void {
  if (CLI_NODE_FLAGS.every((f) => process.execArgv.includes(f))) return;
  for (const f of CLI_V8_FLAGS) v8.setFlagsFromString(f);
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
