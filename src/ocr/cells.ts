/**
 * A second reading of the doubtful cells of a scanned grid (the rules src/ocr/rules.ts found).
 *
 * In a page read whole, a cell holding a lone figure or a short value has no words around it to
 * steady the recogniser: "0" comes out as "ie)", "5" as ".)". Read again on its own, cropped to the
 * cell and as a single line (tesseract's mode 7), the same pixels give the figure. Only cells whose
 * words are short and read with low confidence are read again, and the new reading replaces the old
 * only when tesseract is surer of it; a cell with ink where nothing was read is read too, and its
 * reading kept when tesseract is fairly sure of it.
 */
import type { HocrBlock } from './hocr.js';
import { compactTesseractPage, type OcrLine, type OcrPage, type OcrWord } from './page.js';
import type { RawImage } from './raw-image.js';

/** Words below this confidence (0..1) make their cell worth a second reading. */
const DOUBTFUL = 0.75;
/** Cells with more text than this are sentences, not values: left as read. */
const MAX_CHARS = 16;
/** At most this many cells a page are read again. */
const MAX_CELLS = 60;
/** Paper added around a cell's crop: tesseract wants a margin round the text. */
const PAD = 12;

interface Cell {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Distinct positions (within 3 pixels) of a list, sorted. */
function positions(values: number[]): number[] {
  const out: number[] = [];
  for (const v of [...values].sort((a, b) => a - b)) if (!out.length || v - out[out.length - 1]! > 3) out.push(v);
  return out;
}

/** The grid cell around a word box: the nearest rules on its four sides that reach past it. */
function cellOf(page: OcrPage, w: OcrWord): Cell | null {
  const rules = page.rules ?? [];
  const cy = (w.bbox.y0 + w.bbox.y1) / 2;
  const cx = (w.bbox.x0 + w.bbox.x1) / 2;
  const vs = positions(rules.filter((r) => r.x0 === r.x1 && r.y0 <= cy && r.y1 >= cy).map((r) => r.x0));
  const hs = positions(rules.filter((r) => r.y0 === r.y1 && r.x0 <= cx && r.x1 >= cx).map((r) => r.y0));
  const left = vs.filter((x) => x <= w.bbox.x0).pop();
  const right = vs.find((x) => x >= w.bbox.x1);
  const top = hs.filter((y) => y <= w.bbox.y0).pop();
  const bottom = hs.find((y) => y >= w.bbox.y1);
  if (left === undefined || right === undefined || top === undefined || bottom === undefined) return null;
  return { x0: left, y0: top, x1: right, y1: bottom };
}

/**
 * The cells of the page's grids: between each two neighbouring horizontal rules, the spans between
 * neighbouring vertical rules that cross that band.
 */
function gridCells(page: OcrPage): Cell[] {
  const rules = page.rules ?? [];
  const hs = rules.filter((r) => r.y0 === r.y1);
  const vs = rules.filter((r) => r.x0 === r.x1);
  const ys = positions(hs.map((r) => r.y0));
  const out: Cell[] = [];
  for (let i = 0; i + 1 < ys.length; i++) {
    const mid = (ys[i]! + ys[i + 1]!) / 2;
    const xs = positions(vs.filter((r) => r.y0 <= mid && r.y1 >= mid).map((r) => r.x0));
    for (let j = 0; j + 1 < xs.length; j++) {
      const cx = (xs[j]! + xs[j + 1]!) / 2;
      // Both bounding rules must run under and over the cell.
      const closed = (y: number) => hs.some((r) => Math.abs(r.y0 - y) <= 3 && r.x0 <= cx && r.x1 >= cx);
      if (closed(ys[i]!) && closed(ys[i + 1]!)) out.push({ x0: xs[j]!, y0: ys[i]!, x1: xs[j + 1]!, y1: ys[i + 1]! });
    }
  }
  return out;
}

/** Whether a cell holds ink: dark pixels over a four-hundredth of it (a lone figure in a tall cell), at least 40 of them. */
function hasInk(px: RawImage, c: Cell, paper: number): boolean {
  if (px.channels !== 1) return false;
  const x0 = Math.max(0, Math.ceil(c.x0 + 6)),
    x1 = Math.min(px.width, Math.floor(c.x1 - 6));
  const y0 = Math.max(0, Math.ceil(c.y0 + 6)),
    y1 = Math.min(px.height, Math.floor(c.y1 - 6));
  if (x1 <= x0 || y1 <= y0) return false;
  const dark = Math.max(0, paper - 100);
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0, i = y * px.width + x0; x < x1; x++, i++) if (px.data[i]! < dark) n++;
  return n >= 40 && n >= ((x1 - x0) * (y1 - y0)) / 400;
}

/** The cell's pixels, inset from its rules and padded with paper, as a binary PGM. */
function crop(px: RawImage, c: Cell, paper: number): { image: Buffer; x: number; y: number } | null {
  const inset = 4;
  const x0 = Math.max(0, Math.ceil(c.x0 + inset));
  const y0 = Math.max(0, Math.ceil(c.y0 + inset));
  const x1 = Math.min(px.width, Math.floor(c.x1 - inset));
  const y1 = Math.min(px.height, Math.floor(c.y1 - inset));
  if (x1 - x0 < 4 || y1 - y0 < 4 || px.channels !== 1) return null;
  const w = x1 - x0 + 2 * PAD;
  const h = y1 - y0 + 2 * PAD;
  const out = Buffer.alloc(w * h, paper);
  for (let y = y0; y < y1; y++) px.data.copy(out, (y - y0 + PAD) * w + PAD, y * px.width + x0, y * px.width + x1);
  return { image: Buffer.concat([Buffer.from(`P5\n${w} ${h}\n255\n`, 'ascii'), out]), x: x0 - PAD, y: y0 - PAD };
}

/**
 * Reads the page's doubtful grid cells again with `readLine` (one cropped cell, read as a single
 * line) and puts the better readings in place of the words they replace. Returns how many cells were
 * read again.
 */
export async function rereadGridCells(
  page: OcrPage,
  px: RawImage,
  paper: number,
  readLine: (image: Buffer) => Promise<HocrBlock[]>,
): Promise<number> {
  if (!page.rules?.length) return 0;
  const all: Array<{ w: OcrWord; line: OcrLine }> = [];
  for (const b of page.blocks)
    for (const p of b.paragraphs) for (const l of p.lines) for (const w of l.words) all.push({ w, line: l });
  const cells = new Map<string, { cell: Cell; words: Array<{ w: OcrWord; line: OcrLine }> }>();
  for (const entry of all) {
    const cell = cellOf(page, entry.w);
    if (!cell) continue;
    const key = `${cell.x0},${cell.y0}`;
    const c = cells.get(key) ?? { cell, words: [] };
    c.words.push(entry);
    cells.set(key, c);
  }
  // Cells where nothing was read but there is ink: a value the page segmentation dropped.
  for (const cell of gridCells(page)) {
    const inside = all.some(({ w }) => {
      const cx = (w.bbox.x0 + w.bbox.x1) / 2,
        cy = (w.bbox.y0 + w.bbox.y1) / 2;
      return cx > cell.x0 && cx < cell.x1 && cy > cell.y0 && cy < cell.y1;
    });
    if (!inside && hasInk(px, cell, paper)) cells.set(`empty ${cell.x0},${cell.y0}`, { cell, words: [] });
  }
  let read = 0;
  for (const { cell, words } of cells.values()) {
    if (read >= MAX_CELLS) break;
    if (words.length && !words.some(({ w }) => w.confidence < DOUBTFUL)) continue;
    if (words.reduce((n, { w }) => n + w.text.length, 0) > MAX_CHARS) continue;
    // One line of text: a cell of several lines is read well enough as part of the page.
    const h = Math.max(...words.map(({ w }) => w.bbox.y1 - w.bbox.y0));
    if (Math.max(...words.map(({ w }) => w.bbox.y0)) - Math.min(...words.map(({ w }) => w.bbox.y0)) > h * 0.6) continue;
    const c = crop(px, cell, paper);
    if (!c) continue;
    read++;
    // The cell's reading in the page's terms (src/ocr/page.ts), its boxes moved onto the page.
    const cellPage = compactTesseractPage(
      { blocks: await readLine(c.image) },
      { pageNumber: page.pageNumber, width: 0, height: 0, rotation: 0, scale: 1, skew: 0 },
    );
    const again: OcrWord[] = [];
    for (const b of cellPage.blocks)
      for (const p of b.paragraphs)
        for (const l of p.lines) {
          for (const w of l.words)
            again.push({
              ...w,
              bbox: { x0: w.bbox.x0 + c.x, y0: w.bbox.y0 + c.y, x1: w.bbox.x1 + c.x, y1: w.bbox.y1 + c.y },
            });
        }
    if (!again.length) continue;
    const after = again.reduce((n, w) => n + w.confidence, 0) / again.length;
    if (!words.length) {
      // A cell read for the first time: kept when tesseract is fairly sure of it, as a line of its own.
      if (after < DOUBTFUL) continue;
      const box = {
        x0: Math.min(...again.map((w) => w.bbox.x0)),
        y0: Math.min(...again.map((w) => w.bbox.y0)),
        x1: Math.max(...again.map((w) => w.bbox.x1)),
        y1: Math.max(...again.map((w) => w.bbox.y1)),
      };
      // The row's height and x-height as tesseract measured them on the cell (the words' box is the
      // ink alone, lower than a row: the bold test weighs strokes against the row).
      const measured = cellPage.blocks[0]?.paragraphs[0]?.lines[0];
      const rowHeight = measured && measured.rowHeight > 0 ? measured.rowHeight : (box.y1 - box.y0) * 1.3;
      const line: OcrLine = {
        words: again,
        bbox: box,
        confidence: after,
        rowHeight,
        xHeight: measured && measured.xHeight > 0 ? measured.xHeight : rowHeight * 0.45,
      };
      page.blocks.push({ bbox: box, confidence: after, paragraphs: [{ bbox: box, confidence: after, lines: [line] }] });
      continue;
    }
    const before = words.reduce((n, { w }) => n + w.confidence, 0) / words.length;
    if (after <= before + 0.05) continue;
    // The new words take the place of the first old one, in its line; the others leave theirs.
    const first = words[0]!;
    const gone = new Set(words.map(({ w }) => w));
    for (const { line } of words) line.words = line.words.filter((w) => !gone.has(w) || w === first.w);
    const at = first.line.words.indexOf(first.w);
    first.line.words.splice(at, 1, ...again);
  }
  // Lines left without words would be empty paragraphs.
  for (const b of page.blocks) for (const p of b.paragraphs) p.lines = p.lines.filter((l) => l.words.length > 0);
  for (const b of page.blocks) b.paragraphs = b.paragraphs.filter((p) => p.lines.length > 0);
  page.blocks = page.blocks.filter((b) => b.paragraphs.length > 0);
  return read;
}
