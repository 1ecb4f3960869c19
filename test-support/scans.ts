/**
 * Page images of the generated OCR fixtures, and PDFs made here around a changed copy of one: for
 * tests of what preprocessing does with a kind of damage the fixtures do not carry.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { REPO_ROOT } from './corpus.js';
import { openForRender, pageImageForOcr } from '../src/ocr/render.js';
import { PdfObjects } from '../src/ocr/pdf-objects.js';

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
  const truth = JSON.parse(readFileSync(path.join(OCR_FIXTURES, `${name}.truth.json`), 'utf8')) as { page: number; text: string }[];
  return truth.find((t) => t.page === n)!.text;
}

/** A one-page PDF showing a grey image as a JPEG scan at `dpi`. */
export async function scanPdf(page: GreyPage, dpi = 200, quality = 85): Promise<Buffer> {
  const jpeg = await sharp(page.data, { raw: { width: page.width, height: page.height, channels: 1 } }).jpeg({ quality }).toBuffer();
  const doc = await PDFDocument.create();
  const p = doc.addPage([(page.width * 72) / dpi, (page.height * 72) / dpi]);
  p.drawImage(await doc.embedJpg(jpeg), { x: 0, y: 0, width: p.getWidth(), height: p.getHeight() });
  return Buffer.from(await doc.save());
}
