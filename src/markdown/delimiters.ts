/** CommonMark's delimiter runs: whether an emphasis marker can open or close, by what flanks it. */
import { type Tok, tokString } from './tokens.js';

// ---------------------------------------------------------------- delimiter runs

export const PUNCT = /[\p{P}\p{S}]/u;

export type CharClass = 'space' | 'punct' | 'other';

/**
 * `tildePunct` false reads `~` as marked does for `*` and `_` under GFM (not punctuation);
 * true as CommonMark does. Markers are kept only where both readings agree.
 */
export function charClass(c: string | undefined, tildePunct: boolean): CharClass {
  if (c === undefined || /\s/u.test(c)) return 'space';
  if (c === '~' && !tildePunct) return 'other';
  return PUNCT.test(c) ? 'punct' : 'other';
}

export function charBefore(s: string, i: number): string | undefined {
  if (i <= 0) return undefined;
  const c = s.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? s.slice(i - 2, i) : s[i - 1];
}

export function charAfter(s: string, i: number): string | undefined {
  if (i >= s.length) return undefined;
  return String.fromCodePoint(s.codePointAt(i)!);
}

export interface Flanking {
  left: boolean;
  right: boolean;
  prevPunct: boolean;
  nextPunct: boolean;
}

export function flanking(prev: string | undefined, next: string | undefined, tildePunct: boolean): Flanking {
  const p = charClass(prev, tildePunct);
  const n = charClass(next, tildePunct);
  return {
    left: n !== 'space' && (n !== 'punct' || p !== 'other'),
    right: p !== 'space' && (p !== 'punct' || n !== 'other'),
    prevPunct: p === 'punct',
    nextPunct: n === 'punct',
  };
}

export function canOpen(c: string, f: Flanking): boolean {
  return c === '_' ? f.left && (!f.right || f.prevPunct) : f.left;
}

export function canClose(c: string, f: Flanking): boolean {
  return c === '_' ? f.right && (!f.left || f.nextPunct) : f.right;
}

export function layout(toks: readonly Tok[]): { str: string; at: number[] } {
  let str = '';
  const at: number[] = [];
  for (const tok of toks) {
    at.push(str.length);
    str += tokString(tok);
  }
  at.push(str.length);
  return { str, at };
}
