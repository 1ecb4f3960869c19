/**
 * What a line's text says about its place in a table: a caption, a labelled value, a contents entry,
 * a line that goes on from the one above or cannot end its cell, a bullet, wide (CJK) characters.
 */
import { ENDS_ON_JOINING_WORD } from '../lines.js';

/**
 * A caption's label: "Table 2.", "Figure 3:", "Fig. 4a". The label's number is digits, a roman
 * numeral or one letter ("Table of Contents" is no caption).
 */
export const CAPTION_RE =
  /^(?:fig\.?|figure|table|tab\.|chart|exhibit|image|photo|plate|diagram|graph|listing)\s*(?:[a-z]?\d+(?:[.\-–]\d+)*[a-z]?|(?<=\s)(?:[ivxlc]+|[a-z](?:\.\d+)?))\s*[.:)\-–—]?(?:\s|$)/i;

/** "Label: value" in one line (a form's field, a metadata line). */
export const LABELLED_VALUE = /^[\p{Lu}\p{N}][^:.!?]{0,40}:\s+\S/u;

// A contents entry: a title, dot leaders, a page number (arabic or roman).
const CONTENTS_ENTRY = /\S.*?(?:\.\s?){4,}\s*(?:\d{1,4}|[ivxlc]{1,6})$/i;

/** A column most of whose cells are contents entries. */
export function contentsColumn(cells: string[]): boolean {
  return cells.length >= 3 && cells.filter((t) => CONTENTS_ENTRY.test(t.trim())).length >= cells.length * 0.7;
}

/**
 * A line of a cell that cannot end the cell: it stops on a joining word or sign ("Northern
 * Fabrication and" over "Welding Services Ltd", "Consoli-" over "dated").
 */
export const openEnd = (text: string): boolean => /\p{L}[,&/-]$/u.test(text) || ENDS_ON_JOINING_WORD.test(text);

/** A line that can only go on a cell above it: it starts in lower case. */
export const GOES_ON = /^\p{Ll}/u;

/** A bullet or note sign opening a line ("* ", "• "). */
export const NOTE_MARKER = /^[•●▪■◦○\-–*※]\s*/;

const WIDE_CHAR = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\uFF01-\uFF60]/gu;

/** Width of a text in Latin characters: Hangul, Han and kana are set about twice as wide. */
export function displayLength(s: string): number {
  return [...s].length + (s.match(WIDE_CHAR)?.length ?? 0);
}

/**
 * The words of a text, for telling prose from cells: words between spaces, where Chinese and Japanese,
 * written without spaces, count a word for every two characters (their words are mostly one to
 * three characters long).
 */
export function wordsIn(s: string): number {
  const spaced = s.split(/\s+/).filter(Boolean).length;
  const wide = s.match(WIDE_CHAR)?.length ?? 0;
  return wide ? Math.max(spaced, Math.round(wide / 2)) : spaced;
}

/** A line that opens with a bullet and goes on with its text ("● Topic 1", "- item"). */
export const BULLETED = /^(?:[•●▪■◦○◆◇►▶‣⁃∙·➢➤❖]|[-–—*](?=\s))\s*\S/u;
