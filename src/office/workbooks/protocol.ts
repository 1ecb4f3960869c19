/**
 * What crosses the thread boundary between the workbook reader (src/office/workbooks/reader.ts) and its
 * worker (workers/workbook.ts): one workbook to convert, and its model (as JSON text) or its error.
 */
import type { FileKind } from '../../detect/detect.js';
import type { ParseErrorCode } from '../../errors.js';

export interface WorkbookTask {
  bytes: Uint8Array;
  kind: FileKind;
  contentType: string;
}

/**
 * The document comes back as JSON text: one flat string crosses the thread boundary several times
 * faster than a structured clone of a model with a million small objects.
 */
export type WorkbookTaskResult = { ok: true; json: string } | { ok: false; code: ParseErrorCode; message: string };
