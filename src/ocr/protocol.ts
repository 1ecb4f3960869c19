/**
 * What crosses the thread boundary between the OCR pool (src/ocr/pool.ts) and its worker
 * (workers/ocr-worker.ts): one page to recognise, and its result or its failure as data.
 */
import type { PageLayout } from '../layout/types.js';
import type { OcrPage } from './page.js';
import type { PreprocessOptions } from './preprocess.js';
import type { RenderOptions } from './render.js';

export interface OcrTask {
  /** Identifies the document across the tasks of one parse. */
  docKey: string;
  /** The PDF, usually a view over shared memory (not copied per task). */
  bytes: Uint8Array;
  pageNumber: number;
  render: RenderOptions;
  preprocess: PreprocessOptions;
  languages: string;
  langPath?: string | undefined;
  recycleAfter: number;
  /** Decode a full-page scan image natively (default) instead of rendering the page with pdf.js. */
  nativeScan?: boolean;
  /** Read pages fed upside down or sideways the right way up (default true). */
  orientation?: boolean;
  /** Read a page the configured languages cannot with the installed model of its script (default true). */
  scripts?: boolean;
  /** Read the plain grey render too where the processed reading is doubtful (default false; plain-reading.ts). */
  plainCheck?: boolean;
  /**
   * Where the processed reading is doubtful, read the plain grey render too and let its lines replace the
   * processed words of their area where they read clearly better (default true; plain-regions.ts).
   */
  plainLines?: boolean;
}

export type OcrTaskResult =
  | {
      ok: true;
      pageNumber: number;
      page: OcrPage;
      layout: PageLayout;
      timings: { render: number; preprocess: number; recognize: number };
      readings: number;
      dpi: number;
      via: 'scan' | 'render';
      networkAttempts: number;
      engineGeneration: number;
      /** The languages the page was read with. */
      languages: string;
    }
  | { ok: false; pageNumber: number; error: string; networkAttempts: number };
