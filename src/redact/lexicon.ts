/**
 * Word lists the detectors look names and places up in. The large lists come from the generated
 * gazetteer (see data/README.md) and are turned into sets on first use, so a parse that never asks
 * for redaction never pays for them.
 */
import * as G from './data/gazetteer.js';

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
export const AMBIGUOUS = new Set(
  `a about above after again all also am an and any are as at away back be been before being below best between
big both but by can case could day did do does done down during each early even ever every few first for from full get given go
good great had has have he her here hers him his home how i if in into is it its just last late less like little long made make
many may me might more most much must my never new next no nor not now of off old on once one only or other our out over own
part people place put right same see she should since small so some still such take than that the their them then there these
they thing this those through thus time to too under until up upon us very was way we well were what when where which while who
why will with within without would yet you your art bill bob buck bud bunny carol chance chase chip christian claude clay cliff
colt constance crystal dale dawn dean destiny dick dot earl ernest faith fay fern frank gay gene glen grace grant guy hale hazel
heath holly hope hunter iris ivy jack jade jean jewel jim joy june justice king lane lark lily major mark marsh may mercy miles
misty nick norm olive opal pat pearl penny price prince ray reed rich rose ruby rusty sage sandy shad sky spring star sterling
stone storm summer sunny tad tank terry violet wade ward will win winter young brown white green black gray grey hill wood woods
park field fields lake rivers river street road avenue lane court square station north south east west central city town
county state country mount port bay beach island islands valley university college school church hospital hotel bank club
january february march april may june july august september october november december jan feb mar apr jun jul aug
sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun monday tuesday wednesday thursday friday
saturday sunday today tomorrow yesterday morning evening night week month year christmas easter god lord sir madam mister miss
mr mrs ms dr prof email phone mobile fax desk office address name date title subject dear hi hello hey thanks regards yes ok
english french german spanish italian dutch russian chinese japanese american british european african asian
bot user agent assistant admin system operator moderator host guest speaker interviewer customer q a
`
    .split(/\s+/)
    .filter(Boolean),
);

export function getLexicon(): Lexicon {
  if (lexicon) return lexicon;
  const placePhrases = new Map<string, string[][]>();
  const phraseStarts = new Set<string>();
  const city = new Set<string>();
  const region = setOf(G.region, REGIONS);
  const country = setOf(G.country, COUNTRY_VARIANTS);
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
    streetWord: setOf(G.streetWord, STREET_WORDS),
    common: setOf(G.common, [...AMBIGUOUS]),
  };
  return lexicon;
}

/** Street-type words of addresses in many languages (whole words; abbreviations carry their dot or not). */
export const STREET_WORDS =
  `street st str avenue ave av road rd boulevard blvd lane ln drive dr court ct place pl square sq terrace
terr way parkway pkwy highway hwy crescent cres close circle cir alley row walk grove gardens hill heights trail plaza mews
rue chemin allée allee impasse quai cours route strasse straße gasse weg platz ring allee damm ufer steig pfad via viale
piazza corso vicolo calle avenida carrera plaza paseo camino rua travessa praça praca largo estrada straat laan gracht plein
singel kade dijk vej gade allé gata gatan vägen vagen gränd torget katu tie kuja ulica ul aleja utca út tér ulitsa prospekt
sokak caddesi cadde bulevar apt apartment suite ste unit floor fl box psc unit`
    .split(/\s+/)
    .filter(Boolean);

/** Country names as people write them, beside the official forms of the word lists. */
const COUNTRY_VARIANTS = [
  'Czech Republic',
  'Czechia',
  'United States',
  'United States of America',
  'USA',
  'U.S.',
  'UK',
  'United Kingdom',
  'Great Britain',
  'Britain',
  'England',
  'Scotland',
  'Wales',
  'Northern Ireland',
  'South Korea',
  'North Korea',
  'Russia',
  'Ivory Coast',
  'Netherlands',
  'The Netherlands',
  'Holland',
  'Vatican City',
  'Hong Kong',
  'Macau',
  'Taiwan',
  'Palestine',
  'Kosovo',
  'Burma',
  'Myanmar',
  'Eswatini',
  'East Timor',
  'Timor-Leste',
  'Cape Verde',
  'Cabo Verde',
  'DR Congo',
  'Bosnia and Herzegovina',
  'North Macedonia',
  'Macedonia',
  'UAE',
  'United Arab Emirates',
  'Saudi Arabia',
  'New Zealand',
  'South Africa',
  'Sri Lanka',
  'Costa Rica',
  'Puerto Rico',
  'El Salvador',
  'Dominican Republic',
  'Trinidad and Tobago',
  'Papua New Guinea',
  'Sierra Leone',
  'Burkina Faso',
  'Central African Republic',
  'Equatorial Guinea',
  'Guinea-Bissau',
  'San Marino',
  'Faroe Islands',
  'Greenland',
  'Iceland',
  'Vietnam',
  'Viet Nam',
  'Laos',
  'Syria',
  'Iran',
  'Moldova',
  'Bolivia',
  'Venezuela',
  'Tanzania',
  'Micronesia',
];

const REGIONS = [
  'Europe',
  'Asia',
  'Africa',
  'North America',
  'South America',
  'Latin America',
  'Central America',
  'Oceania',
  'Antarctica',
  'Middle East',
  'Scandinavia',
  'Balkans',
  'Caribbean',
  'Siberia',
  'Patagonia',
];
