/**
 * Page rendering for OCR: pdf.js paints the page onto an @napi-rs/canvas surface (the canvas factory
 * pdf.js picks in Node) at a resolution tesseract reads well, and hands back raw RGBA pixels.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { applyEdits, costlyImageEdits, PdfObjects } from './pdf-seam.js';
import { drawScanImage, findScanImage, placement } from './scan-image.js';

const require = createRequire(import.meta.url);

export interface RenderOptions {
  /**
   * Resolution, or 'auto': a full-page scan of 190 dpi or more is rendered at its own resolution (up to
   * 400), since resampling a JPEG scan only blurs its artefacts; anything else at 300 dpi, which gives
   * tesseract an x-height of 20-30 px on body text (bench/README.md, "OCR", has the measurements).
   */
  dpi: number | 'auto';
  /** Upper bound of width × height, so a poster-sized page cannot exhaust memory. */
  maxPixels: number;
}

export const DEFAULT_RENDER: RenderOptions = { dpi: 'auto', maxPixels: 12_000_000 };

type PdfPage = Awaited<ReturnType<PDFDocumentProxy['getPage']>>;

/**
 * Resolution of the scan that fills the page, when the page is essentially one image whose shape is
 * the page's; null otherwise.
 */
async function scanDpi(page: PdfPage): Promise<number | null> {
  const pdfjs = await loadPdfjs();
  const ops = await page.getOperatorList();
  const vp = page.getViewport({ scale: 1 });
  let best: { w: number; h: number } | null = null;
  let count = 0;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    let w = 0;
    let h = 0;
    if (fn === pdfjs.OPS.paintImageXObject) {
      const a = ops.argsArray[i] as [unknown, number, number];
      w = a[1];
      h = a[2];
    } else if (fn === pdfjs.OPS.paintInlineImageXObject) {
      const img = (ops.argsArray[i] as [{ width: number; height: number }])[0];
      w = img.width;
      h = img.height;
    } else continue;
    count++;
    if (!best || w * h > best.w * best.h) best = { w, h };
  }
  if (!best || count > 3) return null;
  // Allow for rotation: compare shapes with the long side first.
  const [iw, ih] = best.w >= best.h ? [best.w, best.h] : [best.h, best.w];
  const [pw, ph] = vp.width >= vp.height ? [vp.width, vp.height] : [vp.height, vp.width];
  if (Math.abs(iw / ih - pw / ph) > 0.05 * (pw / ph)) return null;
  return (iw / pw) * 72;
}

/** The resolution a page is rendered at for OCR. */
async function chooseDpi(page: PdfPage, dpi: RenderOptions['dpi']): Promise<number> {
  if (dpi !== 'auto') return dpi;
  const native = await scanDpi(page).catch(() => null);
  if (native !== null && native >= 190) return Math.min(400, native);
  return 300;
}

export interface RenderedPage {
  /** RGBA, 4 bytes per pixel, row-major. */
  rgba: Buffer;
  width: number;
  height: number;
  /** Pixels per PDF point. */
  scale: number;
  /** Upright page size in points. */
  pageWidth: number;
  pageHeight: number;
  rotation: number;
}

let pdfjsPromise: Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | null = null;

export function loadPdfjs(): Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
}

function pdfjsDir(): string {
  return path.dirname(require.resolve('pdfjs-dist/package.json'));
}

/**
 * A decoded image lives outside the worker's heap limit: a 20000×20000 bomb would take gigabytes.
 * Images past 64 megapixels (far above a 600 dpi A4 scan) are left out of the render, and so are what
 * an image declares beyond its own size past the same bound: a mask (the image is drawn unmasked) or
 * the frame of its JPEG data (the image is left out), which pdf.js would decode whole (image-gate.ts).
 * The images of one page have a budget too (RENDER_PAGE_IMAGE_PIXELS).
 */
export const MAX_RENDER_IMAGE_PIXELS = 64 * 1024 * 1024;
/**
 * The images one page draws in the render come to at most 24 megapixels, a black-and-white image's
 * counted at a third (image-gate.ts leaves out the costliest past it): pdf.js keeps the decoded bytes
 * of every image of the page and paints each through a canvas of its full size, which measured 16-18
 * bytes a pixel of the OCR thread's memory (a 31-megapixel RGB picture on a page took the run from
 * 480 MB to 980 MB, a 62-megapixel one to 1.6 GB, three of 24 megapixels to 1.46 GB), and 6.5 bytes
 * a pixel for a 1-bit one (a 600 dpi A4 page, 35 megapixels: 710 MB). A page that is one scan is decoded
 * natively at the render's size instead (scan-image.ts), whatever its size, and a black-and-white scan
 * of up to 64 megapixels fits the budget.
 */
export const RENDER_PAGE_IMAGE_PIXELS = 24 * 1024 * 1024;

/** Opens a document for rendering; fonts, CMaps and image decoders come from the pdfjs-dist package. */
export async function openForRender(
  bytes: Uint8Array,
  objects: PdfObjects = new PdfObjects(bytes),
): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfjs();
  const dir = pdfjsDir();
  const edits = costlyImageEdits(objects, MAX_RENDER_IMAGE_PIXELS, RENDER_PAGE_IMAGE_PIXELS);
  const task = pdfjs.getDocument({
    // pdf.js detaches the buffer it is given (a view over shared memory must be copied anyway).
    data: applyEdits(bytes, edits),
    standardFontDataUrl: path.join(dir, 'standard_fonts') + path.sep,
    cMapUrl: path.join(dir, 'cmaps') + path.sep,
    cMapPacked: true,
    wasmUrl: path.join(dir, 'wasm') + path.sep,
    iccUrl: path.join(dir, 'iccs') + path.sep,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
    maxImageSize: MAX_RENDER_IMAGE_PIXELS,
  });
  return task.promise;
}

export async function renderPage(
  doc: PDFDocumentProxy,
  pageNumber: number,
  opts: RenderOptions = DEFAULT_RENDER,
): Promise<RenderedPage> {
  const page = await doc.getPage(pageNumber);
  try {
    const base = page.getViewport({ scale: 1 });
    let scale = (await chooseDpi(page, opts.dpi)) / 72;
    const pixels = base.width * base.height * scale * scale;
    if (pixels > opts.maxPixels) scale *= Math.sqrt(opts.maxPixels / pixels);
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.ceil(viewport.width));
    const height = Math.max(1, Math.ceil(viewport.height));
    const factory = (
      doc as unknown as { canvasFactory: { create(w: number, h: number): { canvas: unknown; context: unknown } } }
    ).canvasFactory;
    const { canvas, context } = factory.create(width, height);
    const ctx2d = context as {
      fillStyle: string;
      fillRect(x: number, y: number, w: number, h: number): void;
      getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
    };
    ctx2d.fillStyle = '#ffffff';
    ctx2d.fillRect(0, 0, width, height);
    await page.render({ canvasContext: context as never, canvas: canvas as never, viewport }).promise;
    const data = ctx2d.getImageData(0, 0, width, height).data;
    const rgba = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    (canvas as { width: number; height: number }).width = 0;
    (canvas as { width: number; height: number }).height = 0;
    return { rgba, width, height, scale, pageWidth: base.width, pageHeight: base.height, rotation: base.rotation };
  } finally {
    page.cleanup();
  }
}

export interface OcrImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 4;
  /** Pixels per PDF point. */
  scale: number;
  pageWidth: number;
  pageHeight: number;
  rotation: number;
  /** 'scan': the page's one image decoded natively (scan-image.ts); 'render': painted by pdf.js. */
  via: 'scan' | 'render';
}

/**
 * The page's pixels for OCR. A page that is one full-page scan is decoded natively to grey at the size
 * the render would have (same resolution rule as `chooseDpi`, same pixel cap); any other page, or any
 * doubt about the scan, goes through the pdf.js render.
 */
export async function pageImageForOcr(
  doc: PDFDocumentProxy,
  objs: PdfObjects | null,
  pageNumber: number,
  opts: RenderOptions = DEFAULT_RENDER,
): Promise<OcrImage> {
  if (objs) {
    const page = await doc.getPage(pageNumber);
    try {
      const base = page.getViewport({ scale: 1 });
      const ref = page.ref;
      const img = ref ? findScanImage(objs, ref, page.view, page.rotate) : null;
      const where = img ? placement(img, base.transform, base.width, base.height) : null;
      if (img && where) {
        let scale = (opts.dpi !== 'auto' ? opts.dpi : where.dpi >= 190 ? Math.min(400, where.dpi) : 300) / 72;
        const pixels = base.width * base.height * scale * scale;
        if (pixels > opts.maxPixels) scale *= Math.sqrt(opts.maxPixels / pixels);
        const viewport = page.getViewport({ scale });
        const width = Math.max(1, Math.ceil(viewport.width));
        const height = Math.max(1, Math.ceil(viewport.height));
        const data = await drawScanImage(img, viewport.transform, width, height).catch(() => null);
        if (data)
          return {
            data,
            width,
            height,
            channels: 1,
            scale,
            pageWidth: base.width,
            pageHeight: base.height,
            rotation: base.rotation,
            via: 'scan',
          };
      }
    } finally {
      page.cleanup();
    }
  }
  const r = await renderPage(doc, pageNumber, opts);
  return {
    data: r.rgba,
    width: r.width,
    height: r.height,
    channels: 4,
    scale: r.scale,
    pageWidth: r.pageWidth,
    pageHeight: r.pageHeight,
    rotation: r.rotation,
    via: 'render',
  };
}
