/** The Word 97-2003 style sheet (STSH): paragraph styles with their names, bases and outline levels. */
import { type ParaProps, type CharProps, applyPapSprms, applyChpSprms, DEFAULT_PARA } from './properties.js';

/** A paragraph style of the style sheet: its name, the style it is based on and its outline level. */
export interface ParaStyle {
  name: string;
  base: number;
  outline?: number;
}

/** What the reader takes from the style sheet (STSH). */
export interface StyleSheet {
  /** Character styles: istd → emphasis, following istdBase (only bold, italic, strike are kept). */
  chars: Map<number, CharProps>;
  paras: Map<number, ParaStyle>;
}

/** Base of no style (istdBase 0x0FFF). */
export const ISTD_NIL = 0x0fff;

/**
 * Reads the style sheet: each STD's name (xstzName), kind and base, a character style's CHPX and a
 * paragraph style's outline level (sprmPOutLvl in its PAPX). Built-in "toc 1" … "toc 9" (sti 19–27)
 * and styles named "TOC n" or "Contents n" (LibreOffice's) go into `tocStyles`.
 */
export function readStyleSheet(table: Uint8Array, fc: number, lcb: number, tocStyles?: Set<number>): StyleSheet {
  const chars = new Map<number, CharProps>();
  const paras = new Map<number, ParaStyle>();
  if (lcb < 4 || fc + lcb > table.length) return { chars, paras };
  const v = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const end = fc + lcb;
  const cbStshi = v.getUint16(fc, true);
  const cstd = v.getUint16(fc + 2, true);
  const cbBase = v.getUint16(fc + 4, true);
  const raw = new Map<number, { base: number; props: CharProps }>();
  let p = fc + 2 + cbStshi;
  for (let istd = 0; istd < cstd && p + 2 <= end; istd++) {
    const cbStd = v.getUint16(p, true);
    const std = p + 2;
    p = std + cbStd;
    if (cbStd === 0 || p > end) continue;
    const sti = v.getUint16(std, true) & 0x0fff;
    const stk = v.getUint16(std + 2, true) & 0x000f;
    const base = v.getUint16(std + 2, true) >> 4;
    let q = std + cbBase;
    if (q + 2 > p) continue;
    const cch = v.getUint16(q, true);
    let name = '';
    for (let k = 0; k < cch && q + 4 + k * 2 <= p; k++) name += String.fromCharCode(v.getUint16(q + 2 + k * 2, true));
    q += 2 + cch * 2 + 2;
    // Word keeps a style's aliases after its name: "heading 1,h1".
    name = name.split(',')[0]!.trim();
    if ((sti >= 19 && sti <= 27) || /^(toc|contents)\s*\d$/i.test(name)) tocStyles?.add(istd);
    if (stk === 1) {
      // A paragraph style: its first UPX is the PAPX (istd, then the grpprl).
      const style: ParaStyle = { name, base };
      if (q + 4 <= p) {
        const cbUpx = v.getUint16(q, true);
        const props: ParaProps = { ...DEFAULT_PARA };
        applyPapSprms(table, q + 4, Math.min(p, q + 2 + cbUpx), props, undefined);
        if (props.outline < 9) style.outline = props.outline;
      }
      paras.set(istd, style);
      continue;
    }
    if (stk !== 2) continue;
    // A character style has one UPX: its CHPX grpprl.
    if (q + 2 > p) continue;
    const cbUpx = v.getUint16(q, true);
    const props: CharProps = {};
    applyChpSprms(table, q + 2, Math.min(p, q + 2 + cbUpx), props);
    raw.set(istd, { base, props });
  }
  for (const [istd] of raw) {
    const merged: CharProps = {};
    const seen = new Set<number>();
    for (
      let cur: number | undefined = istd;
      cur !== undefined && raw.has(cur) && !seen.has(cur);
      cur = raw.get(cur)!.base
    ) {
      seen.add(cur);
      const pr = raw.get(cur)!.props;
      for (const k of ['bold', 'italic', 'strike'] as const)
        if (merged[k] === undefined && pr[k] !== undefined) merged[k] = pr[k];
    }
    chars.set(istd, merged);
  }
  return { chars, paras };
}
