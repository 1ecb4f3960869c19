/**
 * The ZapfDingbats encoding: character code → Unicode (Adobe's zdingbat mapping, as pdf.js holds it
 * for the standard font). pdf.js applies it only to a Dingbats font that is not embedded; an embedded
 * one (LaTeX's pifont: \ding{51} ✓, \ding{55} ✗ in comparison tables) with its own built-in encoding
 * comes out through MacRoman as "3" and "7". src/pdf/operator-text.ts maps such glyphs back.
 */

/** Unicode of ZapfDingbats code `code`, or null where the encoding has no glyph. */
export function dingbatChar(code: number): string | null {
  const cp = dingbatCodePoint(code);
  return cp === null ? null : String.fromCodePoint(cp);
}

// Where the encoding leaves the Dingbats block's order: symbols Unicode had elsewhere already.
const OUTSIDE: Record<number, number> = {
  0x25: 0x260e,
  0x2a: 0x261b,
  0x2b: 0x261e,
  0x48: 0x2605,
  0x6c: 0x25cf,
  0x6e: 0x25a0,
  0x73: 0x25b2,
  0x74: 0x25bc,
  0x75: 0x25c6,
  0x77: 0x25d7,
  0xa8: 0x2663,
  0xa9: 0x2666,
  0xaa: 0x2665,
  0xab: 0x2660,
  0xd5: 0x2192,
  0xd6: 0x2194,
  0xd7: 0x2195,
};

function dingbatCodePoint(code: number): number | null {
  if (OUTSIDE[code] !== undefined) return OUTSIDE[code];
  if (code >= 0x21 && code <= 0x7e) return 0x2700 + (code - 0x20);
  if (code >= 0x80 && code <= 0x8d) return 0x2768 + (code - 0x80);
  if (code >= 0xa1 && code <= 0xa7) return 0x2761 + (code - 0xa1);
  if (code >= 0xac && code <= 0xb5) return 0x2460 + (code - 0xac);
  if (code >= 0xb6 && code <= 0xd4) return 0x2776 + (code - 0xb6);
  if (code >= 0xd8 && code <= 0xef) return 0x2798 + (code - 0xd8);
  if (code >= 0xf1 && code <= 0xfe) return 0x27b1 + (code - 0xf1);
  return null;
}

/** A font whose name says it is ZapfDingbats (or URW's Dingbats), subset prefix or not. */
export function isDingbatsFont(name: string | undefined): boolean {
  return !!name && /Dingbats/i.test(name);
}

/**
 * The text of a glyph of a Dingbats font: its code through the ZapfDingbats encoding, unless its
 * Unicode is already a symbol (the PDF's own ToUnicode, or pdf.js's mapping of the standard font).
 */
export function dingbatText(unicode: string, code: number | undefined): string {
  const cp = unicode.codePointAt(0);
  if (code === undefined || (cp !== undefined && cp >= 0x2190 && cp <= 0x27bf)) return unicode;
  return dingbatChar(code) ?? unicode;
}
