/**
 * What crosses the thread boundary between the HTML reader (src/html/reader.ts) and its worker
 * (workers/html.ts): one document to convert, and its model or its error as data.
 */
import type { ParseErrorCode, ParseErrorDetails } from '../errors.js';
import type { HtmlConvertOptions, HtmlSource } from './convert.js';
import type { DocModel } from '../model/document.js';

export interface HtmlTask {
  bytes: Uint8Array;
  source: HtmlSource;
  options: HtmlConvertOptions;
}

export type HtmlTaskResult =
  { ok: true; doc: DocModel } | { ok: false; code: ParseErrorCode; message: string; details?: ParseErrorDetails };
