/** The reader pool's task and result (src/readers/read-task.ts does the work, workers/reader.ts hosts it). */
import type { FileKind } from '../detect/detect.js';
import type { ParseErrorCode, ParseErrorDetails } from '../errors.js';
import type { NormalizedOptions } from '../options/schema.js';
import type { ParseDocument } from '../types.js';

export interface ReadTask {
  bytes: Uint8Array;
  kind: FileKind;
  contentType: string;
  filename: string | undefined;
  options: NormalizedOptions;
  deadline: number;
}

/**
 * The assembled response document comes back, not the model: mostly a few long strings, cheap to pass
 * between threads, where the model of a long table is hundreds of thousands of small objects.
 */
export type ReadTaskResult =
  { ok: true; doc: ParseDocument } | { ok: false; code: ParseErrorCode; message: string; details?: ParseErrorDetails };
