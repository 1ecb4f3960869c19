/**
 * The pipeline: bytes → detect → reader → document model → serialize → formats → redact → response.
 */
import { detectFormat } from './detect/detect.js';
import { ParseError, toParseError } from './errors.js';
import { imagesFromMarkdown, linksFromMarkdown } from './formats/derived.js';
import { removeBase64Images } from './formats/base64-images.js';
import { htmlFromDocument } from './formats/document-html.js';
import { extractJson } from './formats/json.js';
import { summarize } from './formats/summary.js';
import { serialize } from './markdown/serialize.js';
import type { DocModel } from './model/document.js';
import { normalizeOptions, wantsFormat, type NormalizedOptions, type ParseOptions } from './options/schema.js';
import type { ReaderContext } from './readers/reader.js';
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
  const runtime = new ParserRuntime(config);
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
  const timer = setTimeout(() => {
    timeout.abort(
      new ParseError('TIMEOUT', `The parse did not finish within options.timeout (${options.timeout} ms).`),
    );
  }, options.timeout);
  timer.unref?.();
  const signals = [timeout.signal];
  if (file.signal) signals.push(file.signal);
  const signal = AbortSignal.any(signals);

  try {
    if (file.signal?.aborted) throw new ParseError('ABORTED', 'The parse was aborted.');
    const ctx: ReaderContext = {
      bytes,
      kind: detection.kind,
      contentType: detection.contentType,
      filename: file.filename,
      options,
      signal,
      deadline: Date.now() + options.timeout,
      runtime,
    };
    const read = await readerFor(detection.kind);
    const doc = await raceSignal(read(ctx), signal);
    const result = assemble(doc, options, file.filename);
    return options.redactPII ? await redactDocument(result, options.redactPII, { deadline: ctx.deadline }) : result;
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

function assemble(doc: DocModel, options: NormalizedOptions, filename: string | undefined): ParseDocument {
  if (options.removeBase64Images) removeBase64Images(doc);
  const serialized = serialize(doc, { onlyMainContent: options.onlyMainContent });
  const warnings = [...doc.warnings];
  const metadata: ParseDocument['metadata'] = { ...doc.metadata };
  if (filename && metadata.sourceURL === undefined) metadata.sourceURL = filename;
  metadata.contentType = doc.contentType;
  const pageErrors = doc.pages.filter((p) => p.error).map((p) => `page ${p.pageNumber}: ${p.error}`);
  if (pageErrors.length) metadata.error = [metadata.error, ...pageErrors].filter(Boolean).join('; ');

  const out: ParseDocument = { metadata };
  const md = serialized.markdown;
  if (wantsFormat(options, 'markdown')) out.markdown = md;
  if (options.pdf?.pages) out.pages = serialized.pages;
  if (options.pdf?.blocks) out.blocks = serialized.layout;
  if (wantsFormat(options, 'summary')) out.summary = summarize(md);
  // Inputs that are not HTML: written from the model, which knows merged table cells.
  const html = (): string => doc.html ?? htmlFromDocument(doc, { onlyMainContent: options.onlyMainContent });
  if (wantsFormat(options, 'html')) out.html = html();
  if (wantsFormat(options, 'rawHtml')) out.rawHtml = doc.rawHtml ?? out.html ?? html();
  if (wantsFormat(options, 'links')) out.links = doc.links ?? linksFromMarkdown(md);
  if (wantsFormat(options, 'images')) out.images = doc.images ?? imagesFromMarkdown(md);
  const jsonFormat = options.formats.find((f) => f.type === 'json');
  if (jsonFormat) {
    const extracted = extractJson(md, jsonFormat.schema);
    out.json = extracted.json;
    if (extracted.warning) warnings.push(extracted.warning);
  }
  if (warnings.length) out.warning = warnings.join('\n');
  return out;
}
