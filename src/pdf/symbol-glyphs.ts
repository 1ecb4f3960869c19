/**
 * Glyphs of symbol fonts that come out of a PDF as private-use code points. Word and LibreOffice
 * write a Symbol or Wingdings character as its 8-bit code moved to U+F020–U+F0FF, and the font's
 * ToUnicode (or pdf.js, from the font's built-in encoding) gives that code back: U+F0AE where the
 * page draws →. Mapped here through the font's own table (src/office/documents/symbol-fonts.ts),
 * chosen by the font's name; LibreOffice draws a missing Symbol font with its OpenSymbol, which holds
 * the Symbol encoding at the same codes.
 */
import { symbolChar, type SymbolFont } from '../office/documents/symbol-fonts.js';

const PRIVATE_CODE = /[\uf020-\uf0ff]/;

/**
 * LibreOffice draws Wingdings with OpenSymbol too, under the same private codes, so there a code
 * is ambiguous. Symbol's codes 0xE6–0xFE are pieces of tall brackets and integrals, which a formula
 * stacks and running text never shows alone: in OpenSymbol they are left as they are.
 */
function ambiguous(name: string, code: number): boolean {
  return /^OpenSymbol$/i.test(name) && code >= 0xf0e6;
}

/** The symbol table of a PDF font by its name (subset prefix removed), if it is one mapped. */
export function pdfSymbolFont(name: string): SymbolFont | undefined {
  const n = name.replace(/[-,](?:Regular|Roman|Book)$/i, '');
  if (/^(?:Symbol(?:MT|PS)?|OpenSymbol|StandardSymbols(?:PS|L)?)$/i.test(n)) return 'symbol';
  if (/^Wingdings(?:-?Regular)?$/i.test(n)) return 'wingdings';
  return undefined;
}

/**
 * `text` of a run set in font `fontName` with its private-use symbol codes replaced by the characters
 * they draw; text of other fonts, and characters outside that range, unchanged.
 */
export function symbolGlyphText(text: string, fontName: string): string {
  if (!PRIVATE_CODE.test(text)) return text;
  const font = pdfSymbolFont(fontName);
  if (!font) return text;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    out += cp >= 0xf020 && cp <= 0xf0ff && !ambiguous(fontName, cp) ? symbolChar(font, cp) || ch : ch;
  }
  return out;
}
