/**
 * List markers: bullets, numbers and letters opening a line, Word's "o" bullets, picture bullets,
 * the numbers of a multi-level list, and where an item's text starts after its marker.
 */
import type { Line } from '../lines.js';
import { MAX_LINES_COMPARED } from '../thresholds.js';
import type { Box } from '../types.js';
import { hOverlap, type Marker } from './elements.js';

const BULLET_RE = /^([•●▪■◦○◆◇►▶‣⁃∙·✓✔➢➤❖□☐❑]|[-–—*](?=\s))\s*/;
const ENUM_RE =
  /^(\(?(\d{1,3})[.)]|\((\d{1,3})\)|\(?([a-z])[.)]|\(?((?:i|ii|iii|iv|v|vi|vii|viii|ix|x))[.)])(?=\s|$)\s*/;

/**
 * Word's second-level bullet: a lone "o" set in a fixed-pitch face (Courier New) before the item's
 * text in another face, a tab away (more than half an em; a word space is a quarter).
 */
export function letterBullet(L: Line): Marker | null {
  const [o, next] = L.words;
  if (!o || !next || o.text.trim() !== 'o' || !o.mono || next.mono || next.x0 - o.x1 < L.size * 0.5) return null;
  return { kind: 'bullet', text: 'o ', value: 0 };
}

/**
 * Picture bullets: a small image (no larger than the line's type, no smaller than a third of it)
 * standing level with a line, just before its first word. An icon before a line (a phone beside a
 * number) looks the same, so it is a bullet only among list items: another line bulleted so at the
 * same place, or an item with a marker within two lines above or below. The box of each bullet,
 * by its line.
 */
export function pictureBullets(lines: readonly Line[], pictures: readonly Box[]): Map<Line, Box> {
  const found = new Map<Line, Box>();
  if (!pictures.length || lines.length > MAX_LINES_COMPARED) return found;
  for (const L of lines) {
    for (const p of pictures) {
      const w = p.x1 - p.x0,
        h = p.y1 - p.y0,
        cy = (p.y0 + p.y1) / 2;
      if (w > L.size * 1.2 || h > L.size * 1.2 || w < L.size * 0.2 || h < L.size * 0.2) continue;
      if (cy < L.y0 || cy > L.y1 || p.x1 > L.x0 + 0.5 || L.x0 - p.x1 > L.size * 2) continue;
      found.set(L, p);
      break;
    }
  }
  const out = new Map<Line, Box>();
  for (const [L, p] of found) {
    const twin = [...found].some(
      ([M, q]) => M !== L && Math.abs(q.x0 - p.x0) < 1 && Math.abs(M.y0 - L.y0) < L.size * 10,
    );
    const amongItems = lines.some(
      (M) =>
        M !== L &&
        Math.abs(M.y0 - L.y0) < (M.y1 - M.y0 + L.y1 - L.y0) * 1.25 &&
        hOverlap(M, L) > -L.size * 4 &&
        (listMarker(M.text) ?? letterBullet(M)),
    );
    if (twin || amongItems) out.set(L, p);
  }
  return out;
}

const MULTILEVEL_RE = /^((\d{1,3})(?:\.(\d{1,3})){1,4})\.?\s+(?=\S)/;

/**
 * An item of a multi-level numbered list ("1.1." under "1.", "1.1.2." under "1.1."): its number
 * goes on from the number of a numbered list item above it (`items`) set further left, in the same
 * column, and it is numbered by its last part, as the list it is nested in counts. Under no such
 * item, a number of several parts opens a section ("2.1 Methods" under "2 Introduction", at one
 * margin), a clause or a contents entry ("2.3.59.1.2 Authority" under "2.3.59.1 Program Scope"),
 * and stays text with its number. `above` holds the lines before it in reading order, nearest last.
 */
export function nestedNumber(L: Line, above: readonly Line[], items: ReadonlyMap<Line, Marker>): Marker | null {
  const m = MULTILEVEL_RE.exec(L.text);
  if (!m) return null;
  const parent = m[1]!.replace(/\.\d{1,3}$/, '');
  for (let k = above.length - 1; k >= 0 && k >= above.length - 60; k--) {
    const M = above[k]!;
    if (L.y0 - M.y1 > L.size * 20) break;
    if (M.x1 <= L.x0 - L.size * 20 || M.x0 >= L.x1 || !(M.x0 < L.x0 - L.size * 0.6) || items.get(M)?.kind !== 'number')
      continue;
    const own = /^(\d{1,3}(?:\.\d{1,3}){0,4})[.)]?\s/.exec(M.text);
    if (own && own[1] === parent) return { kind: 'number', text: m[0], value: Number(m[1]!.split('.').pop()) };
  }
  return null;
}

export function listMarker(text: string): Marker | null {
  const b = BULLET_RE.exec(text);
  if (b && text.length > b[0].length) return { kind: 'bullet', text: b[0], value: 0 };
  const e = ENUM_RE.exec(text);
  if (e && text.length > e[0].length) {
    const n = e[2] ?? e[3];
    if (n) return { kind: 'number', text: e[0], value: Number(n) };
    return { kind: 'letter', text: e[0], value: 0 };
  }
  return null;
}

export function textStart(line: Line, marker: Marker): number {
  // Position of the first character after the marker text. pdf.js often gives the marker and the
  // first words as one run ("1. An o"): then the position inside that run is estimated by characters.
  const need = marker.text.replace(/\s+/g, '').length;
  let acc = 0;
  for (const w of line.words) {
    if (acc >= need) return w.x0;
    const t = w.text;
    const chars = t.replace(/\s+/g, '').length;
    if (acc + chars > need) {
      let k = 0;
      for (let seen = 0; k < t.length && seen < need - acc; k++) if (!/\s/.test(t[k]!)) seen++;
      while (k < t.length && /\s/.test(t[k]!)) k++;
      return w.x0 + (w.x1 - w.x0) * (k / t.length);
    }
    acc += chars;
  }
  const frac = marker.text.length / Math.max(1, line.text.length);
  return line.x0 + (line.x1 - line.x0) * frac;
}
