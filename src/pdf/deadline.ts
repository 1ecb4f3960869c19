/**
 * How the PDF reader shares out the parse's time. Each phase (text extraction, then OCR) stops short
 * of the parse's deadline by `deadlineMargin`, keeping that long for the rest of the parse (document
 * passes, serialising, redaction), so that what was read by then still comes back within `timeout`
 * instead of being thrown away with a TIMEOUT error.
 */

/** Time kept back from the deadline: a tenth of the timeout, at least 250 ms and at most 2 s. */
export function deadlineMargin(timeoutMs: number): number {
  return Math.min(2000, Math.max(250, timeoutMs * 0.1));
}

/**
 * Longest one page may take to read (its drawing operators and text) before the rest of it is cut and
 * the page comes back `partial`: a third of the timeout, between 3 and 20 s. Real pages take well
 * under a second (a dense map a few); without a limit a single pathological page would use the whole
 * timeout and leave every page after it unread.
 */
export function pageTimeLimit(timeoutMs: number): number {
  return Math.min(20_000, Math.max(3000, timeoutMs / 3));
}
