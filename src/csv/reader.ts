/**
 * CSV: decoded like HTML (BOM, UTF-16 without BOM, Shift-JIS and other legacy encodings),
 * parsed by papaparse with delimiter sniffing (or the delimiter an Excel `sep=` first line names),
 * emitted as one table whose first row is the header.
 */
import Papa from 'papaparse';
import { decodeText } from '../html/charset.js';
import type { DocModel, TableCell } from '../model/document.js';
import type { Reader } from '../readers/reader.js';

/**
 * The most data rows converted. A markdown table beyond this is unreadable and the response
 * would run to hundreds of megabytes; the rest is left out with a warning.
 */
export const MAX_CSV_ROWS = 100_000;
/** The most cells converted (rows × columns), for very wide files. */
export const MAX_CSV_CELLS = 2_000_000;
/** The most columns converted; wider rows are cut. */
export const MAX_CSV_COLUMNS = 1_000;

const DELIMITERS = [',', ';', '\t', '|'];

export interface CsvTable {
  rows: string[][];
  delimiter: string;
  truncated: boolean;
  encoding: string;
  /** Problems papaparse recovered from (an unterminated quote), for the response's warning. */
  problems: string[];
}

function isEmptyRow(row: string[]): boolean {
  return row.every((c) => c.trim() === '');
}

/**
 * The delimiter that splits the first records most consistently into two or more fields. Blank
 * lines are left out of the count (papaparse's own guess counts them and then misses pipes and
 * two-column files).
 */
export function sniffDelimiter(text: string): string {
  let sample = text.slice(0, 64 * 1024);
  if (sample.length < text.length && sample.lastIndexOf('\n') > 0) sample = sample.slice(0, sample.lastIndexOf('\n'));
  let best = ',';
  let bestScore = -1;
  let bestWidth = 0;
  for (const delimiter of DELIMITERS) {
    const rows = Papa.parse<string[]>(sample, { delimiter, preview: 50 }).data.filter(
      (r) => !(r.length <= 1 && (r[0] ?? '').trim() === ''),
    );
    if (rows.length === 0) continue;
    const counts = new Map<number, number>();
    for (const r of rows) counts.set(r.length, (counts.get(r.length) ?? 0) + 1);
    let mode = 0;
    let modeCount = 0;
    for (const [width, n] of counts)
      if (n > modeCount || (n === modeCount && width > mode)) [mode, modeCount] = [width, n];
    if (mode < 2) continue;
    const score = modeCount / rows.length;
    if (score > bestScore || (score === bestScore && mode > bestWidth))
      [best, bestScore, bestWidth] = [delimiter, score, mode];
  }
  return best;
}

/**
 * Excel's delimiter hint: a first line `sep=;` (or `sep=,`, `sep=<tab>`, `sep=|`) names the
 * delimiter and is not part of the data. The delimiter and the length of the line, or undefined.
 */
export function separatorHint(text: string): { delimiter: string; length: number } | undefined {
  const m = /^sep=([^\r\n"])[ \t]*(?:\r\n|\n|\r|$)/i.exec(text);
  return m ? { delimiter: m[1]!, length: m[0].length } : undefined;
}

export function parseCsv(bytes: Uint8Array): CsvTable {
  const decoded = decodeText(bytes);
  const hint = separatorHint(decoded.text);
  const text = hint ? decoded.text.slice(hint.length) : decoded.text;
  // Papaparse counts preview rows after the header; ask for one more than the cap to know it was hit.
  const result = Papa.parse<string[]>(text, {
    delimiter: hint?.delimiter ?? sniffDelimiter(text),
    header: false,
    skipEmptyLines: false,
    dynamicTyping: false,
    preview: MAX_CSV_ROWS + 2,
  });
  let rows = result.data.map((row) => (Array.isArray(row) ? row.map((c) => String(c ?? '')) : []));
  let truncated = false;
  if (rows.length > MAX_CSV_ROWS + 1) {
    rows = rows.slice(0, MAX_CSV_ROWS + 1);
    truncated = true;
  }

  // Trailing empty lines and fully empty trailing columns are artefacts of the export, not data.
  while (rows.length > 0 && isEmptyRow(rows[rows.length - 1]!)) rows.pop();
  // Blank lines between records carry nothing a table can show.
  rows = rows.filter((row, i) => i === 0 || !(row.length <= 1 && isEmptyRow(row)));
  let width = Math.max(0, ...rows.map((r) => r.length));
  while (width > 0 && rows.every((r) => (r[width - 1] ?? '').trim() === '')) width--;
  if (width > MAX_CSV_COLUMNS) {
    width = MAX_CSV_COLUMNS;
    truncated = true;
  }
  if (width > 0 && rows.length * width > MAX_CSV_CELLS) {
    rows = rows.slice(0, Math.max(2, Math.floor(MAX_CSV_CELLS / width)));
    truncated = true;
  }
  // Ragged rows are padded so that every row has the header's width.
  rows = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
  const problems: string[] = [];
  const quote = result.errors.find((e) => e.type === 'Quotes');
  if (quote) {
    problems.push(
      `The CSV file has a quoted field that is never closed${quote.row !== undefined ? ` (record ${quote.row + 1})` : ''}; the text after its opening quote was read as one field.`,
    );
  }
  return { rows, delimiter: result.meta.delimiter, truncated, encoding: decoded.encoding, problems };
}

export const read: Reader = async (ctx) => {
  const table = parseCsv(ctx.bytes);
  const warnings: string[] = [...table.problems];
  if (table.truncated) {
    warnings.push(
      `The CSV file is larger than docmill converts (${MAX_CSV_ROWS} rows, ${MAX_CSV_COLUMNS} columns or ${MAX_CSV_CELLS} cells); the output has its first ${table.rows.length - 1} data rows and ${table.rows[0]?.length ?? 0} columns.`,
    );
  }
  const rows: TableCell[][] = table.rows.map((row) =>
    row.map((cell) => ({ content: cell.trim() ? [{ type: 'text', text: cell.trim() }] : [] })),
  );
  const doc: DocModel = {
    contentType: 'text/csv',
    pages: [
      {
        pageNumber: 1,
        width: null,
        height: null,
        status: 'ok',
        blocks:
          rows.length > 0 && rows[0]!.length > 0 ? [{ node: { kind: 'table', rows }, source: 'native_text' }] : [],
      },
    ],
    metadata: {},
    warnings,
  };
  return doc;
};
