/**
 * Link annotations → the page's link areas: where a reader clicks to go to a web or mail address,
 * in the upright view of the page (points, top-left origin) like its text. Shared by the text pass
 * (src/pdf/extract.ts) and the OCR pass, whose recognised words are in the same view of the page.
 */
import type { Box, LinkArea } from './layout/types.js';
import { apply, type Matrix } from './matrix.js';

/** The page's annotations, or none when pdf.js cannot read them (a damaged /Annots entry). */
export async function readAnnotations(page: { getAnnotations?(p?: Record<string, unknown>): Promise<unknown[]> }): Promise<unknown[]> {
  try {
    const list = await page.getAnnotations?.();
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/**
 * Link areas read past this many on one page are left out: a generated index or a map can carry
 * thousands of links, and the layout compares every text run with the areas near it.
 */
export const MAX_LINK_AREAS = 2000;

/** Addresses a link may send a reader to from the text: never scripts, data or local files. */
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'ftp:']);

/** The web or mail address a link annotation goes to, or null (internal destinations, scripts, files). */
export function linkUrl(annotation: unknown): string | null {
  const a = annotation as { subtype?: unknown; url?: unknown } | null;
  if (!a || a.subtype !== 'Link' || typeof a.url !== 'string') return null;
  // pdf.js gives `url` only for a URI action it could make absolute (`unsafeUrl` is the raw entry).
  let parsed: URL;
  try {
    parsed = new URL(a.url);
  } catch {
    return null;
  }
  if (!LINK_PROTOCOLS.has(parsed.protocol)) return null;
  return a.url;
}

/**
 * The areas of the page's URL links in the upright view: one box per quadrilateral where the
 * annotation has them (a link over the end of one line and the start of the next), its rectangle
 * otherwise. An area as large as a quarter of the page is a click anywhere, not a link of some words.
 */
export function linkAreas(annotations: readonly unknown[], toView: Matrix, pw: number, ph: number): LinkArea[] {
  const out: LinkArea[] = [];
  for (const a of annotations) {
    if (out.length >= MAX_LINK_AREAS) break;
    let url: string | null;
    try { url = linkUrl(a); } catch { url = null; }
    if (!url) continue;
    const { rect, quadPoints } = a as { rect?: unknown; quadPoints?: unknown };
    const quads = numbers(quadPoints);
    const boxes: Array<Array<[number, number]>> = [];
    if (quads && quads.length >= 8 && quads.length % 8 === 0) {
      for (let q = 0; q + 8 <= quads.length; q += 8) {
        boxes.push([0, 2, 4, 6].map((k) => apply(toView, quads[q + k]!, quads[q + k + 1]!)));
      }
    } else {
      const r = numbers(rect);
      if (!r || r.length !== 4) continue;
      boxes.push([apply(toView, r[0]!, r[1]!), apply(toView, r[2]!, r[3]!), apply(toView, r[0]!, r[3]!), apply(toView, r[2]!, r[1]!)]);
    }
    for (const pts of boxes) {
      const box = clippedBox(pts, pw, ph);
      if (!box || (box.x1 - box.x0) * (box.y1 - box.y0) > (pw * ph) / 4) continue;
      out.push({ ...box, url });
      if (out.length >= MAX_LINK_AREAS) break;
    }
  }
  return out;
}

/** The first `max` entries of an array of finite numbers (plain or typed), or null. */
function numbers(v: unknown, max = 8 * 64): number[] | null {
  if (!Array.isArray(v) && !ArrayBuffer.isView(v)) return null;
  const list = v as ArrayLike<unknown>;
  const out: number[] = [];
  for (let i = 0; i < Math.min(list.length ?? 0, max); i++) out.push(Number(list[i]));
  return out.every(Number.isFinite) ? out : null;
}

/** The box round some points, cut to the page; null when nothing of it is on the page. */
function clippedBox(pts: Array<[number, number]>, pw: number, ph: number): Box | null {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of pts) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  if (!Number.isFinite(x0 + y0 + x1 + y1)) return null;
  x0 = Math.max(0, x0); y0 = Math.max(0, y0); x1 = Math.min(pw, x1); y1 = Math.min(ph, y1);
  return x1 > x0 && y1 > y0 ? { x0, y0, x1, y1 } : null;
}
