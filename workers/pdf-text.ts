/**
 * Text pool thread: receives a range of pages of one document and reads them with
 * src/pdf/text-task.ts. Loading this module prepares pdf.js for the thread (the built-ins its modern
 * build needs, synchronous inflate, the loopback shortcut, inert font faces) and starts loading it.
 */
import { installInertFontFaces, installLoopbackShortcut, installSyncInflate, preloadPdfjs } from '../src/pdf/pdfjs.js';
import { installPdfjsPolyfills } from '../src/pdf/pdfjs-polyfills.js';
import { readTextTask } from '../src/pdf/text-task.js';

installPdfjsPolyfills();
installSyncInflate();
installLoopbackShortcut();
installInertFontFaces();
preloadPdfjs();

export default readTextTask;
