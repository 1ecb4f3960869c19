/**
 * Page images of the generated OCR fixtures, and PDFs made here around a changed copy of one: for
 * tests of what preprocessing does with a kind of damage the fixtures do not carry. `typesetScan`
 * makes a scan of a page typeset in the test, for layouts the fixtures do not show.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { REPO_ROOT } from './corpus.js';
import { openForRender, pageImageForOcr, renderPage } from '../src/ocr/render.js';
import { PdfObjects } from '../src/pdf/pdf-objects.js';

export const OCR_FIXTURES = path.join(REPO_ROOT, 'fixtures', 'ocr');

export interface GreyPage {
  data: Buffer;
  width: number;
  height: number;
}

/** The grey page image docmill reads for page `n` of a file in fixtures/ocr (each is one grey JPEG). */
export async function fixturePageGrey(file: string, n: number): Promise<GreyPage> {
  const bytes = new Uint8Array(readFileSync(path.join(OCR_FIXTURES, file)));
  const doc = await openForRender(bytes);
  try {
    const im = await pageImageForOcr(doc, new PdfObjects(bytes), n);
    if (im.channels !== 1) throw new Error(`${file} p${n} is not one grey image`);
    return { data: im.data, width: im.width, height: im.height };
  } finally {
    await doc.loadingTask.destroy();
  }
}

/** The true text of page `n` of a fixture (its truth file). */
export function fixtureTruth(name: string, n: number): string {
  const truth = JSON.parse(readFileSync(path.join(OCR_FIXTURES, `${name}.truth.json`), 'utf8')) as {
    page: number;
    text: string;
  }[];
  return truth.find((t) => t.page === n)!.text;
}

/** A one-page PDF showing a grey image as a JPEG scan at `dpi`. */
export async function scanPdf(page: GreyPage, dpi = 200, quality = 85): Promise<Buffer> {
  const jpeg = await sharp(page.data, { raw: { width: page.width, height: page.height, channels: 1 } })
    .jpeg({ quality })
    .toBuffer();
  const doc = await PDFDocument.create();
  const p = doc.addPage([(page.width * 72) / dpi, (page.height * 72) / dpi]);
  p.drawImage(await doc.embedJpg(jpeg), { x: 0, y: 0, width: p.getWidth(), height: p.getHeight() });
  return Buffer.from(await doc.save());
}

export interface ScanDamage {
  /** Resolution of the scan (default 200). */
  dpi?: number;
  /** Degrees the sheet lay tilted on the glass (default 0.6). */
  angle?: number;
  /** Gaussian blur sigma (default 0.6). */
  blur?: number;
  /** JPEG quality (default 60). */
  quality?: number;
  /** Seed of the sensor noise, so a test's scan is the same on every run (default 1). */
  seed?: number;
}

/**
 * A letter page typeset by `draw` (pdf-lib, standard fonts), rendered with pdf.js at the scan's
 * resolution and scanned as fixtures/ocr/make.mjs scans: tilted, blurred, grey sensor noise with rare
 * dark specks, a grey paper cast, a grey JPEG on a page of the same size with no text layer.
 */
export async function typesetScan(
  draw: (page: PDFPage, fonts: { regular: PDFFont; bold: PDFFont }) => void,
  damage: ScanDamage = {},
): Promise<Buffer> {
  const { dpi = 200, angle = 0.6, blur = 0.6, quality = 60 } = damage;
  const src = await PDFDocument.create();
  const page = src.addPage([612, 792]);
  draw(page, {
    regular: await src.embedFont(StandardFonts.Helvetica),
    bold: await src.embedFont(StandardFonts.HelveticaBold),
  });
  const doc = await openForRender(new Uint8Array(await src.save()));
  let rendered;
  try {
    rendered = await renderPage(doc, 1, { dpi, maxPixels: 40e6 });
  } finally {
    await doc.loadingTask.destroy();
  }
  const { width, height } = rendered;
  const tilted = await sharp(rendered.rgba, { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .grayscale()
    .rotate(angle, { background: '#ffffff' })
    .blur(blur)
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  let seed = damage.seed ?? 1;
  const rand = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 0x100000000;
  };
  const px = tilted.data;
  for (let i = 0; i < px.length; i++) {
    let v = px[i]! + (rand() + rand() + rand() - 1.5) * 40;
    if (rand() < 0.0015) v = 40 + rand() * 60;
    px[i] = Math.max(0, Math.min(255, Math.round(v * 0.92 + 8)));
  }
  const left = Math.floor((tilted.info.width - width) / 2);
  const top = Math.floor((tilted.info.height - height) / 2);
  const data = await sharp(px, { raw: { width: tilted.info.width, height: tilted.info.height, channels: 1 } })
    .extract({ left, top, width, height })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return scanPdf({ data, width, height }, dpi, quality);
}
