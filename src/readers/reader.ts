import type { FileKind } from '../detect/detect.js';
import type { DocModel } from '../model/document.js';
import type { NormalizedOptions } from '../options/schema.js';
import type { ProgressUpdate } from '../progress.js';
import type { ParserRuntime } from '../runtime/runtime.js';

export interface ReaderContext {
  bytes: Uint8Array;
  kind: FileKind;
  contentType: string;
  filename: string | undefined;
  options: NormalizedOptions;
  /** Fires on timeout or when the caller aborts; readers stop their work when it does. */
  signal: AbortSignal;
  /** Epoch milliseconds by which the parse must be done. */
  deadline: number;
  runtime: ParserRuntime;
  /** Reports progress (pages read, pages sent to OCR); absent when nobody listens. */
  progress?: (update: ProgressUpdate) => void;
}

/** A reader turns the bytes of one format family into the document model. */
export type Reader = (ctx: ReaderContext) => Promise<DocModel>;
