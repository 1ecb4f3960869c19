/**
 * The pipeline: bytes → detect → reader → document model → serialize → formats → redact → response.
 */
import { detectFormat } from './detect/detect.js';
import { ParseError, toParseError } from './errors.js';
import { assemble } from './assemble.js';
import { normalizeOptions, type ParseOptions } from './options/schema.js';
import { ProgressTracker, type ProgressListener } from './progress.js';
import type { ReaderContext } from './readers/reader.js';
import { OFF_THREAD_KINDS, readOffThread } from './readers/off-thread.js';
import { readerFor } from './readers/registry.js';
import { redactDocument } from './redact/apply.js';
import { ParserRuntime, type ParserConfig } from './runtime/runtime.js';
import type { ParseDocument } from './types.js';

export type ParseInput = Uint8Array | ArrayBuffer | Buffer;

export interface FileInfo {
  /** The file's name; its extension is a hint where content cannot tell the type (CSV). */
  filename?: string;
  /** The declared MIME type; a hint like the extension. */
  contentType?: string;
  /** Aborts the parse; the promise rejects with ParseError `ABORTED`. */
  signal?: AbortSignal;
  /**
   * Called as the parse advances: phase, pages read and to read, pages sent to OCR (see ParseProgress).
   * Called on the calling thread; an exception it throws is ignored.
   */
  onProgress?: ProgressListener;
  /**
   * Runs without the `options.timeout` deadline (a local conversion that may take as long as it takes,
   * as the command line does unless given --timeout). The signal still stops the parse.
   */
  noTimeout?: boolean;
}

export interface Parser {
  parseFile(input: ParseInput, options?: ParseOptions, file?: FileInfo): Promise<ParseDocument>;
  /** Stops the parser's worker pools. Parses still running reject with `CLOSED`. */
  close(): Promise<void>;
}

/** The most bytes one parse accepts, as the service's per-request limit. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

function toBytes(input: unknown): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer) return new Uint8Array(input);
  throw new ParseError('BAD_REQUEST', 'input: expected the file bytes as a Uint8Array, Buffer or ArrayBuffer.', {
    details: { field: 'input' },
  });
}

export function createParser(config: ParserConfig = {}): Parser {
  return parserOn(new ParserRuntime(config));
}

/** A parser over a runtime the caller made (and may already have started pools on); not public API. */
export function parserOn(runtime: ParserRuntime): Parser {
  return {
    parseFile: (input, options, file) => runParse(runtime, input, options, file),
    close: () => runtime.close(),
  };
}

/** Settles with the reader's result, or rejects as soon as the signal fires. */
function raceSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The reader's own rejection (it sees the same signal) must not go unhandled.
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function timeoutError(timeout: number): ParseError {
  return new ParseError('TIMEOUT', `The parse did not finish within options.timeout (${timeout} ms).`);
}

/** Throws the parse's TIMEOUT or ABORTED when its signal fired or its deadline passed. */
function checkStop(signal: AbortSignal, deadline: number, timeout: number): void {
  if (signal.aborted)
    throw signal.reason instanceof ParseError ? signal.reason : new ParseError('ABORTED', 'The parse was aborted.');
  if (Date.now() > deadline) throw timeoutError(timeout);
}

async function runParse(
  runtime: ParserRuntime,
  input: ParseInput,
  rawOptions: ParseOptions | undefined,
  file: FileInfo = {},
): Promise<ParseDocument> {
  if (runtime.isClosed) throw new ParseError('CLOSED', 'The parser is closed.');
  const bytes = toBytes(input);
  const options = normalizeOptions(rawOptions);
  if (bytes.byteLength > MAX_FILE_BYTES) {
    throw new ParseError(
      'RESOURCE_LIMIT',
      `The file is ${bytes.byteLength} bytes; the limit is ${MAX_FILE_BYTES} bytes (50 MB).`,
    );
  }
  const detection = detectFormat(bytes, { filename: file.filename, contentType: file.contentType });
  if (detection.kind === 'pdf' && options.pdf === null) {
    throw new ParseError(
      'UNSUPPORTED_FILE_TYPE',
      'The file is a PDF and PDF parsing is turned off (options.parsers is an empty list).',
    );
  }

  const timeout = new AbortController();
  const timer = file.noTimeout
    ? undefined
    : setTimeout(() => {
        timeout.abort(timeoutError(options.timeout));
      }, options.timeout);
  timer?.unref?.();
  const signals = [timeout.signal];
  if (file.signal) signals.push(file.signal);
  const signal = AbortSignal.any(signals);

  try {
    if (file.signal?.aborted) throw new ParseError('ABORTED', 'The parse was aborted.');
    const progress = new ProgressTracker(file.onProgress);
    progress.update({ phase: 'read' });
    const ctx: ReaderContext = {
      bytes,
      kind: detection.kind,
      contentType: detection.contentType,
      filename: file.filename,
      options,
      signal,
      deadline: file.noTimeout ? Infinity : Date.now() + options.timeout,
      runtime,
      ...(file.onProgress ? { progress: progress.update } : {}),
    };
    // Between stages: work that ran past the deadline (or past an abort the event loop could not yet
    // deliver) ends the parse here instead of resolving late. The PDF reader keeps its own time: it
    // stops short of the deadline and returns what it read, which is not thrown away afterwards.
    const deadline = detection.kind === 'pdf' ? Infinity : ctx.deadline;
    let result: ParseDocument;
    if (OFF_THREAD_KINDS.has(detection.kind)) {
      // Read and assembled on the reader worker (src/readers/off-thread.ts).
      result = await raceSignal(readOffThread(ctx), signal);
    } else {
      const doc = await raceSignal((await readerFor(detection.kind))(ctx), signal);
      checkStop(signal, deadline, options.timeout);
      progress.update({ phase: 'assemble' });
      result = assemble(doc, options, file.filename);
    }
    checkStop(signal, deadline, options.timeout);
    const pages = result.metadata.numPages;
    if (typeof pages === 'number') progress.update({ pagesDone: pages, pagesTotal: pages });
    if (options.redactPII) progress.update({ phase: 'redact' });
    const out = options.redactPII
      ? await redactDocument(result, options.redactPII, { deadline: ctx.deadline })
      : result;
    checkStop(signal, deadline, options.timeout);
    progress.update({ phase: 'done' });
    return out;
  } catch (err) {
    if (err instanceof ParseError) throw err;
    if (signal.aborted) {
      if (timeout.signal.aborted) throw timeout.signal.reason as ParseError;
      throw new ParseError('ABORTED', 'The parse was aborted.', { cause: err });
    }
    throw toParseError(err);
  } finally {
    clearTimeout(timer);
  }
}
