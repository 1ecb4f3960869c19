/**
 * The docmill command's parse thread: one parser for the whole run (its pools reused from file to file),
 * jobs by message. Started by src/cli/command.ts; only this thread loads the library.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toParseError, type ParseErrorCode } from '../errors.js';
import { normalizeOptions, type ParseOptions } from '../options/schema.js';
import { createParser } from '../parser.js';
import type { ParseProgress } from '../progress.js';
import type { ParseDocument } from '../types.js';

export interface ParseJob {
  id: number;
  bytes: Uint8Array;
  options: ParseOptions;
  filename: string;
  /** No deadline: the CLI without --timeout. */
  noTimeout: boolean;
  /** Only check the options (normalizeOptions); the reply's data is null. */
  checkOnly?: boolean;
}

export type ThreadMessage =
  | { id: number; ok: true; data: ParseDocument | null }
  | { id: number; ok: false; code: ParseErrorCode; message: string }
  | { id: number; progress: ParseProgress };

/** The parse thread: one parser for the whole run (its pools reused from file to file), jobs by message. */
function parseThread(): void {
  const parser = createParser();
  parentPort!.on('message', (job: ParseJob | 'close') => {
    if (job === 'close') {
      void parser.close().then(() => parentPort!.close());
      return;
    }
    if (job.checkOnly) {
      try {
        normalizeOptions(job.options);
        parentPort!.postMessage({ id: job.id, ok: true, data: null } satisfies ThreadMessage);
      } catch (err) {
        const e = toParseError(err);
        parentPort!.postMessage({ id: job.id, ok: false, code: e.code, message: e.message } satisfies ThreadMessage);
      }
      return;
    }
    parser
      .parseFile(job.bytes, job.options, {
        filename: job.filename,
        noTimeout: job.noTimeout,
        onProgress: (progress) => parentPort!.postMessage({ id: job.id, progress } satisfies ThreadMessage),
      })
      .then(
        (data) => parentPort!.postMessage({ id: job.id, ok: true, data } satisfies ThreadMessage),
        (err: unknown) => {
          const e = toParseError(err);
          parentPort!.postMessage({ id: job.id, ok: false, code: e.code, message: e.message } satisfies ThreadMessage);
        },
      );
  });
}

if (parentPort && (workerData as { docmillCliParse?: boolean } | null)?.docmillCliParse) parseThread();
