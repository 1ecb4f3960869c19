/**
 * The statistical/lexical model of the `accurate` and `aggressive` modes: compromise (MIT), an
 * English part-of-speech tagger and named-entity recogniser with its lexicon bundled in the npm
 * package, so it runs offline. Its people and places are hints that the gazetteer scoring weighs.
 */
import nlp from 'compromise';
import type { ModelHints } from './names.js';

interface OffsetJson {
  offset: { start: number; length: number };
}

/** Texts past this size are tagged piecewise: the tagger's cost grows with sentence count, not more. */
const PIECE = 20000;

export function modelHints(text: string): ModelHints {
  const person: Array<[number, number]> = [];
  const place: Array<[number, number]> = [];
  for (let base = 0; base < text.length; ) {
    let end = Math.min(text.length, base + PIECE);
    if (end < text.length) {
      const nl = text.lastIndexOf('\n', end);
      if (nl > base + PIECE / 2) end = nl + 1;
    }
    const piece = text.slice(base, end);
    const doc = nlp(piece);
    for (const m of doc.people().json({ offset: true }) as OffsetJson[]) person.push([base + m.offset.start, base + m.offset.start + m.offset.length]);
    for (const m of doc.places().json({ offset: true }) as OffsetJson[]) place.push([base + m.offset.start, base + m.offset.start + m.offset.length]);
    base = end;
  }
  return { person, place };
}
