/**
 * The docmill command's work on the main thread: arguments, the parse thread, output and exit status
 * (src/cli/main.ts loads it once the process is set up; the library itself loads only in the parse thread).
 */
import { closeSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ParseError, toParseError } from '../errors.js';
import type { ParseOptions } from '../options/schema.js';
import type { ParseProgress } from '../progress.js';
import { PACKAGE_ROOT } from '../runtime/package-root.js';
import type { ParseDocument } from '../types.js';
import { parseCliArgs, UsageError, type CliRun } from './args.js';
import { EXIT_INCOMPLETE, incompleteReason, render } from './output.js';
import type { ParseJob, ParseThreadData, ThreadMessage } from './parse-thread.js';
import { ProgressLine } from './progress-line.js';

const USAGE = `Usage:
  docmill FILE [flags]           convert FILE (- reads standard input) to markdown on standard output
  docmill FILE... -o DIR         convert several files, one DIR/<name>.md each
  docmill serve [--host HOST] [--port PORT]
  docmill --version

Flags:
  --json          print the whole response document {success, data} as JSON
  --options JSON  ParseOptions as JSON text (the same as the options field of POST /v2/parse)
  --mode MODE     PDF mode: fast (text only), auto (text, OCR where needed; default), ocr (every page)
  --pages         per-page markdown (page separators; in --json, data.pages)
  --blocks        layout blocks, printed as JSON (in --json, data.blocks)
  --max-pages N   parse at most N pages of a PDF
  --timeout MS    give up after MS milliseconds (default: no limit)
  -q, --quiet     no progress line and no warnings on standard error
  --filename NAME name of the document read from standard input (its extension tells the type)
  --type EXT      type of the document read from standard input, e.g. csv
  -o, --output DIR  write one file per input into DIR
Progress (pages done of total) is shown on standard error when it is a terminal.
Exit status: 0 success; 1 a file could not be parsed; 2 usage error;
             3 a document came back incomplete (pages failed or partial, or time ran out).`;

/** Heap of the parse thread: a reader that runs away with memory fails with RESOURCE_LIMIT instead of taking the machine. */
const PARSE_HEAP_MB = 4096;
/**
 * Young generation of the parse thread, MB: its garbage (document passes, serialisation) is short-lived,
 * and V8's default lets about 64 MB of it pile up between collections. groff-1000.pdf (1,235 pages): peak
 * RSS 528 -> 434 MB, CPU the same.
 */
const PARSE_YOUNG_MB = 16;
/** How long past its timeout the parse thread may take to report it before the CLI reports it instead. */
const TIMEOUT_GRACE_MS = 1000;

/**
 * Parses in a worker thread so that this thread can always answer: a reader that exhausts the thread's
 * heap, or does not stop at the timeout, still ends in an error line and an exit status, never a process
 * that must be killed.
 */
class ParseThread {
  private worker: Worker | undefined;
  private next = 1;

  /** `warmPdf`: the first input is a PDF, so the thread starts its PDF text thread at once. */
  constructor(private readonly warmPdf = false) {}

  private start(): Worker {
    // Only the first thread warms: one started after a stuck parse has its pools already warm-started or not needed.
    const workerData: ParseThreadData = {
      docmillCliParse: true,
      ...(this.warmPdf && this.next === 1 ? { warmPdf: true } : {}),
    };
    const worker = new Worker(new URL('./parse-thread.js', import.meta.url), {
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB, maxYoungGenerationSizeMb: PARSE_YOUNG_MB },
    });
    this.worker = worker;
    return worker;
  }

  /**
   * Checks the options in the parse thread (which loads the options schema with the library; this
   * thread never does): rejects with the ParseError normalizeOptions throws.
   */
  async check(options: ParseOptions): Promise<void> {
    await this.request(
      { bytes: new Uint8Array(0), options, filename: '', noTimeout: true, checkOnly: true },
      undefined,
    );
  }

  async parse(
    job: Omit<ParseJob, 'id'>,
    timeoutMs: number | undefined,
    onProgress: (p: ParseProgress) => void,
  ): Promise<ParseDocument> {
    return (await this.request(job, timeoutMs, onProgress))!;
  }

  private request(
    job: Omit<ParseJob, 'id'>,
    timeoutMs: number | undefined,
    onProgress: (p: ParseProgress) => void = () => undefined,
  ): Promise<ParseDocument | null> {
    const worker = this.worker ?? this.start();
    const id = this.next++;
    return new Promise<ParseDocument | null>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              done();
              // The thread did not report its own timeout: it is stuck; the next file gets a new one.
              void worker.terminate();
              this.worker = undefined;
              reject(new ParseError('TIMEOUT', `The parse did not finish within --timeout (${timeoutMs} ms).`));
            }, timeoutMs + TIMEOUT_GRACE_MS);
      const onMessage = (m: ThreadMessage): void => {
        if (m.id !== id) return;
        if ('progress' in m) return onProgress(m.progress);
        done();
        if (m.ok) resolve(m.data);
        else reject(new ParseError(m.code, m.message));
      };
      const onError = (err: Error & { code?: string }): void => {
        done();
        this.worker = undefined;
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ParseError(
                'RESOURCE_LIMIT',
                `The document needs more than the ${PARSE_HEAP_MB} MB of memory one parse may use.`,
              )
            : toParseError(err),
        );
      };
      const onExit = (code: number): void => {
        done();
        this.worker = undefined;
        reject(new ParseError('UNKNOWN_ERROR', `The parse ended without a result (thread exit code ${code}).`));
      };
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage({ ...job, id } satisfies ParseJob);
    });
  }
}

function version(): string {
  const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function usageError(message: string): never {
  process.stderr.write(`docmill: ${message}\nRun docmill --help for usage.\n`);
  process.exit(2);
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** DIR/<name>.<ext>, never overwriting another input's output of the same run. */
function outputPath(dir: string, input: string, ext: string, taken: Set<string>): string {
  const base = input === '-' ? 'stdin' : path.basename(input);
  let out = path.join(dir, `${base}.${ext}`);
  for (let i = 2; taken.has(out); i++) out = path.join(dir, `${base}-${i}.${ext}`);
  taken.add(out);
  return out;
}

/**
 * The first input looks like a PDF by the rule of src/detect/detect.ts ("%PDF-" within the first
 * kilobyte) and PDF parsing is on. Only a hint to start the PDF text thread early; the parse decides.
 */
function firstInputIsPdf(run: CliRun): boolean {
  const file = run.files[0];
  if (file === undefined || file === '-') return false;
  const parsers = run.options.parsers;
  if (Array.isArray(parsers) && parsers.length === 0) return false;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(1024);
    const n = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, n).includes('%PDF-', 0, 'latin1');
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

async function convert(run: CliRun): Promise<number> {
  // Options are checked before any file is read: a bad value is a usage error, whatever the file.
  const thread = new ParseThread(firstInputIsPdf(run));
  try {
    await thread.check(run.options);
  } catch (err) {
    const e = toParseError(err);
    if (run.json)
      process.stdout.write(`${JSON.stringify({ success: false, code: e.code, error: e.message }, null, 2)}\n`);
    usageError(`${e.code}: ${e.message}`);
  }
  if (run.outDir !== undefined) {
    try {
      mkdirSync(run.outDir, { recursive: true });
    } catch (err) {
      usageError(`-o: cannot create ${run.outDir}: ${(err as Error).message}`);
    }
  }
  const line = new ProgressLine(process.stderr, !run.quiet && process.stderr.isTTY === true);
  const taken = new Set<string>();
  let status = 0;
  for (const file of run.files) {
    let bytes: Buffer;
    try {
      bytes = file === '-' ? await readStdin() : await readFile(file);
    } catch (err) {
      process.stderr.write(`docmill: ${file}: cannot read: ${(err as Error).message}\n`);
      status = Math.max(status, run.files.length > 1 ? 1 : 2);
      continue;
    }
    const name = file === '-' ? (run.stdinName ?? 'stdin') : path.basename(file);
    let data: ParseDocument;
    try {
      data = await thread.parse(
        { bytes, options: run.options, filename: name, noTimeout: run.timeoutMs === undefined },
        run.timeoutMs,
        (p) => line.show(name, p),
      );
    } catch (err) {
      line.clear();
      const e = err instanceof ParseError ? err : toParseError(err);
      if (run.json && run.outDir === undefined)
        process.stdout.write(`${JSON.stringify({ success: false, code: e.code, error: e.message }, null, 2)}\n`);
      process.stderr.write(`docmill: ${run.files.length > 1 ? `${file}: ` : ''}${e.code}: ${e.message}\n`);
      status = Math.max(status, 1);
      continue;
    }
    line.clear();
    const out = render(data, run);
    if (run.outDir !== undefined) writeFileSync(outputPath(run.outDir, file, out.ext, taken), out.text);
    else process.stdout.write(out.text);
    const prefix = run.files.length > 1 ? `${file}: ` : '';
    if (!run.quiet) {
      for (const note of out.notes) process.stderr.write(`docmill: ${prefix}${note}\n`);
      if (data.warning) process.stderr.write(`docmill: ${prefix}warning: ${data.warning}\n`);
    }
    const incomplete = incompleteReason(data);
    if (incomplete) {
      process.stderr.write(`docmill: ${prefix}incomplete: ${incomplete}\n`);
      status = Math.max(status, EXIT_INCOMPLETE);
    }
  }
  return status;
}

export async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'serve') {
    const { serve } = await import('../server/serve.js');
    await serve(argv.slice(1));
    return;
  }
  let run;
  try {
    run = parseCliArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) usageError(err.message);
    throw err;
  }
  if (run === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (run === 'version') {
    process.stdout.write(`docmill ${version()}\n`);
    return;
  }
  const status = await convert(run);
  // Ends the parse thread and its pools with the process: nothing left running may hold it open.
  process.stdout.write('', () => process.exit(status));
}
