/**
 * Symbol fonts of word-processing documents: their 8-bit codes are glyphs, not letters, so a Symbol
 * "a" is α. Word writes such characters as codes 0x20–0xFF or as the same codes in the private-use
 * range U+F020–U+F0FF (`w:sym w:char="F061"`, RTF `\'61` or `\u-3999` in a `\fcharset2` font,
 * .doc sprmCSymbol or text in the font). Shared by the DOCX, RTF and .doc readers.
 *
 * - Symbol: the whole Adobe Symbol encoding. Where Adobe's own table points into its private-use
 *   area (pieces of large brackets and integrals, the sans/serif ® © ™, the arrow and radical
 *   extenders), the standard Unicode character for the same glyph is used instead; Δ, Ω and μ are
 *   the Greek letters (Adobe: the increment, ohm and micro signs), the angle brackets ⟨ ⟩ the
 *   mathematical ones.
 * - Wingdings: only the glyphs used as bullets, check marks and boxes, arrows and the three faces.
 * - Other pictorial fonts (Wingdings 2 and 3, Webdings, ...): not mapped.
 */

export type SymbolFont = 'symbol' | 'wingdings';

// Adobe Symbol encoding, codes 0x20–0x7E.
const SYMBOL_LOW =
  ' !∀#∃%&∋()∗+,−./0123456789:;<=>?' + '≅ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ[∴]⊥_' + '‾αβχδεφγηιϕκλμνοπθρστυϖωξψζ{|}∼';

// Codes 0xA0–0xFE; a space marks the one code with no glyph (0xF0).
const SYMBOL_HIGH =
  '€ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…⏐⎯↵' + 'ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇®©™∏√⋅¬∧∨⇔⇐⇑⇒⇓' + '◊⟨®©™∑⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪ ⟩∫⌠⎮⌡⎞⎟⎠⎤⎥⎦⎫⎬⎭';

const WINGDINGS: Record<number, string> = {
  0x4a: '☺',
  0x4b: '😐',
  0x4c: '☹',
  0x6c: '●',
  0x6d: '❍',
  0x6e: '■',
  0x6f: '□',
  0x71: '❑',
  0x72: '❒',
  0x73: '⬧',
  0x74: '⧫',
  0x75: '◆',
  0x76: '❖',
  0x77: '⬥',
  0x78: '⌧',
  0x9e: '·',
  0x9f: '•',
  0xa0: '▪',
  0xa1: '○',
  0xa7: '▪',
  0xa8: '◻',
  0xab: '★',
  0xd8: '➢',
  0xdc: '➲',
  0xe8: '➔',
  0xef: '⇦',
  0xf0: '⇨',
  0xf1: '⇧',
  0xf2: '⇩',
  0xfb: '✗',
  0xfc: '✓',
  0xfd: '☒',
  0xfe: '☑',
};

/** The symbol font a font name stands for, if it is one this module maps. */
export function symbolFontOf(name: string | undefined): SymbolFont | undefined {
  if (!name) return undefined;
  const n = name.trim().toLowerCase();
  if (n === 'symbol' || n === 'symbol mt' || n === 'symbolmt') return 'symbol';
  if (n === 'wingdings') return 'wingdings';
  return undefined;
}

/**
 * The Unicode text of one character of a symbol font: `code` is 0x20–0xFF or the same in the
 * U+F020–U+F0FF range. '' when the font has no known equivalent; other codes come back unchanged.
 */
export function symbolChar(font: SymbolFont, code: number): string {
  const c = code >= 0xf020 && code <= 0xf0ff ? code - 0xf000 : code;
  if (c < 0x20 || c > 0xff) return String.fromCodePoint(code);
  if (font === 'wingdings') return c === 0x20 ? ' ' : (WINGDINGS[c] ?? '');
  if (c <= 0x7e) return SYMBOL_LOW.charAt(c - 0x20);
  const ch = c >= 0xa0 && c <= 0xfe ? SYMBOL_HIGH.charAt(c - 0xa0) : '';
  return ch === ' ' ? '' : ch;
}

/** Text set in a symbol font, character by character (see `symbolChar`). */
export function symbolText(font: SymbolFont, text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += symbolChar(font, text.charCodeAt(i));
  return out;
}

/**
 * Text of a Word run whose fonts may be symbol fonts: ASCII characters are set in its ASCII font,
 * the others (the U+F0xx codes among them) in its font for other text (Word's ascii/hAnsi fonts).
 */
export function symbolRunText(text: string, ascii: SymbolFont | undefined, other: SymbolFont | undefined): string {
  if (!ascii && !other) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const font = c < 0x80 ? ascii : other;
    out += font ? symbolChar(font, c) : text[i];
  }
  return out;
}
