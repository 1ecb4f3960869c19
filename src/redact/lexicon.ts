/**
 * Word lists the detectors look names and places up in. The large lists come from the generated
 * gazetteer (see data/README.md) and are turned into sets on first use, so a parse that never asks
 * for redaction never pays for them.
 */
import { wordList, wordSet } from './word-lists.js';
import { gazetteer } from './gazetteer.js';

export interface Lexicon {
  first: Set<string>;
  last: Set<string>;
  city: Set<string>;
  majorCity: Set<string>;
  region: Set<string>;
  country: Set<string>;
  /** Multi-word places ("new zealand", "rio de janeiro"), by their first two words. */
  placePhrases: Map<string, string[][]>;
  /** First words of multi-word places. */
  phraseStarts: Set<string>;
  streetSuffix: string[];
  streetWord: Set<string>;
  common: Set<string>;
}

let lexicon: Lexicon | undefined;

const lower = (s: string): string => s.toLocaleLowerCase('en');
function setOf(list: string, extra: readonly string[] = []): Set<string> {
  const out = new Set<string>();
  for (const w of list.split('\n')) out.add(lower(w));
  for (const w of extra) out.add(lower(w));
  return out;
}

/**
 * Frequent English words that gazetteers also list as names or places ("Will", "Grace", "Bath").
 * A match on one of these alone is no evidence; it needs context.
 */
export const AMBIGUOUS = (): ReadonlySet<string> => wordSet('ambiguous');

export function getLexicon(): Lexicon {
  if (lexicon) return lexicon;
  const G = gazetteer();
  const placePhrases = new Map<string, string[][]>();
  const phraseStarts = new Set<string>();
  const city = new Set<string>();
  const region = setOf(G.region, REGIONS());
  const country = setOf(G.country, COUNTRY_VARIANTS());
  // The gazetteer's country names include the European Union, a union of countries and no place.
  country.delete('european union');
  const addPhrase = (name: string): void => {
    const words = name.split(/[\s-]+/).filter(Boolean);
    if (words.length < 2) return;
    const key = `${words[0]} ${words[1]}`;
    const list = placePhrases.get(key) ?? [];
    list.push(words);
    placePhrases.set(key, list);
    phraseStarts.add(words[0]!);
  };
  for (const w of G.city.split('\n')) {
    const l = lower(w);
    city.add(l);
    addPhrase(l);
  }
  for (const l of region) addPhrase(l);
  for (const l of country) addPhrase(l);
  lexicon = {
    first: setOf(G.first),
    last: setOf(G.last),
    city,
    majorCity: setOf(G.majorCity),
    region,
    country,
    placePhrases,
    phraseStarts,
    streetSuffix: [...setOf(G.streetSuffix)].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length),
    streetWord: setOf(G.streetWord, STREET_WORDS()),
    common: setOf(G.common, [...AMBIGUOUS()]),
  };
  return lexicon;
}

/** Street-type words of addresses in many languages (whole words; abbreviations carry their dot or not). */
export const STREET_WORDS = (): readonly string[] => wordList('streetWords');

/** Country names as people write them, beside the official forms of the word lists. */
const COUNTRY_VARIANTS = (): readonly string[] => wordList('countryVariants');

const REGIONS = (): readonly string[] => wordList('regions');
