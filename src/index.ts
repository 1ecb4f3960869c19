/**
 * docmill: documents to markdown.
 *
 * ```ts
 * import { parseFile } from 'docmill';
 * const doc = await parseFile(bytes, { parsers: [{ type: 'pdf', blocks: true }] }, { filename: 'report.pdf' });
 * console.log(doc.markdown);
 * ```
 */
import { createParser, type FileInfo, type ParseInput, type Parser } from './parser.js';
import type { ParseOptions } from './options/schema.js';
import type { ParseDocument } from './types.js';

export { createParser, MAX_FILE_BYTES } from './parser.js';
export type { FileInfo, ParseInput, Parser } from './parser.js';
export type { ParserConfig } from './runtime/runtime.js';
export type { ParsePhase, ParseProgress, ProgressListener } from './progress.js';
export { ParseError, httpStatusOf } from './errors.js';
export type { ParseErrorCode, ParseErrorDetails } from './errors.js';
export { normalizeOptions, PII_ENTITIES } from './options/schema.js';
export type {
  ParseOptions,
  NormalizedOptions,
  FormatRequest,
  ParseFormat,
  PdfMode,
  PdfOptions,
  PiiEntity,
  RedactMode,
  RedactOptions,
  ReplaceStyle,
} from './options/schema.js';
export { SUPPORTED_EXTENSIONS, detectFormat } from './detect/detect.js';
export type { FileKind, Detection } from './detect/detect.js';
export type * from './types.js';

let shared: Parser | undefined;

/**
 * Converts one file with a parser shared by the whole process, created on first use. Its worker
 * threads are unreferenced when idle, so it never keeps the process alive.
 */
export function parseFile(input: ParseInput, options?: ParseOptions, file?: FileInfo): Promise<ParseDocument> {
  shared ??= createParser();
  return shared.parseFile(input, options, file);
}
