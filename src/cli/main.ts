#!/usr/bin/env node
/**
 * docmill FILE|- [--json] [--options JSON] [--mode fast|auto|ocr] [--pages] [--blocks] [--max-pages N]
 *                [--timeout MS] [--quiet] [--filename NAME | --type EXT]
 * docmill FILE... -o DIR
 * docmill serve [--host HOST] [--port PORT]
 *
 * The entry: the compile cache and, for PDF work, the V8 flags of ./node-flags.ts are set up before
 * anything else is loaded (flags must be in place before the code they tune is compiled and before any
 * thread starts); then the command (./command.ts) is loaded and run.
 */
import { mkdirSync, statSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { applyNodeFlags, wantsNodeFlags } from './node-flags.js';

/**
 * Every thread a command starts compiles the same 2-3 MB of JavaScript (pdf.js above all) before it can
 * work: about a quarter of the CPU of converting a one-page PDF. Node's module compile cache keeps the
 * compiled code on disk between runs; set through the environment, it also reaches the worker threads.
 * A per-user cache directory (never a shared temporary one); NODE_COMPILE_CACHE, when set, is left to
 * Node, and NODE_DISABLE_COMPILE_CACHE=1 turns the cache off. Only the command does this: an application embedding the
 * library decides for its own process.
 */
function useCompileCache(): void {
  if (process.env['NODE_DISABLE_COMPILE_CACHE'] || process.env['NODE_COMPILE_CACHE']) return;
  const base = process.env['XDG_CACHE_HOME'] || path.join(os.homedir(), '.cache');
  const dir = path.join(base, 'docmill', 'compile-cache');
  // One level at a time: a recursive mkdir under a pseudo file system (/proc) never returns in Node 24,
  // and Node's own cache set-up would do exactly that for a missing directory.
  for (const d of [base, path.dirname(dir), dir]) {
    try {
      mkdirSync(d);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return;
    }
  }
  try {
    if (!statSync(dir).isDirectory()) return;
    if (module.enableCompileCache?.(dir).status !== module.constants.compileCacheStatus.ENABLED) return;
    // Worker threads read the environment as they start.
    process.env['NODE_COMPILE_CACHE'] = dir;
  } catch {
    /* an unusable cache only costs the compile time it would have saved */
  }
}

// A reader that stops early (`docmill big.pdf | head`) is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// pdf.js needs Node 22's built-ins (Iterator helpers among them): on an older Node every PDF would fail
// as if it were damaged. Said once, plainly, instead.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(`docmill: needs Node.js 22.13 or later (this is ${process.versions.node})\n`);
  process.exit(2);
}

useCompileCache();
const argv = process.argv.slice(2);
if (wantsNodeFlags(argv)) applyNodeFlags();
const { main } = await import('./command.js');
main(argv).catch(async (err: unknown) => {
  const { toParseError } = await import('../errors.js');
  const e = toParseError(err);
  process.stderr.write(`docmill: ${e.code}: ${e.message}\n`);
  process.exit(1);
});
