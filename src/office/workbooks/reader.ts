/**
 * Spreadsheets (.xlsx .xlsm .xlsb .xls .ods) to the document model: each sheet is one page, a
 * `## <sheet name>` heading followed by its table, whose first row is the table header. A sheet
 * holding several tables parted by empty rows or columns gives one table each, in reading order
 * (./regions.ts); there a lone cell is a paragraph, or a `###` heading when it titles the table under it.
 *
 * .xlsx and .xlsm go through a fast scanner of the sheet XML (./xlsx.ts), which applies number
 * formats with SheetJS's formatter; .ods is read from content.xml, whose cells carry their displayed
 * text (./ods.ts). Whatever those cannot read, and every .xlsb and .xls, is parsed by SheetJS
 * Community Edition as republished on npm by `@e965/xlsx` (0.20.x, the current CE line). The `xlsx`
 * package on npm is frozen at 0.18.5 and carries published vulnerabilities (prototype pollution,
 * ReDoS) fixed only in later CE releases; exceljs reads only .xlsx. SheetJS reads every format here,
 * keeps formulas' cached values and applies number formats, so numbers and dates come out as the
 * sheet displays them.
 *
 * Conventions:
 * - Empty edges are trimmed, and rows or columns with nothing in them are left out.
 * - Merged cells become cells with colSpan/rowSpan (the serializer puts the text in the first slot).
 * - Hidden and very hidden sheets are left out, with a warning naming them: they are not part of what
 *   the workbook shows. A sheet with no cells keeps its heading.
 * - At most MAX_CELLS table cells are written for the whole workbook and MAX_SHEET_ROWS rows read per
 *   sheet; a sheet that passes a cap is cut there, with a warning.
 *
 * Safety: ZIP-based workbooks are opened with ZipPackage (entry, size and ratio limits); SheetJS is
 * handed a stored (uncompressed) copy of the parts inflated through it, so its own inflater never
 * sees a bomb. Parts that declare XML entities are refused with RESOURCE_LIMIT. Workbooks from
 * WORKBOOK_WORKER_MIN_BYTES on convert on a worker pool with a memory limit, where a timeout ends
 * the thread.
 */
import * as XLSX from '@e965/xlsx';
import * as cptable from '@e965/xlsx/dist/cpexcel';
import type { Zippable } from 'fflate';
import { fflate } from '../../containers/fflate.js';
import type { FileKind } from '../../detect/detect.js';
import { ParseError } from '../../errors.js';
import type { DocBlock, DocModel, DocPage, Inline, TableCell } from '../../model/document.js';
import type { Reader } from '../../readers/reader.js';
import { abortReason, readerPool } from '../../runtime/worker-pool.js';
import type { WorkbookTask, WorkbookTaskResult } from './protocol.js';
import { ZipPackage } from '../../containers/zip.js';
import { readOds } from './ods.js';
import { sheetRegions, type SheetCells, type SheetRegion } from './regions.js';
import { BUILTIN_FORMATS, formatGeneral, formatNumber, readXlsxFast, type FastWorkbook } from './xlsx.js';

// Legacy .xls files store text in Windows code pages; SheetJS needs the tables to decode them.
XLSX.set_cptable(cptable);
/**
 * Sets SheetJS's shared format table to the built-in formats alone (./xlsx.ts BUILTIN_FORMATS: the
 * short dates 14 and 22 with a four-digit year as current Excel shows them in en-US, the currency and
 * accounting formats 5-8 and 41-44). SheetJS loads every workbook's own formats into that table; reset
 * before each read, one workbook's formats never show in the next.
 */
function resetFormatTable(): void {
  const table = XLSX.SSF.get_table() as Record<string, string>;
  for (const id of Object.keys(table)) if (!(id in BUILTIN_FORMATS)) delete table[id];
  XLSX.SSF.load_table(BUILTIN_FORMATS);
}
resetFormatTable();

/** Table cells written for one workbook before sheets are cut. */
export const MAX_CELLS = 500_000;
/** Rows read per sheet; keeps a sheet of a million rows from blowing the time budget. */
const MAX_SHEET_ROWS = 200_000;

const SKIPPED_PARTS =
  /^(xl\/media\/|xl\/embeddings\/|xl\/printerSettings\/|docProps\/thumbnail|Pictures\/|Thumbnails\/|xl\/activeX\/)/i;

/** Inflates the package through ZipPackage's limits and re-packs it uncompressed for SheetJS. */
function safeZip(bytes: Uint8Array): { bytes: Uint8Array; odsHidden: Set<string> } {
  const zip = ZipPackage.open(bytes);
  const files: Zippable = {};
  let odsHidden = new Set<string>();
  for (const name of zip.names()) {
    if (SKIPPED_PARTS.test(name)) continue;
    const data = zip.read(name);
    if (!data) continue;
    if (/\.(xml|rels)$/i.test(name) && hasEntityDeclaration(data)) {
      throw new ParseError(
        'RESOURCE_LIMIT',
        `The workbook part ${name} declares XML entities; entity expansion is refused as a safety limit.`,
      );
    }
    if (name === 'content.xml') odsHidden = odsHiddenTables(new TextDecoder().decode(data));
    files[name] = [data, { level: 0 }];
  }
  return { bytes: fflate().zipSync(files, { level: 0 }), odsHidden };
}

/** OpenDocument tables whose style sets `table:display="false"` (SheetJS does not report them). */
function odsHiddenTables(xml: string): Set<string> {
  const hiddenStyles = new Set<string>();
  for (const m of xml.matchAll(/<style:style\b[^>]*>\s*<style:table-properties\b[^>]*>/g)) {
    if (!/table:display="false"/.test(m[0]) || !/style:family="table"/.test(m[0])) continue;
    const name = /style:name="([^"]*)"/.exec(m[0])?.[1];
    if (name) hiddenStyles.add(name);
  }
  const out = new Set<string>();
  if (!hiddenStyles.size) return out;
  for (const m of xml.matchAll(/<table:table\b[^>]*>/g)) {
    const style = /table:style-name="([^"]*)"/.exec(m[0])?.[1];
    const name = /table:name="([^"]*)"/.exec(m[0])?.[1];
    if (style && name && hiddenStyles.has(style)) out.add(decodeXml(name));
  }
  return out;
}

function decodeXml(s: string): string {
  return s.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!,
  );
}

const LATIN1 = new TextDecoder('latin1');

function hasEntityDeclaration(data: Uint8Array): boolean {
  // A DOCTYPE can only come before the root element: look for `<!` at the start of the part, byte
  // by byte (this runs for every part read, so no decoding unless there is one).
  const n = Math.min(data.length, 4096);
  let declaration = false;
  for (let i = 0; i + 1 < n; i++) {
    if (data[i] === 0x3c && data[i + 1] === 0x21 && (data[i + 2] === 0x44 || data[i + 2] === 0x64)) {
      declaration = true;
      break;
    }
  }
  if (!declaration) return false;
  const text = LATIN1.decode(Uint8Array.prototype.subarray.call(data, 0, Math.min(data.length, 1024 * 1024)));
  return /<!DOCTYPE/i.test(text) && /<!ENTITY/i.test(text);
}

function parseWorkbook(ctx: WorkbookInput): { wb: XLSX.WorkBook; odsHidden: Set<string> } {
  const zipped = ctx.kind !== 'xls';
  const safe = zipped ? safeZip(ctx.bytes) : { bytes: ctx.bytes, odsHidden: new Set<string>() };
  // SheetJS reports some format guesses on console.error; a library must not write to the console.
  const consoleError = console.error;
  console.error = () => {};
  resetFormatTable();
  try {
    // As a Buffer: SheetJS's 'array' input path is many times slower, and slower still on damaged files.
    const wb = XLSX.read(Buffer.from(safe.bytes.buffer, safe.bytes.byteOffset, safe.bytes.byteLength), {
      type: 'buffer',
      dense: true,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      cellText: true,
      // The format code of each cell, to tell General numbers (see cellText).
      cellNF: true,
      cellDates: false,
      sheetRows: MAX_SHEET_ROWS,
      bookVBA: false,
      WTF: false,
    });
    return { wb, odsHidden: safe.odsHidden };
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    if (/password|encrypt/i.test(message)) {
      throw new ParseError('ENCRYPTED', 'The workbook is password protected; it cannot be read without its password.', {
        cause: err,
      });
    }
    throw new ParseError('MALFORMED', `The ${ctx.kind} workbook cannot be read: ${message}`, { cause: err });
  } finally {
    console.error = consoleError;
  }
}

function isLongInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) >= 1e11 && Math.abs(v) < 1e15;
}

function cellText(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.t === 'z') return '';
  // Long integers (IDs, account numbers) in General format in full, as the fast path shows them,
  // where SheetJS wrote the narrow-column form `1.23457E+11`.
  if (cell.t === 'n' && cell.z === 'General' && isLongInteger(cell.v) && /E\+/.test(String(cell.w ?? '')))
    return formatGeneral(cell.v);
  // Negative numbers rounded as Excel rounds them (see formatNumber).
  if (
    cell.t === 'n' &&
    typeof cell.v === 'number' &&
    cell.v < 0 &&
    typeof cell.z === 'string' &&
    cell.z !== 'General' &&
    cell.w !== undefined
  ) {
    try {
      return formatNumber(cell.z, cell.v);
    } catch {
      return String(cell.w);
    }
  }
  if (cell.w !== undefined) return String(cell.w);
  if (cell.v === undefined || cell.v === null) return '';
  if (cell.v instanceof Date) return cell.v.toISOString();
  return String(cell.v);
}

function cellInlines(text: string, link: string | undefined): Inline[] {
  if (!text.includes('\n') && !text.includes('\r')) {
    // One line, the common case: trailing blanks trimmed without a regular expression.
    let end = text.length;
    while (end > 0 && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
    if (!end) return [];
    const line = end === text.length ? text : text.slice(0, end);
    return [link ? { type: 'text', text: line, href: link } : { type: 'text', text: line }];
  }
  // Line ends inside a cell carry no meaning; trailing blanks would sit before the <br>.
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''));
  const out: Inline[] = [];
  lines.forEach((line, i) => {
    if (i) out.push({ type: 'break' });
    if (line) out.push(link ? { type: 'text', text: line, href: link } : { type: 'text', text: line });
  });
  return out;
}

/** Row * KEY + column: one number per cell (columns stop below EXCEL_MAX_COLS). */
const KEY = 1 << 15;

interface SheetResult {
  blocks: DocBlock[];
  cells: number;
  truncated: boolean;
}

export function sheetBlocks(name: string, ws: XLSX.WorkSheet, budget: number): SheetResult {
  const heading: DocBlock = { node: { kind: 'heading', level: 2, content: [{ type: 'text', text: name }] } };
  const data = (ws['!data'] ?? []) as (XLSX.CellObject[] | undefined)[];
  // Texts of the sheet, and which rows and columns hold anything.
  const texts: (string[] | undefined)[] = [];
  // The same cells in row-major order, for finding the sheet's separate tables.
  const sheetCells: SheetCells = { row: [], col: [], lastRow: [], lastCol: [], text: [] };
  const usedCols = new Set<number>();
  const usedRows: number[] = [];
  const rowKeys = sparseKeys(data, EXCEL_MAX_ROWS);
  for (let k = 0, nr = rowKeys ? rowKeys.length : data.length; k < nr; k++) {
    const r = rowKeys ? rowKeys[k]! : k;
    const row = data[r];
    if (!row) continue;
    let any = false;
    const out: string[] = [];
    const colKeys = sparseKeys(row, EXCEL_MAX_COLS);
    for (let j = 0, nc = colKeys ? colKeys.length : row.length; j < nc; j++) {
      const c = colKeys ? colKeys[j]! : j;
      const raw = row[c] ? cellText(row[c]) : '';
      const t = raw && raw.trim() ? raw : '';
      if (t) {
        out[c] = t;
        usedCols.add(c);
        any = true;
        sheetCells.row.push(r);
        sheetCells.col.push(c);
        sheetCells.text.push(t);
      }
    }
    if (any) {
      texts[r] = out;
      usedRows.push(r);
    }
  }
  if (!usedRows.length) return { blocks: [heading], cells: 0, truncated: false };
  const cols = [...usedCols].sort((a, b) => a - b);

  // Merges whose first cell has text; a merge of empty cells changes nothing visible.
  const covered = new Set<number>();
  const origins = new Map<number, { r1: number; c1: number }>();
  // Only the rows and columns that are written matter: a (possibly absurd) merge range is walked
  // over those alone, and the whole walk has a budget.
  let work = MAX_CELLS * 4;
  for (const m of (ws['!merges'] ?? []) as XLSX.Range[]) {
    const originKey = m.s.r * KEY + m.s.c;
    if (!texts[m.s.r]?.[m.s.c] || covered.has(originKey) || origins.has(originKey)) continue;
    if (m.e.r < m.s.r || m.e.c < m.s.c) continue;
    const r0 = lowerBound(usedRows, m.s.r);
    const r1 = lowerBound(usedRows, m.e.r + 1);
    const c0 = lowerBound(cols, m.s.c);
    const c1 = lowerBound(cols, m.e.c + 1);
    if ((r1 - r0) * (c1 - c0) > work) break;
    work -= (r1 - r0) * (c1 - c0);
    origins.set(originKey, { r1: m.e.r, c1: m.e.c });
    for (let i = r0; i < r1; i++) {
      for (let j = c0; j < c1; j++) {
        const key = usedRows[i]! * KEY + cols[j]!;
        if (key !== originKey) covered.add(key);
      }
    }
  }
  // Most sheets have no merges: their cells skip the lookups.
  const merged = origins.size > 0;
  // A merge's first cell covers the merge's range.
  sheetCells.lastRow = sheetCells.row.slice();
  sheetCells.lastCol = sheetCells.col.slice();
  if (merged) {
    for (let i = 0; i < sheetCells.row.length; i++) {
      const merge = origins.get(sheetCells.row[i]! * KEY + sheetCells.col[i]!);
      if (merge) {
        sheetCells.lastRow[i] = merge.r1;
        sheetCells.lastCol[i] = merge.c1;
      }
    }
  }
  const regions = sheetRegions(sheetCells, MAX_CELLS * 16);
  const blocks: DocBlock[] = [heading];
  let cells = 0;
  let truncated = false;
  for (let k = 0; k < regions.length && !truncated; k++) {
    const region = regions[k]!;
    // Alone on its sheet, a region is always a table (as a sheet of one cell always was).
    const text = regions.length > 1 && region.cells.length === 1 ? sheetCells.text[region.cells[0]!]! : undefined;
    if (text !== undefined) {
      if (cells + 1 > budget) break;
      cells++;
      const dataRow = data[region.rows[0]!];
      const content = cellInlines(text, linkOf(dataRow?.[region.cols[0]!]));
      const level = isTitleOf(region, regions[k + 1], text) ? 3 : undefined;
      blocks.push({ node: level ? { kind: 'heading', level, content } : { kind: 'paragraph', content } });
      continue;
    }
    const table = regionTable(region, { data, texts, covered, origins: merged ? origins : undefined }, budget - cells);
    cells += table.cells;
    truncated = table.truncated;
    if (table.rows.length) blocks.push({ node: { kind: 'table', rows: table.rows } });
  }
  return { blocks, cells, truncated };
}

/**
 * A lone cell is the title of the region after it when that region starts below it, under the columns
 * it spans, and the cell reads as a title: one short line that is not a bare link. Otherwise it is a
 * paragraph (a note, a source).
 */
function isTitleOf(cell: SheetRegion, next: SheetRegion | undefined, text: string): boolean {
  if (!next || next.top <= cell.bottom || next.left > cell.right || next.right < cell.left) return false;
  const line = text.trim();
  return line.length <= MAX_TITLE_CHARS && !/[\r\n]/.test(line) && !/^(https?|ftp|mailto):\S+$/i.test(line);
}

/** Longest text of a lone cell read as the title of the table under it. */
const MAX_TITLE_CHARS = 120;

interface SheetGrid {
  data: (XLSX.CellObject[] | undefined)[];
  texts: (string[] | undefined)[];
  /** Row * KEY + column of the cells a merge covers (not its first cell). */
  covered: Set<number>;
  /** Merges by their first cell; undefined when the sheet has none. */
  origins: Map<number, { r1: number; c1: number }> | undefined;
}

/** One region's table: its rows and columns that hold text, merges as spans, within the cell budget. */
function regionTable(
  region: SheetRegion,
  grid: SheetGrid,
  budget: number,
): { rows: TableCell[][]; cells: number; truncated: boolean } {
  const { rows: usedRows, cols } = region;
  const countIn = (sorted: number[], lo: number, hi: number): number =>
    lowerBound(sorted, hi + 1) - lowerBound(sorted, lo);
  const origins = grid.origins;
  const rows: TableCell[][] = [];
  let cells = 0;
  let truncated = false;
  for (const r of usedRows) {
    if (cells + cols.length > budget) {
      truncated = true;
      break;
    }
    const rowTexts = grid.texts[r]!;
    const dataRow = grid.data[r];
    const row: TableCell[] = [];
    for (const c of cols) {
      if (origins && grid.covered.has(r * KEY + c)) continue;
      const text = rowTexts[c];
      const cell: TableCell = { content: text ? cellInlines(text, linkOf(dataRow?.[c])) : [] };
      const merge = origins ? origins.get(r * KEY + c) : undefined;
      if (merge) {
        const cs = countIn(cols, c, merge.c1);
        const rs = countIn(usedRows, r, merge.r1);
        if (cs > 1) cell.colSpan = cs;
        if (rs > 1) cell.rowSpan = rs;
      }
      row.push(cell);
    }
    rows.push(row);
    cells += cols.length;
  }
  return { rows, cells, truncated };
}

const EXCEL_MAX_ROWS = 1_048_576;
const EXCEL_MAX_COLS = 16_384;

/**
 * A damaged file can put one cell at an absurd row or column, leaving a sparse array billions long:
 * then only its present keys below `max` are visited. Null for an array of sane length.
 */
function sparseKeys(arr: readonly unknown[], max: number): number[] | null {
  if (arr.length <= max) return null;
  return Object.keys(arr)
    .map(Number)
    .filter((i) => Number.isInteger(i) && i < max)
    .sort((a, b) => a - b);
}

/** Index of the first element not less than v in an ascending array. */
function lowerBound(sorted: number[], v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function linkOf(cell: XLSX.CellObject | undefined): string | undefined {
  const target = cell?.l?.Target;
  return target && /^(https?|mailto|ftp):/i.test(target) ? target : undefined;
}

/** The fast SpreadsheetML and OpenDocument paths; null when they cannot read the file (SheetJS then tries). */
function readFast(ctx: WorkbookInput): DocModel | null {
  let fast: FastWorkbook;
  try {
    fast =
      ctx.kind === 'ods'
        ? readOds(ctx.bytes, { maxRows: MAX_SHEET_ROWS, maxCells: MAX_CELLS })
        : readXlsxFast(ctx.bytes, { maxRows: MAX_SHEET_ROWS, maxCells: MAX_CELLS, hasEntityDeclaration });
  } catch (err) {
    if (err instanceof ParseError && (err.code === 'RESOURCE_LIMIT' || err.code === 'ENCRYPTED')) throw err;
    return null;
  }
  const sheets = fast.sheets.map((s) => ({
    name: s.name,
    hidden: s.hidden,
    ws: { '!data': s.data, '!merges': s.merges } as unknown as XLSX.WorkSheet,
    rowCapped: s.cut,
  }));
  return assemble(ctx, sheets, { title: fast.title, author: fast.author });
}

interface SheetInput {
  name: string;
  hidden: boolean;
  ws: XLSX.WorkSheet;
  /** Reading stopped at the row or cell cap. */
  rowCapped: boolean;
}

function assemble(
  ctx: WorkbookInput,
  sheets: SheetInput[],
  props: { title?: string | undefined; author?: string | undefined },
): DocModel {
  const warnings: string[] = [];
  const pages: DocPage[] = [];
  const hidden: string[] = [];
  let budget = MAX_CELLS;
  let cut = false;
  sheets.forEach((sheet, i) => {
    if (ctx.signal?.aborted) throw ctx.signal.reason;
    if (sheet.hidden) {
      hidden.push(sheet.name);
      return;
    }
    const result = sheetBlocks(sheet.name, sheet.ws, budget);
    budget -= result.cells;
    if (result.truncated || (sheet.rowCapped && !cut)) {
      warnings.push(
        `Sheet "${sheet.name}" was cut: at most ${MAX_SHEET_ROWS} rows per sheet and ${MAX_CELLS} table cells per workbook are read.`,
      );
      cut ||= result.truncated;
    }
    pages.push({ pageNumber: i + 1, width: null, height: null, status: 'ok', blocks: result.blocks });
  });
  if (hidden.length) warnings.push(`Hidden sheets left out: ${hidden.map((h) => `"${h}"`).join(', ')}.`);
  const metadata: DocModel['metadata'] = { numPages: pages.length };
  const title = props.title?.trim();
  if (title) metadata.title = title;
  const author = props.author?.trim();
  if (author) metadata['author'] = author;
  return { contentType: ctx.contentType, pages, metadata, warnings };
}

/** What a conversion needs; the signal is absent on a worker thread, where aborting ends the thread. */
export interface WorkbookInput {
  bytes: Uint8Array;
  kind: FileKind;
  contentType: string;
  signal?: AbortSignal;
}

/** Converts a workbook on the calling thread. */
export function convertWorkbook(ctx: WorkbookInput): DocModel {
  if (ctx.kind === 'xlsx' || ctx.kind === 'xlsm' || ctx.kind === 'ods') {
    const fast = readFast(ctx);
    if (fast) return fast;
  }
  const { wb, odsHidden } = parseWorkbook(ctx);
  // Every workbook has at least one sheet; none means the structure was not understood.
  if (wb.SheetNames.length === 0) throw new ParseError('MALFORMED', `The ${ctx.kind} workbook has no readable sheets.`);
  const meta = wb.Workbook?.Sheets ?? [];
  const sheets: SheetInput[] = [];
  wb.SheetNames.forEach((name, i) => {
    const ws = wb.Sheets[name] ?? ({} as XLSX.WorkSheet);
    sheets.push({
      name,
      hidden: !!meta[i]?.Hidden || odsHidden.has(name),
      ws,
      rowCapped: !!(ws['!fullref'] && ws['!ref'] && ws['!fullref'] !== ws['!ref']),
    });
  });
  return assemble(ctx, sheets, { title: wb.Props?.Title, author: wb.Props?.Author });
}

/** Inputs from this size on are converted on the workbook pool. */
export const WORKBOOK_WORKER_MIN_BYTES = 512 * 1024;

/**
 * Small workbooks convert on the calling thread (a hand-off would cost more than the work); large
 * ones on a worker pool, so that the event loop stays free and a timeout really stops the work.
 */
export const read: Reader = async (ctx) => {
  const input: WorkbookInput = { bytes: ctx.bytes, kind: ctx.kind, contentType: ctx.contentType, signal: ctx.signal };
  // Binary workbooks are read by SheetJS in one synchronous call; damaged ones can loop in it
  // (a mini-FAT chain pointing at the directory). On a worker thread the timeout can end that.
  const offThread = ctx.bytes.byteLength >= WORKBOOK_WORKER_MIN_BYTES || ctx.kind === 'xls' || ctx.kind === 'xlsb';
  const pool =
    offThread && ctx.runtime ? readerPool<WorkbookTask, WorkbookTaskResult>(ctx.runtime, 'workbook') : undefined;
  if (!pool) return convertWorkbook(input);
  ctx.signal.throwIfAborted();
  const bytes = new Uint8Array(ctx.bytes);
  let result: WorkbookTaskResult;
  try {
    result = await pool.run(
      { bytes, kind: ctx.kind, contentType: ctx.contentType },
      { signal: ctx.signal, transferList: [bytes.buffer] },
    );
  } catch (err) {
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    throw new ParseError(
      'RESOURCE_LIMIT',
      `The workbook could not be converted within the worker's limits: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  if (!result.ok) throw new ParseError(result.code, result.message);
  return JSON.parse(result.json) as DocModel;
};
