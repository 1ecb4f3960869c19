/**
 * What the word lists say of a word, shared by the name and the address detectors: its character
 * classes, whether it is a first or last name, a place or ordinary vocabulary (as membership bits,
 * cached per word).
 */
import type { Lexicon } from './lexicon.js';
import { wordList, wordSet } from './word-lists.js';

/** Character classes of the Basic Multilingual Plane: 0 other, 1 lower-case letter, 2 upper-case letter, 3 other letter or mark. */
let charClass: Uint8Array | undefined;
export function classes(): Uint8Array {
  if (charClass) return charClass;
  const t = new Uint8Array(65536);
  for (let c = 0; c < 65536; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    if (c < 128) {
      t[c] = c >= 65 && c <= 90 ? 2 : c >= 97 && c <= 122 ? 1 : 0;
      continue;
    }
    const ch = String.fromCharCode(c);
    t[c] = /\p{Lu}/u.test(ch) ? 2 : /\p{Ll}/u.test(ch) ? 1 : /[\p{L}\p{M}]/u.test(ch) ? 3 : 0;
  }
  charClass = t;
  return t;
}
export const MONTHS_DAYS = (): ReadonlySet<string> => wordSet('monthsDays');
export const lower = (s: string): string => s.toLowerCase();
const COMMON_SUFFIXES = (): readonly string[] => wordList('commonSuffixes');

function derived(low: string): boolean {
  if (low.length < 6) return false;
  for (const suf of COMMON_SUFFIXES()) if (low.endsWith(suf)) return true;
  return false;
}
/** Ordinary vocabulary: in the word lists, or built with a derivational suffix names do not have. */
export function isCommon(lex: Lexicon, low: string): boolean {
  return (flags(lex, low) & COMMON) !== 0;
}
export const FIRST = 1;
export const LAST = 2;
export const PLACE = 4;
export const COMMON = 8;
/** Word → membership bits. Words repeat (Zipf): looking each up once in the large sets saves most of the time. */
const flagCache = new Map<string, number>();

/** Empties the cache of membership bits (see clearWordCaches in names.ts). */
export function clearFlagCache(): void {
  flagCache.clear();
}

export function flags(lex: Lexicon, low: string): number {
  let f = flagCache.get(low);
  if (f !== undefined) return f;
  f = 0;
  if (lex.first.has(low)) f |= FIRST;
  if (lex.last.has(low)) f |= LAST;
  if (lex.city.has(low) || lex.country.has(low) || lex.region.has(low)) f |= PLACE;
  if (lex.common.has(low) || (derived(low) && !(f & (FIRST | LAST)))) f |= COMMON;
  if (flagCache.size > 100000) flagCache.clear();
  flagCache.set(low, f);
  return f;
}
export function isPlace(lex: Lexicon, low: string): boolean {
  return (flags(lex, low) & PLACE) !== 0;
}

export function isName(lex: Lexicon, low: string): boolean {
  return (flags(lex, low) & (FIRST | LAST)) !== 0;
}
