/**
 * Labelled values set in two aligned columns ("Telephone:  0300 123 4567" over "Email:  team@…"): the
 * aligned-table pass finds a grid there, but each row is one statement, a label and its value, as a
 * form or a letterhead sets them. Read as a table, the label becomes a column head it is not; read
 * column by column, the labels come apart from their values. Each row goes back into the text flow as
 * one line, which the paragraph pass keeps a line of its own ("Label: value").
 */
import { makeLine, type Line } from '../lines.js';
import type { FoundTable } from '../tables.js';

/** A label: a few words ending in a colon. */
const LABEL = /^[\p{L}\p{N}][^:]{0,40}:$/u;

/**
 * The tables that are labelled values, taken out of `tables`, and the lines of their rows. Only a
 * grid found in aligned text (not ruled) of two columns and two rows or more, each row one line a
 * column, every left line a label.
 */
export function labelledValueRows(tables: readonly FoundTable[]): { tables: FoundTable[]; lines: Line[] } {
  const kept: FoundTable[] = [];
  const lines: Line[] = [];
  for (const t of tables) {
    const rows = t.ruled ? null : twoLineRows(t);
    if (!rows) {
      kept.push(t);
      continue;
    }
    for (const [label, value] of rows) lines.push(makeLine([...label.words, ...value.words], false));
  }
  return { tables: kept, lines };
}

/** The table's rows as (label, value) line pairs when it is such a grid; null otherwise. */
function twoLineRows(t: FoundTable): Array<[Line, Line]> | null {
  if (t.rows.length < 2 || t.rows.some((r) => r.length !== 2) || t.lines.size !== t.rows.length * 2) return null;
  const sorted = [...t.lines].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const out: Array<[Line, Line]> = [];
  for (let i = 0; i < sorted.length; i += 2) {
    const [a, b] = [sorted[i]!, sorted[i + 1]!];
    const [left, right] = a.x0 <= b.x0 ? [a, b] : [b, a];
    // One row: the two lines level with each other, side by side.
    const mid = (left.y0 + left.y1) / 2;
    if (mid < right.y0 || mid > right.y1 || left.x1 > right.x0) return null;
    if (!LABEL.test(left.text.trim()) || !right.text.trim()) return null;
    out.push([left, right]);
  }
  // Every word of the table is in those lines (no cell split out of a longer line).
  const words = new Set(out.flatMap(([l, r]) => [...l.words, ...r.words]));
  if (words.size !== t.words.size || [...t.words].some((w) => !words.has(w))) return null;
  return out;
}
