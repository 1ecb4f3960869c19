/**
 * Workbook worker: converts one large spreadsheet off the main thread, so that a big or damaged
 * workbook neither blocks the event loop nor outlives its timeout (aborting the task ends the thread),
 * and a memory blow-up ends this thread under its resource limit, not the process.
 */
import { ParseError } from '../src/errors.js';
import type { DocModel } from '../src/model/document.js';
import { convertWorkbook } from '../src/office/workbooks/reader.js';
import type { WorkbookTask, WorkbookTaskResult } from '../src/office/workbooks/protocol.js';

export default function convert(task: WorkbookTask): WorkbookTaskResult {
  try {
    const doc: DocModel = convertWorkbook(task);
    return { ok: true, json: JSON.stringify(doc) };
  } catch (err) {
    // Errors cross the thread boundary as data; the reader rebuilds the ParseError.
    if (err instanceof ParseError) return { ok: false, code: err.code, message: err.message };
    return { ok: false, code: 'UNKNOWN_ERROR', message: err instanceof Error ? err.message : String(err) };
  }
}
