/**
 * The grid of an aligned table to the table handed on: its cells' content, the words and lines it
 * takes from the text flow, its extent, columns and rows; null when the cells read as running text,
 * a displayed formula, or mostly empty.
 */
import type { TableCell } from '../../../model/document.js';
import type { Line, Word } from '../../lines.js';
import { cellInlines, plainOf } from '../cell-text.js';
import type { FoundTable, Interval } from '../types.js';
import { fullGrid, justifiedRows } from './not-a-table.js';

/**
 * Whether the cells read as running text or a formula rather than a table: sentence fragments,
 * justified lines cut at their spaces, a formula's pieces, aligned equations.
 */
function readsAsText(merged: Line[][][], rows: TableCell[][]): boolean {
  // Pieces of running text (justified lines whose wide spaces looked like gutters): cells that read
  // as sentence fragments, or rows whose words stand as far apart inside their cells as the cells do.
  if (justifiedRows(merged)) return true;
  {
    const cellsText = rows
      .flat()
      .map((c) => plainOf(c.content))
      .filter(Boolean);
    const sentencey = cellsText.filter(
      (t) => t.split(/\s+/).length >= 3 && (/[.;:,]$/.test(t) || /^\p{Ll}/u.test(t)),
    ).length;
    if (cellsText.length && sentencey >= cellsText.length * 0.4) return true;
  }
  // Pieces of a displayed formula (operators, sub- and superscripts set apart) are not a table.
  const texts = rows
    .flat()
    .map((c) => plainOf(c.content))
    .filter(Boolean);
  // Tall brackets drawn as glyphs come as rows of their own ("( )") above and below each line.
  const operator = (t: string): boolean => /[∑∏∫√∂∇≤≥≈≠∈∉⊂⊆∪∩∀∃→←⇒⇔±×÷·∞]/.test(t) || /^[\s()[\]{}|⟨⟩]+$/u.test(t);
  // A sign or a lone letter is a formula's piece (a minus, a variable set apart), except in a full
  // grid, where it is a value: a dash for nothing, a tick, an "x" marking a cell.
  const piece = (t: string): boolean => /^[^\p{L}\p{N}$%]{1,2}$/u.test(t) || /^\p{Ll}$/u.test(t);
  const full = fullGrid(rows);
  const mathy = texts.filter((t) => operator(t) || (!full && piece(t))).length;
  if (texts.length && mathy >= texts.length * 0.3) return true;
  // An aligned set of equations: one column holds nothing but the relation sign of each line.
  const relation = /^(?:=|:=|≤|≥|<|>|≈|≡|∝|∼|≃|≠)$/u;
  for (let c = 0; c < (rows[0]?.length ?? 0); c++) {
    const col = rows.map((r) => plainOf(r[c]?.content ?? []).trim()).filter(Boolean);
    if (col.length >= 2 && col.every((t) => relation.test(t))) return true;
  }
  return false;
}

/** The table of the grid `merged` (`cols` columns as placed); null when it is no table. */
export function emitTable(merged: Line[][][], splitFrom: Set<Line>, ruled: boolean, cols: number): FoundTable | null {
  const words = new Set<Word>();
  const lines = new Set<Line>();
  // Lines cut into figures: their own words leave the text flow with the table.
  for (const l of splitFrom) {
    lines.add(l);
    for (const w of l.words) words.add(w);
  }
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  const rows: TableCell[][] = merged.map((r) =>
    r.map((cell) => {
      for (const l of cell) {
        lines.add(l);
        for (const w of l.words) words.add(w);
        x0 = Math.min(x0, l.x0);
        y0 = Math.min(y0, l.y0);
        x1 = Math.max(x1, l.x1);
        y1 = Math.max(y1, l.y1);
      }
      return { content: cellInlines(cell.flatMap((l) => l.words)) };
    }),
  );
  if (readsAsText(merged, rows)) return null;
  // Mostly empty grids are scattered text, not tables.
  const cellsFilled = rows.flat().filter((c) => c.content.length > 0).length;
  if (cellsFilled < rows.length * (rows[0]?.length ?? cols) * 0.5) return null;
  const extent = (ls: Line[], lo: (l: Line) => number, hi: (l: Line) => number): Interval =>
    ls.length ? { a: Math.min(...ls.map(lo)), b: Math.max(...ls.map(hi)) } : { a: NaN, b: NaN };
  const columns = (merged[0] ?? []).map((_, c) =>
    extent(
      merged.flatMap((r) => r[c] ?? []),
      (l) => l.x0,
      (l) => l.x1,
    ),
  );
  const rowBands = merged.map((r) =>
    extent(
      r.flat(),
      (l) => l.y0,
      (l) => l.y1,
    ),
  );
  return { x0, y0, x1, y1, rows, words, lines, ruled: false, confidence: ruled ? 0.75 : 0.6, columns, rowBands };
}
