/**
 * A scan set that looks like what users scan, made from born-digital pages of the shared corpus (never
 * copied into the repository): each page is rendered by poppler's pdftoppm at 150, 200 and 300 dpi,
 * then scanned as an office scanner would, with a variant drawn from a fixed seed per page and
 * resolution (grey or colour with a paper tint, tilted 0.3-1.5° either way, grey sensor noise, JPEG at
 * quality 70-85) and wrapped as a one-page PDF whose page size declares that resolution. The true text
 * is the born-digital text layer (pdftotext: reading order for prose and columns, `-layout` rows for
 * tables, which is how a markdown table reads). Beside each scan goes the grey image an engine without
 * any processing reads: the scan's own JPEG decoded to grey.
 *
 * Output goes to `.cache/scan-set/` (git-ignored) and is made again only when missing; the same seed
 * gives the same files. A fixed rule (a hash of the page's name) holds out a third of the pages: they are
 * reported apart and never used to tune anything.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { corpusPath, REPO_ROOT } from './corpus.js';
import { seededRandom } from './random.js';

const run = promisify(execFile);

export const SCAN_SET_DIR = path.join(REPO_ROOT, '.cache', 'scan-set');
export const SCAN_SET_SEED = 25;
export const BANDS = [150, 200, 300] as const;

export type PageKind = 'prose' | 'two-column' | 'table';

export interface SourcePage {
  /** Corpus path, folder/file. */
  file: string;
  page: number;
  kind: PageKind;
  /** Who made the PDF (its Producer), so the set can be seen to span several. */
  producer: string;
}

/** Born-digital pages of several producers: prose, two-column and table pages. */
export const SOURCE_PAGES: SourcePage[] = [
  { file: 'unstructured/DA-619p.pdf', page: 30, kind: 'prose', producer: 'OpenOffice 4.1' },
  { file: 'unstructured/copy-protected.pdf', page: 1, kind: 'prose', producer: 'macOS Quartz' },
  { file: 'unstructured/list-item-example.pdf', page: 1, kind: 'prose', producer: 'Google Docs (Skia)' },
  { file: 'unstructured/negative-coords.pdf', page: 1, kind: 'prose', producer: 'PDFium' },
  { file: 'markitdown/test.pdf', page: 1, kind: 'prose', producer: 'pdfTeX' },
  { file: 'unstructured/multi-column.pdf', page: 1, kind: 'two-column', producer: 'pdfTeX' },
  { file: 'unstructured/layout-parser-paper-with-table.pdf', page: 1, kind: 'two-column', producer: 'pdfTeX' },
  {
    file: 'unstructured/invalid-pdf-structure-pdfminer-one-page.pdf',
    page: 1,
    kind: 'two-column',
    producer: 'Adobe PDF Library 17',
  },
  { file: 'camelot/health.pdf', page: 1, kind: 'table', producer: 'Adobe PDF Library 10' },
  { file: 'camelot/medicine.pdf', page: 1, kind: 'table', producer: 'Excel 2010' },
  { file: 'camelot/agstat.pdf', page: 1, kind: 'table', producer: 'Acrobat Distiller 8' },
  { file: 'markitdown/REPAIR-2022-INV-001_multipage.pdf', page: 1, kind: 'table', producer: 'Excel (Microsoft 365)' },
  { file: 'markitdown/movie-theater-booking-2024.pdf', page: 1, kind: 'table', producer: 'ReportLab' },
];

/** Real scans of the corpus: no transcript, judged by the engines' confidence. */
export const REAL_SCANS: { file: string; page: number }[] = [
  { file: 'markitdown/MEDRPT-2024-PAT-3847_medical_report_scan.pdf', page: 1 },
  { file: 'markitdown/MEDRPT-2024-PAT-3847_medical_report_scan.pdf', page: 2 },
  { file: 'unstructured/a1977-backus-p21.pdf', page: 1 },
  { file: 'unstructured/pdf-with-ocr-text.pdf', page: 1 },
  { file: 'unstructured/loremipsum-flat.pdf', page: 1 },
];

export interface Scan {
  /** `file#page@dpi`. */
  id: string;
  source: SourcePage;
  dpi: number;
  heldOut: boolean;
  colour: boolean;
  quality: number;
  /** Degrees the page lies tilted (positive: counter-clockwise). */
  angle: number;
  /** Standard deviation of the sensor noise, grey levels. */
  noise: number;
  /** The scanned PDF. */
  pdf: string;
  /** The scan's JPEG decoded to grey, PNG. */
  grey: string;
  truth: string;
}

export interface RealScan {
  id: string;
  file: string;
  page: number;
  pdf: string;
  /** The page rendered grey at 300 dpi by pdftoppm, PNG. */
  grey: string;
  dpi: number;
}

export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (const c of Buffer.from(s, 'utf8')) {
    h ^= c;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The held-out rule: a third of the source pages by the hash of their name, all bands of a page alike. */
export const isHeldOut = (p: SourcePage) => fnv1a(`${p.file}#${p.page}`) % 3 === 0;

/** A source page's PDF: a corpus path, or an absolute path (a page the project renders itself). */
const sourcePdf = (p: SourcePage): string => (path.isAbsolute(p.file) ? p.file : corpusPath(p.file));

async function renderSource(p: SourcePage, dpi: number, out: string): Promise<void> {
  const base = out.replace(/\.png$/, '');
  await run(
    'pdftoppm',
    ['-r', String(dpi), '-f', String(p.page), '-l', String(p.page), '-singlefile', '-png'].concat(sourcePdf(p), base),
  );
}

async function truthOf(p: SourcePage): Promise<string> {
  const argv = ['-f', String(p.page), '-l', String(p.page), '-enc', 'UTF-8'];
  if (p.kind === 'table') argv.push('-layout');
  const { stdout } = await run('pdftotext', [...argv, sourcePdf(p), '-'], { maxBuffer: 1 << 26 });
  return stdout.replace(/\f/g, '\n');
}

/** Tilt, noise, colour or grey, JPEG: what a flatbed makes of the rendered page. */
async function scanImage(png: string, v: Pick<Scan, 'colour' | 'quality' | 'angle' | 'noise' | 'dpi'>, seed: number) {
  let img = sharp(png).removeAlpha();
  if (v.colour) img = img.linear([1, 0.985, 0.94], [0, 0, 0]);
  else img = img.grayscale();
  const tilted = await img
    .rotate(-v.angle, { background: v.colour ? { r: 255, g: 251, b: 240 } : { r: 255, g: 255, b: 255 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { data, info } = tilted;
  const rnd = seededRandom(seed ^ 0x9e3779b9);
  const ch = info.channels;
  // Sensor noise, one draw per pixel (the same on each channel, as a CCD's luminance noise mostly is).
  for (let i = 0; i < data.length; i += ch) {
    const u = Math.max(rnd(), 1e-12);
    const g = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd()) * v.noise;
    for (let c = 0; c < ch; c++) data[i + c] = Math.max(0, Math.min(255, Math.round(data[i + c]! + g)));
  }
  const jpeg = await sharp(data, { raw: { width: info.width, height: info.height, channels: ch } })
    .withMetadata({ density: v.dpi })
    .jpeg({ quality: v.quality, chromaSubsampling: '4:2:0' })
    .toBuffer();
  return { jpeg, width: info.width, height: info.height };
}

async function wrapPdf(jpeg: Buffer, width: number, height: number, dpi: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  // Fixed dates and ids: the same input makes the same bytes.
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  doc.setProducer('docmill scan set');
  const page = doc.addPage([(width * 72) / dpi, (height * 72) / dpi]);
  page.drawImage(await doc.embedJpg(jpeg), { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

function variant(id: string, dpi: number): Omit<Scan, 'id' | 'source' | 'heldOut' | 'pdf' | 'grey' | 'truth'> {
  const rnd = seededRandom(fnv1a(id) ^ SCAN_SET_SEED);
  const colour = rnd() < 0.5;
  const quality = 70 + Math.floor(rnd() * 16);
  const angle = ((rnd() < 0.5 ? -1 : 1) * Math.round((0.3 + rnd() * 1.2) * 100)) / 100;
  const noise = Math.round((3 + rnd() * 6) * 10) / 10;
  return { dpi, colour, quality, angle, noise };
}

const slug = (file: string, page: number) => `${file.replace(/[/.]/g, '_')}-p${page}`;

/** Makes (or finds made) the scan set; `pages` limits it to some source pages. */
export async function buildScanSet(pages: SourcePage[] = SOURCE_PAGES): Promise<Scan[]> {
  mkdirSync(SCAN_SET_DIR, { recursive: true });
  const scans: Scan[] = [];
  for (const source of pages) {
    const truthFile = path.join(SCAN_SET_DIR, `${slug(source.file, source.page)}.truth.txt`);
    if (!existsSync(truthFile)) writeFileSync(truthFile, await truthOf(source));
    const truth = readFileSync(truthFile, 'utf8');
    for (const dpi of BANDS) {
      const id = `${source.file}#${source.page}@${dpi}`;
      const v = variant(id, dpi);
      const base = path.join(SCAN_SET_DIR, `${slug(source.file, source.page)}-${dpi}`);
      const pdf = `${base}.pdf`;
      const grey = `${base}.grey.png`;
      if (!existsSync(pdf) || !existsSync(grey)) {
        const png = `${base}.render.png`;
        await renderSource(source, dpi, png);
        const { jpeg, width, height } = await scanImage(png, v, fnv1a(id) ^ SCAN_SET_SEED);
        writeFileSync(pdf, await wrapPdf(jpeg, width, height, dpi));
        await sharp(jpeg).grayscale().png({ compressionLevel: 1 }).toFile(grey);
        rmSync(png);
      }
      scans.push({ id, source, heldOut: isHeldOut(source), pdf, grey, truth, ...v });
    }
  }
  return scans;
}

/** The real scans of the corpus and their grey 300 dpi renders. */
export async function realScans(): Promise<RealScan[]> {
  mkdirSync(SCAN_SET_DIR, { recursive: true });
  const out: RealScan[] = [];
  for (const r of REAL_SCANS) {
    const pdf = corpusPath(r.file);
    if (!existsSync(pdf)) continue;
    const grey = path.join(SCAN_SET_DIR, `real-${slug(r.file, r.page)}.grey.png`);
    if (!existsSync(grey)) {
      const base = grey.replace(/\.png$/, '');
      await run('pdftoppm', [
        '-r',
        '300',
        '-gray',
        '-singlefile',
        '-png',
        '-f',
        String(r.page),
        '-l',
        String(r.page),
        pdf,
        base,
      ]);
    }
    out.push({ id: `${r.file}#${r.page}`, file: r.file, page: r.page, pdf, grey, dpi: 300 });
  }
  return out;
}
