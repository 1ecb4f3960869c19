/**
 * The statistical/lexical model of the `accurate` and `aggressive` modes: compromise (MIT), an
 * English part-of-speech tagger and named-entity recogniser with its lexicon bundled in the npm
 * package, so it runs offline. Its people and places are hints that the gazetteer scoring weighs.
 */
import nlp from 'compromise';
import type { ModelHints, ModelOracle } from './names.js';

interface OffsetJson {
  offset: { start: number; length: number };
}

/** Texts past this size are tagged piecewise: the tagger's cost grows with sentence count, not more. */
const PIECE = 20000;

function modelHints(text: string): ModelHints {
  const person: Array<[number, number]> = [];
  const place: Array<[number, number]> = [];
  for (let base = 0; base < text.length;) {
    let end = Math.min(text.length, base + PIECE);
    if (end < text.length) {
      const nl = text.lastIndexOf('\n', end);
      if (nl > base + PIECE / 2) end = nl + 1;
    }
    const piece = text.slice(base, end);
    const doc = nlp(piece);
    for (const m of doc.people().json({ offset: true }) as OffsetJson[])
      person.push([base + m.offset.start, base + m.offset.start + m.offset.length]);
    for (const m of doc.places().json({ offset: true }) as OffsetJson[])
      place.push([base + m.offset.start, base + m.offset.start + m.offset.length]);
    base = end;
  }
  return { person, place };
}

const overlaps = (list: Array<[number, number]>, s: number, e: number): boolean =>
  list.some((h) => h[0] < e && s < h[1]);

/**
 * A model that tags only the sentence around a question, once per sentence: most candidates are
 * decided by the word lists and context alone, so the tagger runs on a small part of a long text.
 */
export function modelOracle(text: string): ModelOracle {
  const cache = new Map<number, ModelHints>();
  const around = (s: number, e: number): ModelHints => {
    // Sentence bounds: a sentence end or a blank line, at most 400 characters away.
    let a = s;
    const minA = Math.max(0, s - 400);
    while (
      a > minA &&
      !(/[.!?]/.test(text[a - 1]!) && /\s/.test(text[a] ?? ' ')) &&
      !(text[a - 1] === '\n' && text[a - 2] === '\n')
    )
      a--;
    let b = e;
    const maxB = Math.min(text.length, e + 400);
    while (
      b < maxB &&
      !(/[.!?]/.test(text[b]!) && /\s/.test(text[b + 1] ?? ' ')) &&
      !(text[b] === '\n' && text[b + 1] === '\n')
    )
      b++;
    if (b < text.length) b++;
    const hit = cache.get(a);
    if (hit) return hit;
    const local = modelHints(text.slice(a, b));
    const shifted: ModelHints = {
      person: local.person.map(([x, y]) => [x + a, y + a] as [number, number]),
      place: local.place.map(([x, y]) => [x + a, y + a] as [number, number]),
    };
    cache.set(a, shifted);
    return shifted;
  };
  return {
    person: (s, e) => overlaps(around(s, e).person, s, e),
    place: (s, e) => overlaps(around(s, e).place, s, e),
  };
}
