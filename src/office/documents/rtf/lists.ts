/** RTF list labels (\\listtext) and list-table number formats (\\levelnfc): what number a label shows. */
/** A level of a list definition (\listlevel): its number format (\levelnfc) and first number. */
export interface ListLevelDef {
  nfc: number;
  start: number;
}

/** \levelnfc values: 23 is a bullet, 255 no number at all; 1/2 roman and 3/4 letter numbering. */
export const NFC_BULLET = 23;
export const NFC_NONE = 255;
export const NFC_ROMAN = new Set([1, 2]);
export const NFC_LETTER = new Set([3, 4]);

export const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };

export function romanValue(s: string): number | undefined {
  let total = 0;
  const t = s.toLowerCase();
  for (let k = 0; k < t.length; k++) {
    const v = ROMAN[t[k]!];
    if (v === undefined) return undefined;
    const next = ROMAN[t[k + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total || undefined;
}

/** Word's letter numbering: a … z, then aa … zz (the letter repeated). */
export function letterValue(s: string): number | undefined {
  const t = s.toLowerCase();
  if (!/^([a-z])\1*$/.test(t)) return undefined;
  return (t.length - 1) * 26 + t.charCodeAt(0) - 96;
}

/**
 * The number a list label shows for its own level: the last figure of "3.", "1.2.4.", "(c)", "iv)"
 * or "Step 7:", read by the level's number format when known (an "i" is roman in a roman list, a
 * letter in a lettered one). Undefined when the label holds no number.
 */
export function labelNumber(label: string, nfc?: number): number | undefined {
  const tokens = label.match(/[0-9]+|[A-Za-z]+/g);
  const last = tokens?.[tokens.length - 1];
  if (!last) return undefined;
  if (/^[0-9]+$/.test(last)) return Number(last);
  if (nfc !== undefined && NFC_ROMAN.has(nfc)) return romanValue(last);
  if (nfc !== undefined && NFC_LETTER.has(nfc)) return letterValue(last);
  // Unknown format: a lone letter other than i is a letter; longer runs of roman digits are roman.
  if (last.length === 1 && !/^[iI]$/.test(last)) return letterValue(last);
  return romanValue(last) ?? letterValue(last);
}

/** A label that numbers its item: "3.", "1.2.", "(a)", "iv)"; a lone "o" or "§" is a bullet glyph. */
export function isNumberLabel(label: string): boolean {
  return /^[(\[]?\d+(?:[.-]\d+)*[.):\]]?$/.test(label) || /^[(\[]?(?:\d+[.-])*[A-Za-z]{1,4}[.)\]]$/.test(label);
}

export const BULLET_LABEL = /^[•·o§▪◦■□➢✓\-*–]$/;
