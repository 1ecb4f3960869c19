/** PDF transformation matrices [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = [number, number, number, number, number, number];

/** The transform that applies m2 first, then m1 (pdf.js `Util.transform(m1, m2)`). */
export function mul(m1: Matrix, m2: Matrix): Matrix {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

export function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/**
 * The box round some points, cut to the page (`pw` × `ph`); null when nothing of it is on the page.
 * `allowFlat` keeps a box of no width or height (a rule drawn as a line).
 */
export function clippedBox(
  pts: Array<[number, number]>,
  pw: number,
  ph: number,
  allowFlat = false,
): { x0: number; y0: number; x1: number; y1: number } | null {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const [x, y] of pts) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  if (!Number.isFinite(x0 + y0 + x1 + y1)) return null;
  x0 = Math.max(0, x0);
  y0 = Math.max(0, y0);
  x1 = Math.min(pw, x1);
  y1 = Math.min(ph, y1);
  if (allowFlat ? x1 < x0 || y1 < y0 : x1 <= x0 || y1 <= y0) return null;
  return { x0, y0, x1, y1 };
}
