/**
 * Table structure scored by cell adjacency relations, the measure of the ICDAR 2013 table
 * competition (Göbel et al.): every non-empty cell is paired with its nearest non-empty neighbour
 * to the right in its row and below in its column (empty cells are skipped, so a span left blank
 * and a missing cell read alike); a relation is the tuple (text, neighbour text, direction).
 * Precision and recall compare the multisets of relations of the predicted and expected tables.
 *
 * Cell text is compared after normalisation: Unicode NFKC, a word hyphenated at a line end inside
 * the cell joined ("Preva-\nlence" = "Prevalence"), markup removed (HTML tags such as
 * `<br>` or camelot's `<s>`, markdown backslash escapes and bold/italic markers), leader dots
 * (". . . .") dropped, and all whitespace removed (wrapped, letter-spaced and re-spaced text then
 * compare equal: spacing is not table structure). A cell holding right-to-left script is compared as
 * its sorted characters: camelot keeps such text in visual order, the tools in logical order.
 *
 * Matching on a page: the pair (expected, predicted) sharing the most relations is matched first,
 * then the next among those left, one to one. An expected table left unmatched adds its relations
 * to the misses; a predicted table left unmatched adds its relations to the false ones, unless the
 * expectation covers only part of the page (`partial`), where it is not counted.
 */

export type Grid = string[][];

/** Normalised text of a cell (see the module comment). */
export function normaliseCell(text: string): string {
  const plain = text
    .normalize('NFKC')
    .replace(/(\p{L})-\s*(?:\n|<br\s*\/?>)\s*(\p{Ll})/gu, '$1$2')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    .replace(/\*\*|__/g, '')
    .replace(/(?:\s*\.){3,}/g, ' ')
    .replace(/\s+/gu, '');
  return RIGHT_TO_LEFT.test(plain) ? [...plain].sort().join('') : plain;
}

/** Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms. */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

/** Relations of a grid, as a multiset (relation key → count). */
export function relations(grid: Grid): Map<string, number> {
  const cells = grid.map((row) => row.map(normaliseCell));
  const width = Math.max(0, ...cells.map((r) => r.length));
  const out = new Map<string, number>();
  const add = (key: string): void => {
    out.set(key, (out.get(key) ?? 0) + 1);
  };
  for (let r = 0; r < cells.length; r++) {
    for (let c = 0; c < width; c++) {
      const text = cells[r]![c];
      if (!text) continue;
      for (let c2 = c + 1; c2 < width; c2++) {
        const right = cells[r]![c2];
        if (right) {
          add(`${text}\u0000${right}\u0000right`);
          break;
        }
      }
      for (let r2 = r + 1; r2 < cells.length; r2++) {
        const below = cells[r2]![c];
        if (below) {
          add(`${text}\u0000${below}\u0000below`);
          break;
        }
      }
    }
  }
  return out;
}

export function size(rel: Map<string, number>): number {
  let n = 0;
  for (const v of rel.values()) n += v;
  return n;
}

export function common(a: Map<string, number>, b: Map<string, number>): number {
  let n = 0;
  for (const [k, v] of a) n += Math.min(v, b.get(k) ?? 0);
  return n;
}

export interface Counts {
  /** Relations found in both. */
  correct: number;
  /** Relations of the predicted tables that count. */
  predicted: number;
  /** Relations of the expected tables. */
  expected: number;
}

export interface PageScore extends Counts {
  tablesExpected: number;
  /** Predicted tables that count (all of them, or only the matched ones on a partial page). */
  tablesPredicted: number;
  /** Expected tables whose matched prediction scores F1 ≥ 0.5 against them. */
  tablesRecovered: number;
  /** For each expected table, the index of its matched prediction (or -1) and that pair's F1. */
  matches: Array<{ predicted: number; f1: number }>;
}

export function f1Of(c: Counts): { precision: number; recall: number; f1: number } {
  const precision = c.predicted ? c.correct / c.predicted : c.expected ? 0 : 1;
  const recall = c.expected ? c.correct / c.expected : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/** Scores the predicted tables of a page against the expected ones (see the module comment). */
export function scorePage(expected: Grid[], predicted: Grid[], partial: boolean): PageScore {
  const e = expected.map(relations);
  const p = predicted.map(relations);
  const shared = e.map((ei) => p.map((pj) => common(ei, pj)));
  const matches = e.map(() => ({ predicted: -1, f1: 0 }));
  const takenP = new Set<number>();
  for (;;) {
    let best: [number, number, number] | undefined;
    for (let i = 0; i < e.length; i++) {
      if (matches[i]!.predicted >= 0) continue;
      for (let j = 0; j < p.length; j++) {
        if (takenP.has(j) || shared[i]![j]! <= 0) continue;
        if (!best || shared[i]![j]! > best[2]) best = [i, j, shared[i]![j]!];
      }
    }
    if (!best) break;
    const [i, j, n] = best;
    takenP.add(j);
    matches[i] = { predicted: j, f1: f1Of({ correct: n, predicted: size(p[j]!), expected: size(e[i]!) }).f1 };
  }
  let correct = 0,
    predictedRel = 0,
    tablesPredicted = 0;
  matches.forEach((m, i) => {
    if (m.predicted >= 0) correct += shared[i]![m.predicted]!;
  });
  p.forEach((pj, j) => {
    if (partial && !takenP.has(j)) return;
    predictedRel += size(pj);
    tablesPredicted++;
  });
  return {
    correct,
    predicted: predictedRel,
    expected: e.reduce((n, ei) => n + size(ei), 0),
    tablesExpected: expected.length,
    tablesPredicted,
    tablesRecovered: matches.filter((m) => m.f1 >= 0.5).length,
    matches,
  };
}

/** Splits a markdown table row into cells at pipes that are not escaped. */
function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      cur += s[i]! + s[i + 1]!;
      i++;
    } else if (s[i] === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += s[i];
  }
  cells.push(cur.trim());
  return cells;
}

const DELIMITER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** The GitHub pipe tables of a markdown text (outside code fences), header row first. */
export function markdownTables(markdown: string): Grid[] {
  const lines = markdown.split(/\r?\n/);
  const tables: Grid[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1]![0];
      else if (f[1]![0] === fence) fence = undefined;
      continue;
    }
    if (fence || !line.includes('|') || !DELIMITER.test(lines[i + 1] ?? '') || !lines[i + 1]!.includes('-')) continue;
    const grid: Grid = [splitRow(line)];
    let j = i + 2;
    while (j < lines.length && lines[j]!.trim() !== '' && lines[j]!.includes('|')) grid.push(splitRow(lines[j++]!));
    tables.push(grid);
    i = j - 1;
  }
  return tables;
}
