/**
 * OCR pool thread: receives one page to recognise and hands it to src/ocr/page-reader.ts, which keeps
 * this thread's engine and open document between tasks (the pipeline is src/ocr/recognise-page.ts).
 */
import { fileURLToPath } from 'node:url';
import { installNetworkGuard } from '../src/ocr/offline.js';
import { ocrPageReader } from '../src/ocr/page-reader.js';

installNetworkGuard();

export default ocrPageReader(fileURLToPath(new URL('./ocr-tesseract.js', import.meta.url)));
