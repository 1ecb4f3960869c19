/**
 * What OCR takes from the PDF side: the object reader (to find a scan's image and its placement
 * without pdf.js), the matrix arithmetic of content streams, the edits that keep pdf.js from decoding
 * an image past a bound (image-gate.ts), and the page's link annotations (so that
 * words read by OCR keep their links). The only file under src/ocr/ that
 * imports from src/pdf/; src/pdf/ocr-seam.ts is the seam the other way.
 */
export {
  attempt,
  filterNames,
  isOp,
  PdfDict,
  PdfLexer,
  PdfName,
  PdfObjects,
  PdfRef,
  PdfStream,
  type PdfValue,
} from '../pdf/pdf-objects.js';
export { mul, type Matrix } from '../pdf/matrix.js';
export { applyEdits, costlyImageEdits } from '../pdf/image-gate.js';
export { linkAreas, readAnnotations } from '../pdf/links.js';
