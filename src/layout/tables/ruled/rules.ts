/** The rules of one ruled table, and whether a rule runs at a place of its grid. */
import { GRID_SNAP } from '../thresholds.js';
import type { Seg } from './segments.js';

/** A group's horizontal and vertical rules, and how far apart two ends may be and still meet. */
export interface Rules {
  hs: Seg[];
  vs: Seg[];
  tol: number;
}

/** A split of the grid drawn by no rule: at x, from y0 down to y1. */
export interface UnruledSplit {
  x: number;
  y0: number;
  y1: number;
}

/** A vertical rule at x from ya down to yb. */
export function ruleDownAt(rules: Rules, x: number, ya: number, yb: number): boolean {
  return rules.vs.some((q) => Math.abs(q.x0 - x) <= GRID_SNAP && q.y0 <= ya + rules.tol && q.y1 >= yb - rules.tol);
}

/** A horizontal rule at y from xa across to xb. */
export function ruleAcrossAt(rules: Rules, y: number, xa: number, xb: number): boolean {
  return rules.hs.some((q) => Math.abs(q.y0 - y) <= GRID_SNAP && q.x0 <= xa + rules.tol && q.x1 >= xb - rules.tol);
}
