/**
 * Progress of one parse, for callers that show it (`file.onProgress`). Phases come in order:
 * `read` (the text pass: PDF pages as they are read), `ocr` (pages sent to recognition), `assemble`
 * (markdown and formats), `redact` (only with redactPII), `done`. Counts only grow.
 */
export type ParsePhase = 'read' | 'ocr' | 'assemble' | 'redact' | 'done';

export interface ParseProgress {
  phase: ParsePhase;
  /** Pages read so far (PDF); for other formats 0 until the document is read, then its page count. */
  pagesDone: number;
  /** Pages to read (after maxPages); null until known (PDF: after its first pages) or for formats without pages. */
  pagesTotal: number | null;
  /** Pages sent to OCR so far. */
  ocrPages: number;
}

export type ProgressListener = (progress: ParseProgress) => void;

/** What readers report; merged into the parse's progress. */
export type ProgressUpdate = Partial<ParseProgress>;

/**
 * The parse's progress state and its listener. A listener that throws is not the parse's problem: its
 * error is swallowed so that a display bug cannot fail a conversion.
 */
export class ProgressTracker {
  private state: ParseProgress = { phase: 'read', pagesDone: 0, pagesTotal: null, ocrPages: 0 };

  constructor(private readonly listener: ProgressListener | undefined) {}

  readonly update = (change: ProgressUpdate): void => {
    if (!this.listener) return;
    this.state = { ...this.state, ...change };
    try {
      this.listener({ ...this.state });
    } catch {
      /* the caller's display failed; the parse goes on */
    }
  };
}
