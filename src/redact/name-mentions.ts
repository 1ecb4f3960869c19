/**
 * Names found from other names: the people coordinated with a name already found ("Ann, Bob and
 * Carl"), and names written in lower case where the text says a name follows ("my name is anna").
 */
import { AMBIGUOUS, type Lexicon } from './lexicon.js';
import type { Detection, DetectMode } from './types.js';
import { COMMON, FIRST, flags, LAST, lower, PLACE } from './word-flags.js';
import {
  afterTrigger,
  contextTrigger,
  NAME_LABELS,
  ORG_WORDS,
  PERSON_AFTER,
  PERSON_BEFORE,
  PERSON_BEFORE_VERY_STRONG,
  TITLES,
} from './name-context.js';

const COORD_BEFORE = /(?<![\p{L}\p{M}])(\p{Lu}[\p{L}\p{M}'’-]+)(?:,[ \t]*|[ \t]+(?:and|or|&|und|et|y|e)[ \t]+)$/u;
const COORD_AFTER = /^(?:,[ \t]*|[ \t]+(?:and|or|&|und|et|y|e)[ \t]+)(\p{Lu}[\p{L}\p{M}'’-]+)(?![\p{L}\p{M}])/u;

const CONJUNCTIONS = ['and', 'or', '&', 'und', 'et', 'y', 'e'];

/**
 * Whether text[from, at) ends the way COORD_BEFORE needs: a comma and blanks, or a conjunction between
 * blanks. The pattern is anchored at the end, so it would be tried at every position of the window;
 * most names have neither before them.
 */
function coordinationBefore(text: string, from: number, at: number): boolean {
  let k = at;
  while (k > from && (text.charCodeAt(k - 1) === 32 || text.charCodeAt(k - 1) === 9)) k--;
  if (k > from && text.charCodeAt(k - 1) === 44) return true;
  if (k === at) return false;
  for (const w of CONJUNCTIONS) {
    const s = k - w.length;
    if (s - 1 >= from && text.startsWith(w, s) && (text.charCodeAt(s - 1) === 32 || text.charCodeAt(s - 1) === 9))
      return true;
  }
  return false;
}

/** Names listed with a name ("Muslija and Brown", "Rudi, Jackson and Campos") are names, repeatedly. */
export function coordinated(
  text: string,
  lex: Lexicon,
  people: Detection[],
  taken: (s: number, e: number) => boolean,
): void {
  const queue = people.filter((p) => p.score >= 0.6);
  let guard = 0;
  while (queue.length && guard++ < 200) {
    const p = queue.shift()!;
    const ws = Math.max(0, p.start - 40);
    const b = coordinationBefore(text, ws, p.start) ? COORD_BEFORE.exec(text.slice(ws, p.start)) : null;
    const a = COORD_AFTER.exec(text.slice(p.end, p.end + 40));
    const cands: Array<[number, number]> = [];
    if (b) cands.push([ws + b.index, ws + b.index + b[1]!.length]);
    if (a) {
      const s = p.end + a[0].length - a[1]!.length;
      cands.push([s, s + a[1]!.length]);
    }
    for (const [s, e] of cands) {
      const low = lower(text.slice(s, e));
      const f = flags(lex, low);
      if (f & COMMON && !(f & (FIRST | LAST))) continue;
      if (f & PLACE && !(f & (FIRST | LAST))) continue;
      if (ORG_WORDS().has(low) || TITLES().has(low) || low.length < 2 || /['’]/.test(low) || AMBIGUOUS().has(low))
        continue;
      if (people.some((q) => q.start < e && s < q.end) || taken(s, e)) continue;
      const d: Detection = { start: s, end: e, entity: 'PERSON', score: 0.65, kind: 'person-list' };
      people.push(d);
      queue.push(d);
    }
  }
}

const LOWER_WORD = /(?<![\p{L}\p{M}\p{N}])\p{Ll}[\p{Ll}\p{M}'’-]+/gu;
/** A very strong name context followed by lower-case words (group 1: the words, up to the line's end). */
const NAMED_LOWER = new RegExp(
  `(?:\\b(?:my name is|my name's|call me)|(?:^|\\n)[ \\t]*>?[ \\t]*(?:${NAME_LABELS})[ \\t]*:)[ \\t]*(\\p{Ll}[\\p{Ll}\\p{M}'’. -]*)`,
  'gu',
);
/** One word of such a name, or an initial between its words (group 1). */
const NAMED_WORD = /(\p{Ll}\.?)(?=\s|$)|\p{Ll}[\p{Ll}\p{M}'’-]+/uy;

/**
 * Names written in lower case ("follow up with patricia desrosiers"): a first and a last name from
 * the lists, neither ordinary vocabulary, with name context on one side; or one listed name right
 * after "my name is" and the like.
 */
export function lowerCaseNames(text: string, lex: Lexicon, people: Detection[], mode: DetectMode): void {
  LOWER_WORD.lastIndex = 0;
  let m: RegExpExecArray | null;
  let prev: { s: number; e: number; f: number } | null = null;
  while ((m = LOWER_WORD.exec(text)) !== null) {
    const s = m.index;
    const e = s + m[0].length;
    const f = flags(lex, m[0].replace(/['’]s$/, ''));
    const cur = { s, e, f };
    const ctxOf = (at: number): string => text.slice(Math.max(0, at - 30), at).toLowerCase();
    if (
      prev &&
      text.slice(prev.e, s) === ' ' &&
      prev.f & FIRST &&
      !(prev.f & COMMON) &&
      !(f & COMMON) &&
      (f & LAST || (mode === 'aggressive' && !(f & (PLACE | FIRST))))
    ) {
      const ctx = ctxOf(prev.s);
      const end = text.slice(e - 2, e) === "'s" ? e - 2 : e;
      if (
        (contextTrigger(ctx) && PERSON_BEFORE().test(ctx)) ||
        afterTrigger(text, end) ||
        PERSON_AFTER.test(text.slice(end, end + 28))
      ) {
        if (!people.some((q) => q.start < end && prev!.s < q.end))
          people.push({ start: prev.s, end, entity: 'PERSON', score: 0.65, kind: 'person-lower' });
      }
    } else if (f & (FIRST | LAST) && !(f & COMMON) && PERSON_BEFORE_VERY_STRONG().test(ctxOf(s))) {
      if (!people.some((q) => q.start < e && s < q.end))
        people.push({ start: s, end: e, entity: 'PERSON', score: 0.65, kind: 'person-lower' });
    }
    prev = cur;
  }
  // Right after "my name is", "name:" and the like, a name in lower case need not be in the lists
  // ("my name is vitoria", "name: hyuuma t. maida"): up to three words that are not ordinary vocabulary,
  // initials allowed between them.
  NAMED_LOWER.lastIndex = 0;
  while ((m = NAMED_LOWER.exec(text)) !== null) {
    const words = m[1]!;
    const start = m.index + m[0].length - words.length;
    let end = start;
    let count = 0;
    let at = 0;
    while (count < 3) {
      while (words[at] === ' ') at++;
      NAMED_WORD.lastIndex = at;
      const w = NAMED_WORD.exec(words);
      if (!w) break;
      const initial = w[1] !== undefined;
      if (!initial && flags(lex, w[0]) & COMMON) break;
      if (initial && count === 0) break;
      at = NAMED_WORD.lastIndex;
      if (!initial) {
        end = start + at;
        count++;
      }
    }
    if (count > 0 && !people.some((q) => q.start < end && start < q.end))
      people.push({ start, end, entity: 'PERSON', score: 0.65, kind: 'person-lower' });
  }
  // A dialogue written in lower case ("mika: \"who are you?\"" over "tracy: \"i'm ...\""): speakers at
  // the starts of two lines or more, a colon and a quotation after them; those in the lists of first
  // names that are not ordinary words are names.
  const SPEAKER = /(?:^|\n)[ \t]*(\p{Ll}[\p{Ll}\p{M}'’-]{1,20})[ \t]*:[ \t]*["“]/gu;
  const speakers: Array<[number, number]> = [];
  SPEAKER.lastIndex = 0;
  while ((m = SPEAKER.exec(text)) !== null) {
    const start = m.index + m[0].indexOf(m[1]!);
    speakers.push([start, start + m[1]!.length]);
  }
  if (speakers.length >= 2) {
    for (const [a, b] of speakers) {
      const f = flags(lex, text.slice(a, b));
      if (f & FIRST && !(f & COMMON) && !people.some((q) => q.start < b && a < q.end))
        people.push({ start: a, end: b, entity: 'PERSON', score: 0.65, kind: 'person-lower' });
    }
  }
  // Lists of lower-case first names ("silvana, adam, christopher and caleb"): three or more items, most of
  // them first names that are not ordinary words.
  const LIST = /(?<![\p{L}\p{M}])\p{Ll}[\p{Ll}\p{M}'’-]+(?:(?:,\s*|\s+and\s+|,\s*and\s+)\p{Ll}[\p{Ll}\p{M}'’-]+){2,}/gu;
  LIST.lastIndex = 0;
  while ((m = LIST.exec(text)) !== null) {
    const items: Array<[number, number]> = [];
    const ITEM = /\p{Ll}[\p{Ll}\p{M}'’-]+/gu;
    let it: RegExpExecArray | null;
    while ((it = ITEM.exec(m[0])) !== null)
      if (it[0] !== 'and') items.push([m.index + it.index, m.index + it.index + it[0].length]);
    const names = items.filter(([a, b]) => {
      const f = flags(lex, text.slice(a, b));
      return f & FIRST && !(f & COMMON);
    });
    if (items.length < 3 || names.length < Math.max(3, Math.ceil(items.length * 0.6))) continue;
    for (const [a, b] of names)
      if (!people.some((q) => q.start < b && a < q.end))
        people.push({ start: a, end: b, entity: 'PERSON', score: 0.65, kind: 'person-lower' });
  }
}
