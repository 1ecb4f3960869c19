/** Line numbers in a margin (court filings, numbered manuscripts, code listings): found and set apart. */
import type { Line } from '../lines.js';

const LONE_NUMBER = /^\d{1,4}$/;

/**
 * Line numbers in a margin (court filings, numbered manuscripts, code listings): five or more lines that
 * are each a lone number, one above the other, counting up by one, with nothing but margin between them
 * and the text beside them. A tab-separated numbered list looks the same, so the column must also show
 * that it numbers lines rather than items: text that runs on from one numbered line to the next (a
 * sentence broken at the line end), numbers beside empty lines, or code beside them.
 */
export function lineNumberColumns(lines: Line[]): Line[][] {
  const nums = lines.filter((l) => LONE_NUMBER.test(l.text));
  // (A page numbers a few dozen lines; thousands of lone numbers are a table or a hostile page.)
  if (nums.length < 5 || nums.length > 1000) return [];
  const others = lines.filter((l) => !LONE_NUMBER.test(l.text));
  const groups: Line[][] = [];
  for (const l of [...nums].sort((a, b) => a.x1 - b.x1)) {
    const g = groups.find((c) => Math.abs(c[0]!.x1 - l.x1) < l.size * 0.8);
    if (g) g.push(l);
    else groups.push([l]);
  }
  const out: Line[][] = [];
  for (const g of groups) {
    if (g.length < 5 || g.length > 300) continue;
    g.sort((a, b) => a.y0 - b.y0);
    let steps = 0;
    for (let k = 1; k < g.length; k++) if (Number(g[k]!.text) === Number(g[k - 1]!.text) + 1) steps++;
    if (steps < (g.length - 1) * 0.8) continue;
    const x0 = Math.min(...g.map((l) => l.x0));
    const x1 = Math.max(...g.map((l) => l.x1));
    const y0 = g[0]!.y0;
    const y1 = g[g.length - 1]!.y1;
    const within = others.filter((o) => o.y1 > y0 && o.y0 < y1);
    // A margin: nothing else in the column's span, and the text all on one side of it.
    if (within.some((o) => o.x0 < x1 && o.x1 > x0)) continue;
    const left = within.filter((o) => o.x1 <= x0).length;
    const right = within.length - left;
    if (left && right) continue;
    const level = g.map((n) => within.filter((o) => o.y0 < n.y1 && o.y1 > n.y0));
    let evidence = 0;
    for (let k = 0; k < g.length; k++) {
      const here = level[k]!;
      if (!here.length) {
        evidence++;
        continue;
      }
      if (here.some((o) => o.mono)) {
        evidence++;
        continue;
      }
      const next = level[k + 1];
      if (next?.length && Number(g[k + 1]!.text) === Number(g[k]!.text) + 1) {
        const a = here[here.length - 1]!.text;
        const b = next[0]!.text;
        if (!/[.!?:;]["”’)]?$/.test(a) && /^[\p{Ll}(]/u.test(b)) evidence++;
      }
    }
    if (evidence >= 2) out.push(g);
  }
  return out;
}
