/** The gutters between the text columns of a page, where a table in one column is looked for apart. */
import type { Line } from '../../lines.js';
import type { Interval } from '../types.js';

/**
 * Gutters between the text columns of a page: x-intervals in the middle of the page that no line
 * crosses (lines wider than half the page, such as a title over both columns, aside), with a good
 * share of the page's lines on either side. On such a page a row of the page holds lines of both
 * columns, so a table in one column shares its rows with the prose of the other, which hides its
 * column structure; src/pdf/layout/engine.ts looks for aligned tables in each column as well.
 */
export function columnGutters(lines: Line[], pageW: number, pageH = Infinity): Interval[] {
  const body = lines.filter((l) => l.x1 - l.x0 < pageW * 0.5);
  if (body.length < 12 || !(pageW > 0)) return [];
  // Lines centred on the page (a title's last line, the authors, a centred running head or page
  // number) and lines in the top and bottom margins stand over or under all the columns: a few of
  // them may cross a gutter. (The lines of a middle column are centred on the page too, but they
  // are many, and they cross no gutter.)
  // So does the last line of a paragraph set across the columns (an abstract's), short as it may
  // be: a line wider than half the page stands right over it, from the same left edge.
  const wide = lines.filter((l) => l.x1 - l.x0 >= pageW * 0.5);
  const endsWide = (l: Line): boolean =>
    wide.some(
      (w) => Math.abs(w.x0 - l.x0) < l.size * 0.5 && l.y0 - w.y1 >= -l.size * 0.3 && l.y0 - w.y1 < l.size * 0.8,
    );
  const acrossColumns = (l: Line): boolean =>
    Math.abs((l.x0 + l.x1) / 2 - pageW / 2) < pageW * 0.02 ||
    l.y1 <= pageH * 0.08 ||
    l.y0 >= pageH * 0.92 ||
    endsWide(l);
  const crossing = Math.max(3, Math.floor(body.length * 0.05));
  // Coverage at a resolution of at most 2000 steps across the page.
  const steps = Math.min(2000, Math.ceil(pageW));
  const k = steps / pageW;
  const cover = new Int32Array(steps + 2);
  const across = new Int32Array(steps + 2);
  for (const l of body) {
    const a = Math.max(0, Math.floor(l.x0 * k));
    const b = Math.min(steps, Math.ceil(l.x1 * k));
    const c = acrossColumns(l) ? across : cover;
    c[a]! += 1;
    c[b + 1]! -= 1;
  }
  const sizes = body.map((l) => l.size).sort((a, b) => a - b);
  const minW = Math.max(4, sizes[sizes.length >> 1]! * 0.8);
  const out: Interval[] = [];
  let run = 0,
    runAcross = 0;
  let start = -1;
  for (let i = 0; i <= steps; i++) {
    run += cover[i]!;
    runAcross += across[i]!;
    const x = i / k;
    const open = run === 0 && runAcross <= crossing && x > pageW * 0.15 && x < pageW * 0.85;
    if (open && start < 0) start = i;
    if ((!open || i === steps) && start >= 0) {
      const g = { a: start / k, b: i / k };
      start = -1;
      if (g.b - g.a < minW) continue;
      const leftOf = body.filter((l) => l.x1 <= g.a + 1).length;
      const rightOf = body.filter((l) => l.x0 >= g.b - 1).length;
      if (leftOf >= body.length * 0.2 && rightOf >= body.length * 0.2) out.push(g);
    }
  }
  return out;
}
