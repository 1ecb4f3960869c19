/**
 * Reading a document of a format whose reader is synchronous at heart (HTML, CSV, Word, OpenDocument,
 * RTF, EPUB, presentations, spreadsheets) as one task of the reader pool (workers/reader.ts). There the
 * caller's timeout and AbortSignal settle the parse on time whatever the reader is doing, and aborting
 * the task ends the thread, so a reader that cannot be stopped holds nobody (src/readers/off-thread.ts).
 */
import { assemble } from '../assemble.js';
import type { FileKind } from '../detect/detect.js';
import { ParseError } from '../errors.js';
import { convertHtml } from '../html/convert.js';
import type { DocModel } from '../model/document.js';
import { convertWorkbook } from '../office/workbooks/reader.js';
import type { ReaderContext } from './reader.js';
import { readerFor } from './registry.js';
import { ParserRuntime } from '../runtime/runtime.js';
import type { ReadTask, ReadTaskResult } from './protocol.js';

const WORKBOOK_KINDS: ReadonlySet<FileKind> = new Set(['xlsx', 'xlsm', 'xlsb', 'xls', 'ods']);

/** Readers here never start pools of their own: this thread is the one that may be ended. */
const runtime = new ParserRuntime({ textThreads: 1, ocrThreads: 1 });

async function read(task: ReadTask): Promise<DocModel> {
  if (task.kind === 'html')
    return convertHtml(
      task.bytes,
      { filename: task.filename, contentType: task.contentType },
      {
        onlyMainContent: task.options.onlyMainContent,
        includeTags: task.options.includeTags,
        excludeTags: task.options.excludeTags,
        removeBase64Images: task.options.removeBase64Images,
      },
    );
  if (WORKBOOK_KINDS.has(task.kind))
    return convertWorkbook({ bytes: task.bytes, kind: task.kind, contentType: task.contentType });
  const ctx: ReaderContext = {
    bytes: task.bytes,
    kind: task.kind,
    contentType: task.contentType,
    filename: task.filename,
    options: task.options,
    // Never fires: the caller ends this thread instead.
    signal: new AbortController().signal,
    deadline: task.deadline,
    runtime,
  };
  return (await readerFor(task.kind))(ctx);
}

export async function runReadTask(task: ReadTask): Promise<ReadTaskResult> {
  try {
    return { ok: true, doc: assemble(await read(task), task.options, task.filename) };
  } catch (err) {
    // Errors cross the thread boundary as data; the caller rebuilds the ParseError.
    if (err instanceof ParseError)
      return { ok: false, code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
    return { ok: false, code: 'UNKNOWN_ERROR', message: err instanceof Error ? err.message : String(err) };
  }
}
