/**
 * HTML worker: converts one large HTML document off the main thread, so that a page of tens of
 * megabytes neither blocks the event loop (the HTTP service keeps answering) nor outlives its
 * timeout (aborting the task ends the thread).
 */
import { ParseError } from '../src/errors.js';
import { convertHtml } from '../src/html/convert.js';
import type { HtmlTask, HtmlTaskResult } from '../src/html/protocol.js';

export default function convert(task: HtmlTask): HtmlTaskResult {
  try {
    return { ok: true, doc: convertHtml(task.bytes, task.source, task.options) };
  } catch (err) {
    // Errors cross the thread boundary as data; the reader rebuilds the ParseError.
    if (err instanceof ParseError)
      return { ok: false, code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
    return { ok: false, code: 'UNKNOWN_ERROR', message: err instanceof Error ? err.message : String(err) };
  }
}
