#!/usr/bin/env node
/**
 * docmill FILE [--json] [--options JSON] [--mode fast|auto|ocr] [--pages] [--blocks]
 * docmill serve
 *
 * PDF work runs under the V8 flags of ./node-flags.ts: the command starts itself again with them.
 */
import { mkdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { ParseError, toParseError, type ParseErrorCode } from '../errors.js';
import { normalizeOptions, type ParseOptions } from '../options/schema.js';
import { createParser } from '../parser.js';
import type { ParseDocument } from '../types.js';
import { hasNodeFlags, rerunWithNodeFlags, wantsNodeFlags } from './node-flags.js';

const USAGE = `Usage:
  docmill FILE [--json] [--options JSON] [--mode fast|auto|ocr] [--pages] [--blocks] [--max-pages N]
  docmill serve

Converts FILE to markdown on standard output.
  --json          print the whole response document {success, data} as JSON
  --options JSON  ParseOptions as JSON text (the same as the options field of POST /v2/parse)
  --mode MODE     PDF mode: fast (text only), auto (text, OCR where needed; default), ocr (every page)
  --pages         per-page markdown (pages in --json; page separators in markdown output)
  --blocks        layout blocks (in --json output)
  --max-pages N   parse at most N pages of a PDF
Exit status: 0 on success, 1 when the file could not be parsed, 2 on a usage error.`;

/** Milliseconds a CLI parse may take unless --options sets `timeout`. */
const CLI_DEFAULT_TIMEOUT_MS = 20000;
/** Heap of the parse thread: a reader that runs away with memory fails with RESOURCE_LIMIT instead of taking the machine. */
const PARSE_HEAP_MB = 4096;
/** How long past its timeout the parse thread may take to report it before the CLI reports it instead. */
const TIMEOUT_GRACE_MS = 1000;

interface ParseJob {
  docmillCliParse: true;
  bytes: Uint8Array;
  options: ParseOptions;
  filename: string;
}

type ParseReply = { ok: true; data: ParseDocument } | { ok: false; code: ParseErrorCode; message: string };

/** The parse thread: one parse, its result posted back. */
async function parseThread(job: ParseJob): Promise<void> {
  const parser = createParser();
  let reply: ParseReply;
  try {
    reply = { ok: true, data: await parser.parseFile(job.bytes, job.options, { filename: job.filename }) };
  } catch (err) {
    const e = toParseError(err);
    reply = { ok: false, code: e.code, message: e.message };
  }
  parentPort!.postMessage(reply);
  await parser.close();
}

/**
 * Parses in a worker thread so that this thread can always answer: a reader that blocks its event
 * loop past the timeout (the library's timeout fires only between turns) or exhausts the thread's heap
 * still ends in an error line and exit status 1, never a process that must be killed.
 */
function parseInThread(job: ParseJob, timeoutMs: number): Promise<ParseDocument> {
  return new Promise<ParseDocument>((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB },
    });
    const timer = setTimeout(() => {
      reject(new ParseError('TIMEOUT', `The parse did not finish within options.timeout (${timeoutMs} ms).`));
    }, timeoutMs + TIMEOUT_GRACE_MS);
    worker.once('message', (r: ParseReply) => {
      clearTimeout(timer);
      if (r.ok) resolve(r.data);
      else reject(new ParseError(r.code, r.message));
    });
    worker.once('error', (err: Error & { code?: string }) => {
      clearTimeout(timer);
      reject(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ParseError(
              'RESOURCE_LIMIT',
              `The document needs more than the ${PARSE_HEAP_MB} MB of memory one parse may use.`,
            )
          : toParseError(err),
      );
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new ParseError('UNKNOWN_ERROR', `The parse ended without a result (thread exit code ${code}).`));
    });
  });
}

function fail(code: string, message: string, status: number): never {
  process.stderr.write(`docmill: ${code}: ${message}\n`);
  process.exit(status);
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'serve') {
    const { serve } = await import('../server/serve.js');
    await serve(argv.slice(1));
    return;
  }
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        options: { type: 'string' },
        mode: { type: 'string' },
        pages: { type: 'boolean' },
        blocks: { type: 'boolean' },
        'max-pages': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    fail('BAD_REQUEST', `${(err as Error).message}\n${USAGE}`, 2);
  }
  if (args.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const file = args.positionals[0];
  if (!file || args.positionals.length > 1) fail('BAD_REQUEST', `expected exactly one FILE.\n${USAGE}`, 2);

  let options: Record<string, unknown> = {};
  if (args.values.options) {
    try {
      options = JSON.parse(args.values.options) as Record<string, unknown>;
    } catch (err) {
      fail('BAD_REQUEST', `--options is not valid JSON: ${(err as Error).message}`, 2);
    }
  }
  // Batch converters commonly kill a conversion at 30 s, the library's own default: the CLI stops
  // earlier so that a parse that cannot finish ends with a TIMEOUT error instead of being killed.
  if (options !== null && typeof options === 'object' && !Array.isArray(options) && options['timeout'] === undefined) {
    options['timeout'] = CLI_DEFAULT_TIMEOUT_MS;
  }
  const { mode, pages, blocks } = args.values;
  const maxPages = args.values['max-pages'];
  if (mode !== undefined || pages || blocks || maxPages !== undefined) {
    const parsers = Array.isArray(options['parsers']) ? (options['parsers'] as unknown[]) : [];
    const base =
      parsers[0] && typeof parsers[0] === 'object' ? (parsers[0] as Record<string, unknown>) : { type: 'pdf' };
    options['parsers'] = [
      {
        ...base,
        ...(mode !== undefined ? { mode } : {}),
        ...(pages ? { pages: true } : {}),
        ...(blocks ? { blocks: true } : {}),
        ...(maxPages !== undefined ? { maxPages: Number(maxPages) } : {}),
      },
    ];
  }

  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    fail('BAD_REQUEST', `cannot read ${file}: ${(err as Error).message}`, 2);
  }

  // Options are checked here before the parse thread starts: a bad value is a BAD_REQUEST however
  // long the thread takes to start (with a timeout of 0 the thread's start alone could outlast the
  // guard below and report a TIMEOUT instead).
  try {
    normalizeOptions(options);
  } catch (err) {
    const e = toParseError(err);
    if (args.values.json)
      process.stdout.write(`${JSON.stringify({ success: false, code: e.code, error: e.message }, null, 2)}\n`);
    fail(e.code, e.message, 1);
  }
  const requested = (options as Record<string, unknown> | null)?.['timeout'];
  const timeoutMs = typeof requested === 'number' && Number.isFinite(requested) ? requested : CLI_DEFAULT_TIMEOUT_MS;
  const job: ParseJob = {
    docmillCliParse: true,
    bytes,
    options: options as ParseOptions,
    filename: path.basename(file),
  };
  let data: ParseDocument;
  try {
    data = await parseInThread(job, timeoutMs);
  } catch (err) {
    const e = err instanceof ParseError ? err : toParseError(err);
    if (args.values.json)
      process.stdout.write(`${JSON.stringify({ success: false, code: e.code, error: e.message }, null, 2)}\n`);
    fail(e.code, e.message, 1);
  }
  if (args.values.json) {
    process.stdout.write(`${JSON.stringify({ success: true, data }, null, 2)}\n`);
  } else if (pages && data.pages) {
    process.stdout.write(data.pages.map((p) => `<!-- page ${p.pageNumber} -->\n\n${p.markdown}\n`).join('\n'));
  } else {
    process.stdout.write(data.markdown ?? '');
  }
  if (data.warning) process.stderr.write(`docmill: warning: ${data.warning}\n`);
  // Ends the parse thread and its pools with the process: nothing left running may hold it open.
  process.stdout.write('', () => process.exit(0));
}

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

if (!isMainThread && (workerData as Partial<ParseJob> | null)?.docmillCliParse) {
  await parseThread(workerData as ParseJob);
} else {
  // A reader that stops early (`docmill big.pdf | head`) is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });

  useCompileCache();
  const argv = process.argv.slice(2);
  if (!hasNodeFlags() && wantsNodeFlags(argv)) await rerunWithNodeFlags(process.argv[1]!, argv);
  main(argv).catch((err: unknown) => {
    const e = toParseError(err);
    fail(e.code, e.message, 1);
  });
}
