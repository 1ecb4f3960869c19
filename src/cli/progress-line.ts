/**
 * Progress on standard error while a document is converted, for a person watching a terminal: one line
 * rewritten in place ("report.pdf: page 120 of 1164"). Silent when standard error is not a terminal
 * (a pipe, a log file) or with --quiet.
 */
import type { ParseProgress } from '../progress.js';

const EVERY_MS = 100;

export class ProgressLine {
  private last = 0;
  private shown = false;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly enabled: boolean,
  ) {}

  show(name: string, p: ParseProgress): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < EVERY_MS && p.phase !== 'done') return;
    this.last = now;
    const pages = p.pagesTotal ? `page ${p.pagesDone} of ${p.pagesTotal}` : p.phase === 'read' ? 'reading' : '';
    const ocr = p.ocrPages ? `, ${p.ocrPages} page${p.ocrPages > 1 ? 's' : ''} to OCR` : '';
    const phase = p.phase === 'read' ? '' : ` (${p.phase})`;
    this.stream.write(`\r\x1b[K${name}: ${pages}${ocr}${phase}`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
