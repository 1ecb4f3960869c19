/**
 * Names of people and places: capitalised word sequences scored from gazetteer membership (first and
 * last names of many languages, GeoNames places, countries, regions) and the words around them
 * ("Mr.", "my name is", "lives in", "'s", "said"). Street addresses and postal codes are found from
 * their shape (house number next to a street-type word, "Apt. 12", "PSC 1234, Box 5678") and grown over
 * the lines or comma-separated parts that continue them.
 */
import { AMBIGUOUS, getLexicon, STREET_WORDS, type Lexicon } from './lexicon.js';
import { CAPITAL_SET, digitRuns } from './patterns.js';
import type { Detection, DetectMode } from './types.js';

/** Spans a model found, keyed by entity. */
export interface ModelHints {
  person: Array<[number, number]>;
  place: Array<[number, number]>;
}

/** Asked only for candidates the model can decide (within its weight of a threshold). */
export interface ModelOracle {
  person(s: number, e: number): boolean;
  place(s: number, e: number): boolean;
}

/** Character classes of the Basic Multilingual Plane: 0 other, 1 lower-case letter, 2 upper-case letter, 3 other letter or mark. */
let charClass: Uint8Array | undefined;
function classes(): Uint8Array {
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

const MONTHS_DAYS = new Set([
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'mon',
  'tue',
  'wed',
  'thu',
  'fri',
  'sat',
  'sun',
]);

const PARTICLE_WORDS = new Set([
  'van',
  'von',
  'de',
  'der',
  'den',
  'ten',
  'ter',
  'da',
  'di',
  'du',
  'del',
  'della',
  'dos',
  'das',
  'do',
  'le',
  'la',
  'bin',
  'ibn',
  'al',
  'el',
  'y',
  'af',
  'zu',
]);

/**
 * Runs of capitalised words ("Angela Lundström", "Willemine ten Pas", "J. R. Smith") as [start, end),
 * found with one pass over the characters: a regular expression over every upper-case letter costs
 * more than all other detectors together.
 */
export function capitalisedRuns(text: string): Array<[number, number]> {
  const flat = capitalisedRunsFlat(text);
  const out: Array<[number, number]> = [];
  for (let k = 0; k < flat.length; k += 3) out.push([flat[k]!, flat[k + 1]!]);
  return out;
}

/** Whether a lower-case letter can start a particle word (PARTICLE_WORDS), by character code. */
const PARTICLE_FIRST = new Uint8Array(128);
for (const w of PARTICLE_WORDS) PARTICLE_FIRST[w.charCodeAt(0)] = 1;
const PARTICLE_MAX = Math.max(...[...PARTICLE_WORDS].map((w) => w.length));

const CAPITAL = new RegExp(`[${CAPITAL_SET}]`, 'g');

/**
 * capitalisedRuns as a flat list start0, end0, words0, start1, end1, words1, ...: no small arrays to
 * collect, and the number of words (1 or more) tells single words, most runs, without a search.
 */
function capitalisedRunsFlat(text: string, capitals?: number[]): number[] {
  const cls = classes();
  const out: number[] = [];
  const n = text.length;
  const isWordChar = (i: number): boolean => {
    const c = text.charCodeAt(i);
    return cls[c]! !== 0 || c === 39 || c === 0x2019;
  };
  /** End of the word or initial starting at i (an upper-case letter), or -1. */
  const item = (i: number): number => {
    if (i + 1 < n && text.charCodeAt(i + 1) === 46 && (i + 2 >= n || cls[text.charCodeAt(i + 2)]! === 0)) return i + 2; // "J."
    let j = i + 1;
    for (;;) {
      while (j < n && isWordChar(j)) j++;
      if (j + 1 < n && text.charCodeAt(j) === 45 && cls[text.charCodeAt(j + 1)]! !== 0) {
        j += 1;
        continue;
      }
      break;
    }
    // A possessive is not part of the name: "Matej's address".
    const q = text.charCodeAt(j - 2);
    if (j - i > 3 && (q === 39 || q === 0x2019) && (text.charCodeAt(j - 1) === 115 || text.charCodeAt(j - 1) === 83))
      j -= 2;
    // A closing quote is not part of the name either: 'Mary called John'.
    while (j - i > 1 && (text.charCodeAt(j - 1) === 39 || text.charCodeAt(j - 1) === 0x2019)) j--;
    return j;
  };
  // Jump from one possible capital to the next; the regular expression's character-class scan is
  // much faster than a loop over every character.
  const jump = CAPITAL;
  jump.lastIndex = 0;
  // With the caller's list of capitals (collected by the pass over every character for secret hints),
  // the capitals after a word character (camelCase, ALL CAPS: more than half of them in prose with code)
  // are not even visited: each would be passed over below with the rest of its word, and one after a
  // sign of the set (the multiplication sign) with the word after the sign.
  let k = 0;
  const next = (): number => {
    if (capitals === undefined) return jump.test(text) ? jump.lastIndex - 1 : -1;
    while (k < capitals.length && capitals[k]! < jump.lastIndex) k++;
    return k < capitals.length ? capitals[k]! : -1;
  };
  // test() rather than exec(): no match object per capital; the match is one character, before lastIndex.
  for (let i = next(); i >= 0; i = next()) {
    if (cls[text.charCodeAt(i)]! !== 2 || (i > 0 && isWordChar(i - 1))) {
      // Inside a word (camelCase, ALL CAPS): skip the rest of it.
      let j = i + 1;
      while (j < n && isWordChar(j)) j++;
      jump.lastIndex = j;
      continue;
    }
    const start = i;
    let end = item(i);
    let words = 1;
    for (;;) {
      const sp = text.charCodeAt(end);
      if (sp !== 32 && sp !== 0xa0) break;
      let j = end + 1;
      // Particles between name parts: "Willemine ten Pas", "Vincent van Gogh".
      for (let guard = 0; guard < 3; guard++) {
        // Most words after a name are ordinary lower-case words: their first letter or length rules them out.
        const first = text.charCodeAt(j);
        if (cls[first]! !== 1 || first >= 128 || PARTICLE_FIRST[first] === 0) break;
        let w = j;
        while (w < n && cls[text.charCodeAt(w)]! === 1) w++;
        const ch = text.charCodeAt(w);
        if ((ch !== 32 && ch !== 0xa0) || w - j > PARTICLE_MAX || !PARTICLE_WORDS.has(text.slice(j, w))) break;
        j = w + 1;
      }
      if (cls[text.charCodeAt(j)]! !== 2) break;
      end = item(j);
      words++;
    }
    out.push(start, end, words);
    jump.lastIndex = end;
  }
  return out;
}

const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'professor',
  'sir',
  'madam',
  'dame',
  'lord',
  'lady',
  'rev',
  'reverend',
  'fr',
  'hon',
  'capt',
  'captain',
  'col',
  'gen',
  'sgt',
  'lt',
  'president',
  'senator',
  'judge',
  'mister',
  'mme',
  'mlle',
  'herr',
  'frau',
  'sr',
  'sra',
  'srta',
  'dott',
  'dra',
  'uncle',
  'aunt',
  'king',
  'queen',
  'prince',
  'princess',
  'officer',
  'agent',
  'detective',
  'coach',
  'nurse',
  'doctor',
]);

const ORG_WORDS = new Set([
  'inc',
  'llc',
  'ltd',
  'corp',
  'corporation',
  'company',
  'co',
  'associates',
  'group',
  'partners',
  'holdings',
  'bank',
  'university',
  'college',
  'institute',
  'school',
  'hospital',
  'foundation',
  'orchestra',
  'band',
  'records',
  'church',
  'club',
  'society',
  'association',
  'council',
  'committee',
  'agency',
  'department',
  'ministry',
  'gmbh',
  'ag',
  'sa',
  'bv',
  'plc',
  'limited',
  'technologies',
  'systems',
  'solutions',
  'services',
  'investments',
  'industries',
  'international',
  'global',
  'media',
  'press',
  'labs',
  'studios',
  'airlines',
  'motors',
  'consulting',
  'capital',
  'ventures',
  'enterprises',
  'trust',
  'fund',
  'network',
  'museum',
  'library',
  'center',
  'centre',
  'hotel',
  'restaurant',
  'cafe',
  'café',
  'street',
  'avenue',
  'road',
  'times',
  'post',
  'news',
  'journal',
  'magazine',
  'award',
  'awards',
  'prize',
  'act',
  'law',
  'treaty',
  'war',
  'day',
  'festival',
  'stripes',
  'beatles',
  'tv',
  'radio',
  'country',
  'county',
  'state',
  'city',
  'river',
  'lake',
  'mountain',
  'mountains',
  'island',
  'islands',
  'park',
  'square',
  'station',
  'airport',
  'bridge',
  'tower',
  'castle',
  'palace',
  'cathedral',
  'abbey',
  'valley',
  'beach',
  'bay',
  'sea',
  'ocean',
]);

const PLACE_BEFORE =
  /(?:\b(?:in|from|near|into|visit|visited|visiting|born in|based in|lives in|living in|live in|located in|(?:moved|move|moving|flew|fly|flying|travel(?:l?ing|led)?|trip|arrived|arriving|headed|heading|returned|return|welcome|relocated|relocating|went|going|go|came|coming|come|back|way|drive|drove|train|flight|bus|road)\s+(?:back\s+)?(?:here\s+)?(?:to|at|in|from|into)|towards|toward|around|across|outside|throughout|city of|town of|village of|province of|state of|region of|republic of|kingdom of|university of|capital of|southern|northern|eastern|western|central|downtown|home (?:city|town|country)|native)\s+(?:the\s+)?$)|(?:where|city|town|country|location|state|region|province|place of birth|birthplace|hometown|nationality|citizenship)\s*:\s*$/;
const PERSON_BEFORE =
  /(?:\b(?:name(?:'s| is|d)|names are|called|call me|i'm|i am|this is|it's|it is|hi|hello|hey|dear|thanks|thank you|by|with|said|says|say|told|tell|ask|asked|meet|met|contact|follow up with|ceo|cto|cfo|founder|director|manager|producer|songwriter|singer|author|writer|actor|actress|player|artist|father|mother|brother|sister|son|daughter|wife|husband|partner|friend|kid|child|boss|colleague|assistant|uncle|aunt|cousin|grandfather|grandmother|nephew|niece|under|to|from|for|and|or|&|,|with|starring|directed|featuring|feat\.?|vs\.?|cc:?|attn:?|signed|sincerely|regards|best|cheers|love|yours)\s*$)|(?:^|\n)\s*(?:name|full name|first name|last name|surname|contact|attn|attendee|patient|employee|customer|client|user|from|to|cc|signed|author|by|manager|owner|holder|beneficiary|recipient|sender|directed by|written by|starring)\s*:?\s*$/;
/** A postal code right after a place's name: five digits (ZIP+4), four, or Portugal's and Poland's forms. */
const POSTAL_AFTER = /^,?[ \t]+(?:\d{5}(?:-\d{4})?|\d{4}-\d{3}|\d{2}-\d{3}|\d{4})(?![\d\p{L}])/u;
/** Labels of letter, memo and mail headers ("Attn:", "Cc:"): a line starting so is no speaker's. */
const HEADER_LABELS = new Set([
  'attn',
  'cc',
  'bcc',
  're',
  'fwd',
  'fw',
  'ps',
  'encl',
  'enc',
  'ref',
  'tel',
  'fax',
  'subj',
  'nb',
  'fyi',
  'rsvp',
  'tbd',
  'eta',
  'ext',
  'mob',
  'ph',
  'dept',
  'memo',
]);
const PERSON_BEFORE_STRONG =
  /(?:\b(?:follow up with|assistant to|my name is|name is|named|called|call me|i'm|i am|this is|hi|hello|hey|dear|maiden name is|last name|first name|surname|said|says|told|asked|starring|directed by|written by|produced by|not by|sung by|meet|ask)\s*[:?]?\s*$)|(?:^|\n)\s*>?\s*(?:name|full name|first name|last name|surname|attn|patient|employee|customer|client|user|from|to|cc|bcc|signed|author|directed by|prepared by|approved by|reviewed by|submitted by)\s*:\s*$/;
const TITLE_BEFORE =
  /\b(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dame|lord|lady|rev|capt|mister|mme|mlle|herr|frau|sr|sra|srta)\.?\s+$/;
/** Labels at a line's start after which what follows is a name. */
const NAME_LABELS = 'name|full name|first name|last name|surname|patient|employee|attn|attendee';
// (Or a relative or friend of the writer's or someone's, named right after: "my kid Dzhambek".)
const PERSON_BEFORE_VERY_STRONG = new RegExp(
  `(?:\\b(?:my name is|name is|names are|named|called|call me|maiden name is|last name|first name|surname|name(?:'s)?\\s*[?:]|(?:my|his|her|our|your|their) (?:kid|child|son|daughter|wife|husband|brother|sister|mother|father|mom|mum|dad|uncle|aunt|cousin|nephew|niece|grandson|granddaughter|grandmother|grandfather|grandma|grandpa|boyfriend|girlfriend|fianc[ée]e?|friend|neighbou?r))\\s*[:?]?\\s*$)|(?:^|\\n)\\s*>?\\s*(?:${NAME_LABELS})\\s*:\\s*$`,
);
const PERSON_AFTER_STRONG =
  /^(?:'s\b|’s\b|\s*(?:said|says|told|asked|shouted|replied|wrote|explained|lives|lived|works|worked|spent|began|joined|flew|had given|is a very|is very|is so|will be talking|is from|from (?:the )?\p{Lu}|speak|, can [iI]|, the \w+, said|\(born))/u;
const PERSON_AFTER =
  /^(?:'s\b|’s\b|\s*(?:said|says|told|asked|shouted|replied|wrote|explained|added|noted|lives|lived|works|worked|is a|is an|was a|was an|is very|is so|has|had|will|would|and (?:his|her) |who\b|himself|herself|spent|began|joined|left|flew|arrived|moved|is from|from\b|\(born|, who|, the|, a |:\s*["“]|:\s*\S))/;
const ADDRESS_BEFORE =
  /(?:\b(?:lives (?:at|on)|live (?:at|on)|located at|address(?: is|:)?|addresses|at|on|to|send(?: it)? to|ship(?: it)? to|deliver(?: it)? to|return to|meet (?:me|you) at|drops you off at|arrived at|corner of|in|from|update.*address.*(?:is|with|to)|billing address:?|shipping address:?)\s*:?\s*$)/;

/** Contexts that announce a place more surely than a bare "in" or "from" (which also precede products and firms). */
const PLACE_STRONG =
  /(?:\b(?:grew up in|born in|raised in|lives in|live in|living in|based in|located in|moved (?:here )?(?:to|from)|relocated to|flew (?:in )?to|fly to|flying to|travel(?:l)?ing to|travel(?:l)?ed to|trip to|arrived (?:at|in)|returned to|originally from|hometown(?: of)?|home (?:city|town)|city of|town of|village of|university of|college of|visit(?:ed|ing)?|i am in|i'm in|we are in|we're in|stay(?:ing|ed)? in|welcome to)\s+(?:the\s+)?$)|(?:^|\n)\s*(?:where|city|town|location|birthplace|place of birth|hometown)\s*:\s*$/;

const POSSESSIVE_HUMAN =
  /^['’]s\s+(?:new\s+|old\s+|own\s+)?(?:address|kids?|children|son|daughter|wife|husband|mother|father|mom|dad|brother|sister|family|friends?|boss|phone|number|e-?mail|birthday|house|home|car|account|name|song|novel|book|killers?|death|life|office|desk|team|parents?|partner|girlfriend|boyfriend)\b/;

const SENTENCE_END = /(?:^|[.!?]["”’)]?\s+|\n\s*(?:[>*\-+#|]+\s*)?|^\s*["“(]\s*|[:;]\s+["“]?)$/;

const lower = (s: string): string => s.toLowerCase();
const stripDot = (s: string): string => (s.endsWith('.') ? s.slice(0, -1) : s);

interface Tok {
  s: number;
  e: number;
  raw: string;
  low: string;
  /** flags() of low. */
  f: number;
  /** Whether a multi-word place starts with low. */
  ps: boolean;
  /** WordInfo.shape of raw. */
  sh: number;
}

/** Shape bits of a word as written (WordInfo.shape). */
const UPPER = 1;
const INITIAL = 2;
const ACRONYM = 4;

/** A word as written: its lower-case form (without a final dot), its flags and whether a place phrase starts with it. */
interface WordInfo {
  low: string;
  f: number;
  phraseStart: boolean;
  /** In the vocabulary list (lex.common), without derived words. */
  common: boolean;
  /**
   * UPPER: written in capitals (no letter changes when upper-cased); INITIAL: one capital and a dot ("J.");
   * ACRONYM: at most six characters with three capitals or all capitals ("GAO", "LLMs", "IPv").
   */
  shape: number;
}

/** Words as written → WordInfo: capitalised words repeat, and most are decided from this alone (no lower-casing). */
const wordCache = new Map<string, WordInfo>();

/**
 * Empties the per-process word caches (wordCache, flagCache). For measurements: a text scanned again
 * would otherwise find every word of its own looked up already.
 */
export function clearWordCaches(): void {
  wordCache.clear();
  flagCache.clear();
}

function wordInfo(lex: Lexicon, raw: string): WordInfo {
  let w = wordCache.get(raw);
  if (w !== undefined) return w;
  const low = lower(stripDot(raw));
  const shape =
    (raw === raw.toUpperCase() ? UPPER : 0) |
    (/^\p{Lu}\.$/u.test(raw) ? INITIAL : 0) |
    (raw.length <= 6 && upperCount(raw) >= Math.min(3, raw.length) ? ACRONYM : 0);
  w = { low, f: flags(lex, low), phraseStart: lex.phraseStarts.has(low), common: lex.common.has(low), shape };
  if (wordCache.size > 100000) wordCache.clear();
  wordCache.set(raw, w);
  return w;
}

function tokens(lex: Lexicon, chunk: string, base: number): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const n = chunk.length;
  while (i < n) {
    while (i < n && (chunk.charCodeAt(i) === 32 || chunk.charCodeAt(i) === 0xa0)) i++;
    if (i >= n) break;
    let j = i;
    while (j < n && chunk.charCodeAt(j) !== 32 && chunk.charCodeAt(j) !== 0xa0) j++;
    const raw = chunk.slice(i, j);
    const w = wordInfo(lex, raw);
    out.push({ s: base + i, e: base + j, raw, low: w.low, f: w.f, ps: w.phraseStart, sh: w.shape });
    i = j;
  }
  return out;
}

const COMMON_SUFFIXES = [
  'ly',
  'ness',
  'ment',
  'tion',
  'tions',
  'ing',
  'ings',
  'ities',
  'ism',
  'ist',
  'ists',
  'ably',
  'ous',
  'ive',
  'ful',
  'less',
];

function derived(low: string): boolean {
  if (low.length < 6) return false;
  for (const suf of COMMON_SUFFIXES) if (low.endsWith(suf)) return true;
  return false;
}

/** Ordinary vocabulary: in the word lists, or built with a derivational suffix names do not have. */
function isCommon(lex: Lexicon, low: string): boolean {
  return (flags(lex, low) & COMMON) !== 0;
}

const FIRST = 1;
const LAST = 2;
const PLACE = 4;
const COMMON = 8;
/** Word → membership bits. Words repeat (Zipf): looking each up once in the large sets saves most of the time. */
const flagCache = new Map<string, number>();

function flags(lex: Lexicon, low: string): number {
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

/** "White, Willis and Hoffman", "Jones, Smith and Davis": the shape of a firm's name, not three people. */
const FIRM = /\b(\p{Lu}\p{Ll}+), (\p{Lu}\p{Ll}+),? and (\p{Lu}\p{Ll}+)\b/gu;

/** Share of capitalised words around a position: headings and titles ("Supposed To Hate") capitalise everything. */
/** Last words of the context patterns (PERSON_BEFORE*, PLACE_BEFORE, TITLE_BEFORE). */
const TRIGGER_WORDS = new Set(
  `name is named names are called me i'm am this it's hi hello hey dear thanks you by with said says say told tell ask asked
meet met contact ceo cto cfo founder director manager producer songwriter singer author writer actor actress player artist father mother
brother sister son daughter wife husband partner friend kid child boss colleague assistant uncle aunt cousin grandfather grandmother nephew
niece under to from for and or starring directed featuring feat vs cc attn signed sincerely regards best cheers love yours surname full
first last patient employee customer client user owner holder beneficiary recipient sender written produced maiden in near into visit
visited visiting born based lives living live located moved move moving flew fly flying travel traveling travelling travelled trip
arrived arriving headed heading returned return welcome relocated relocating went going go came coming come back way drive drove train
flight bus road towards toward around across outside throughout city of town village province state region republic kingdom university
capital southern northern eastern western central downtown home country native where location place birth birthplace hometown
nationality citizenship at here the mr mrs ms miss mx dr prof sir madam dame lord lady rev capt mister mme mlle herr frau sr sra srta
attendee follow up mom mum dad grandson granddaughter grandma grandpa boyfriend girlfriend fiance fiancé fiancee fiancée neighbor neighbour`.split(
    /\s+/,
  ),
);

const AFTER_WORDS = new Set([
  'said',
  'says',
  'told',
  'asked',
  'shouted',
  'replied',
  'wrote',
  'explained',
  'added',
  'noted',
  'lives',
  'lived',
  'works',
  'worked',
  'is',
  'was',
  'has',
  'had',
  'will',
  'would',
  'and',
  'who',
  'himself',
  'herself',
  'spent',
  'began',
  'joined',
  'left',
  'flew',
  'arrived',
  'moved',
  'from',
  'speak',
]);

/** Whether the text after a name can match PERSON_AFTER*: a possessive, a colon, a comma, a bracket or a known verb. */
function afterTrigger(text: string, e: number): boolean {
  const c = text.charCodeAt(e);
  if (c === 39 || c === 0x2019 || c === 58 || c === 44 || c === 40) return true;
  if (c !== 32) return false;
  if (text.charCodeAt(e + 1) === 40) return true;
  let j = e + 1;
  while (j < text.length && j - e < 12) {
    const ch = text.charCodeAt(j);
    if (ch < 97 || ch > 122) break;
    j++;
  }
  return j > e + 1 && AFTER_WORDS.has(text.slice(e + 1, j));
}

/** Whether the end of a context can match a context pattern: its last word is a trigger, or it ends a line or a field. */
function contextTrigger(ctx: string): boolean {
  return contextTriggerAt(ctx, ctx.length);
}

const SIGN_OFF =
  /(?:^|\n)[ \t>]*(?:(?:best|kind|warm|warmest|many|with)\s+)?(?:regards|wishes|thanks|thank you|sincerely|yours(?: (?:truly|sincerely|faithfully))?|cheers|respectfully|cordially|best|love|signed|sent by|from)[ \t]*[,.!:]?[ \t]*\n(?:[ \t]*\n)?$/i;

/** A letter's closing line ("Best Regards,") right before: the next line is the writer's name. */
function signOffBefore(text: string, at: number): boolean {
  // The pattern ends with a line break: most names are not at the start of a line, and go without it.
  return text.charCodeAt(at - 1) === 10 && SIGN_OFF.test(text.slice(Math.max(0, at - 40), at));
}

/** contextTrigger for the text before offset `at`, without copying it. */
function contextTriggerAt(text: string, at: number): boolean {
  const cls = classes();
  let j = at;
  while (j > 0 && (text.charCodeAt(j - 1) === 32 || text.charCodeAt(j - 1) === 9)) j--;
  // The start of a text or a line is no context by itself (a speaker line is seen from the colon after).
  if (j === 0) return false;
  const last = text.charCodeAt(j - 1);
  // , : & ? >  — lists, labels, questions, quoted lines
  if (last === 44 || last === 58 || last === 38 || last === 63 || last === 62) return true;
  if (last === 10) return signOffBefore(text, j);
  if (last === 46) {
    // "Mr. X": a title's dot; any other dot ends a sentence, and a sentence opening is no context.
    let k = j - 1;
    while (k > 0 && j - 1 - k < 6 && cls[text.charCodeAt(k - 1)]! !== 0) k--;
    return TITLES.has(text.slice(k, j - 1).toLowerCase());
  }
  let k = j;
  while (k > 0 && j - k < 20 && (cls[text.charCodeAt(k - 1)]! !== 0 || text.charCodeAt(k - 1) === 39)) k--;
  if (k === j) return false;
  return TRIGGER_WORDS.has(text.slice(k, j).toLowerCase());
}

function titleCased(text: string, s: number, e: number, lex: Lexicon): boolean {
  const lineStart = text.lastIndexOf('\n', s - 1) + 1;
  let lineEnd = text.indexOf('\n', e);
  if (lineEnd === -1) lineEnd = text.length;
  const left = text.slice(Math.max(lineStart, s - 60), s);
  const right = text.slice(e, Math.min(lineEnd, e + 60));
  const words = (left + ' ' + right).match(/\p{L}[\p{L}'’]*/gu) ?? [];
  // Only ordinary vocabulary tells a title: a list of names is capitalised too, and is not one.
  const vocabulary = words.filter((w) => w.length > 2 && wordInfo(lex, w).common);
  if (vocabulary.length < 3) return false;
  const caps = vocabulary.filter((w) => /^\p{Lu}/u.test(w)).length;
  return caps / vocabulary.length >= 0.75;
}

/** Number of upper-case letters (\p{Lu}) in a word. */
function upperCount(raw: string): number {
  const cls = classes();
  let k = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    // The table covers the Basic Multilingual Plane; other planes are left to the pattern.
    if (c >= 0xd800 && c <= 0xdfff) return raw.match(/\p{Lu}/gu)?.length ?? 0;
    if (cls[c] === 2) k++;
  }
  return k;
}

function isPlace(lex: Lexicon, low: string): boolean {
  return (flags(lex, low) & PLACE) !== 0;
}

function isName(lex: Lexicon, low: string): boolean {
  return (flags(lex, low) & (FIRST | LAST)) !== 0;
}

/** The longest multi-word place phrase starting at token i, as a token count. */
function placePhrase(lex: Lexicon, toks: Tok[], i: number): number {
  if (i + 1 >= toks.length || !toks[i]!.ps) return 0;
  const cands = lex.placePhrases.get(`${toks[i]!.low} ${toks[i + 1]!.low}`);
  if (!cands) return 0;
  let best = 0;
  for (const words of cands) {
    if (words.length <= best || i + words.length > toks.length) continue;
    let ok = true;
    for (let k = 1; k < words.length; k++)
      if (toks[i + k]!.low !== words[k]) {
        ok = false;
        break;
      }
    if (ok) best = words.length;
  }
  return best;
}

/** Word-list and shape counts of a run of tokens, for scoring it without an array per property. */
interface RunSummary {
  /** Words in a list of first or last names. */
  known: number;
  /** Ordinary vocabulary words. */
  common: number;
  /** Listed places. */
  place: number;
  /** Every word a listed place, and none a month or weekday. */
  allPlace: boolean;
  /** Every word two to four capitals ("USA", "NASA"). */
  upperShort: boolean;
  /** Every word longer than one character and in capitals. */
  allUpper: boolean;
  /** Some word an initial ("J."). */
  initial: boolean;
  /** Some word an acronym or mixed-caps product name. */
  acronym: boolean;
}

const commonAt = (t: Tok): boolean => (t.f & COMMON) !== 0;

const PROPER_WORD = /^\p{Lu}\p{Ll}+(?:[-'’]\p{Lu}?\p{Ll}+)*$/u;
const MIDDLE_INITIAL = /^\p{Lu}\.?$/u;

/**
 * "Szabina J Gelencsér", "Hanne I. Kreutzmann": a capitalised word, one or two middle initials and
 * a capitalised word, neither ordinary vocabulary. People are written so; other things rarely are
 * (an ordinary word keeps out "Vitamin D Supplements", "Plan B Team").
 */
function middleInitialLength(run: readonly Tok[], at: number): number {
  const n = run.length - at;
  if (n < 3) return 0;
  for (const len of [3, 4]) {
    if (n < len) break;
    const head = run[at]!,
      last = run[at + len - 1]!;
    if (
      !PROPER_WORD.test(head.raw) ||
      !PROPER_WORD.test(last.raw.replace(/[.,;:]$/, '')) ||
      commonAt(head) ||
      commonAt(last)
    )
      continue;
    let ok = true;
    for (let k = at + 1; k < at + len - 1; k++) if (!MIDDLE_INITIAL.test(run[k]!.raw)) ok = false;
    if (ok) return len;
  }
  return 0;
}

function summarise(run: Tok[]): RunSummary {
  let known = 0;
  let common = 0;
  let place = 0;
  let month = false;
  let upperShort = true;
  let allUpper = true;
  let initial = false;
  let acronym = false;
  for (const t of run) {
    if (t.f & (FIRST | LAST)) known++;
    if (t.f & COMMON) common++;
    if (t.f & PLACE) place++;
    if (MONTHS_DAYS.has(t.low)) month = true;
    const upper = (t.sh & UPPER) !== 0;
    if (!(upper && t.raw.length > 1 && t.raw.length <= 4)) upperShort = false;
    if (!(upper && t.raw.length > 1)) allUpper = false;
    if (t.sh & INITIAL) initial = true;
    if (t.sh & ACRONYM) acronym = true;
  }
  return { known, common, place, allPlace: place === run.length && !month, upperShort, allUpper, initial, acronym };
}

export interface NameOptions {
  mode: DetectMode;
  person: boolean;
  location: boolean;
  model?: ModelOracle | undefined;
  /** Whether the whole text mentions postal codes (computed once for all its segments). */
  postal?: boolean | undefined;
  /** Start of every " and " in the text, ascending (found by the caller's pass over the whole text). */
  and?: number[] | undefined;
  /** Whether the text has an "orner of" (found likewise). */
  corner?: boolean | undefined;
  /** Start of every run of digits in the text (digitRuns), when the caller has them. */
  digits?: number[] | undefined;
  /** Where capitalised runs can start (NameLiterals.capitals, and 0 for a capital at the start), when the caller has them. */
  capitals?: number[] | undefined;
}

/** Start of every occurrence of `literal`, overlapping ones included. */
function occurrences(text: string, literal: string): number[] {
  const out: number[] = [];
  for (let a = text.indexOf(literal); a !== -1; a = text.indexOf(literal, a + 1)) out.push(a);
  return out;
}

export function findNamesAndPlaces(text: string, opts: NameOptions, out: Detection[]): void {
  const lex = getLexicon();
  const found: Detection[] = [];
  const addresses =
    opts.location || opts.person
      ? findAddresses(
          text,
          lex,
          opts.mode,
          opts.postal,
          opts.corner ?? text.includes('orner of'),
          opts.digits ?? digitRuns(text),
        )
      : [];
  if (opts.location) found.push(...addresses);
  const inAddress = (s: number, e: number): boolean => addresses.some((a) => a.start <= s && e <= a.end);
  const nearAddress = (s: number): boolean =>
    addresses.some((a) => Math.abs(a.start - s) < 60 || Math.abs(a.end - s) < 60);
  const model = opts.mode !== 'fast' ? opts.model : undefined;
  // Scores are sums of tenths: the thresholds sit a hair below so that 0.1 + 0.35 counts as 0.45.
  const placeThreshold = (opts.mode === 'aggressive' ? 0.5 : 0.6) - 1e-9;
  const personThreshold = (opts.mode === 'aggressive' ? 0.45 : 0.6) - 1e-9;

  const firms: Array<[number, number]> = [];
  let m: RegExpExecArray | null;
  const cls = classes();
  // Each " and " after the end of the last one looked at (the scan of a plain search from the start).
  let resume = 0;
  for (const a of opts.and ?? occurrences(text, ' and ')) {
    if (a < resume) continue;
    resume = a + 5;
    // "Xxx, Yyy and Zzz": a capitalised word on both sides of " and ", a comma before the first.
    if (cls[text.charCodeAt(a + 5)] !== 2 || cls[text.charCodeAt(a - 1)] === 0) continue;
    // The nearest ", " at most 40 characters back (lastIndexOf would scan to the start of the text).
    let comma = -1;
    for (let k = a; k >= 0 && a - k <= 40; k--)
      if (text.charCodeAt(k) === 44 && text.charCodeAt(k + 1) === 32) {
        comma = k;
        break;
      }
    if (comma < 0) continue;
    const ws = Math.max(0, a - 60);
    FIRM.lastIndex = 0;
    const window = text.slice(ws, a + 40);
    m = FIRM.exec(window);
    if (!m) continue;
    const at = ws + m.index;
    if (firms.some((f) => f[0] === at)) continue;
    const names = [m[1]!, m[2]!, m[3]!].map(lower);
    // Three surnames are a firm ("Jones, Smith and Davis", "White, Willis and Hoffman"); a list with
    // first names is people ("Rudi, Jackson and Campos"), and so is a longer list ("Ann, Bob, Carl and Dan").
    const lasts = names.filter((w) => lex.last.has(w)).length;
    const firsts = names.filter((w) => lex.first.has(w) && !lex.last.has(w)).length;
    const longer = /\p{Lu}[\p{L}'’-]*,\s*$/u.test(text.slice(Math.max(0, at - 30), at));
    if ((lasts === 3 && firsts === 0) || (!longer && lasts >= 2 && names.filter((w) => lex.first.has(w)).length <= 1))
      firms.push([at, at + m[0].length]);
  }
  const inFirm = (s: number, e: number): boolean => firms.some((f) => f[0] <= s && e <= f[1]);
  const people: Detection[] = [];
  const runs = capitalisedRunsFlat(text, opts.capitals);
  for (let r = 0; r < runs.length; r += 3) {
    const cs = runs[r]!;
    const ce = runs[r + 1]!;
    const c = text.slice(cs, ce);
    // Most capitalised words are sentence openings of ordinary vocabulary: decide those without scoring.
    if (runs[r + 2] === 1) {
      const info = wordInfo(lex, c);
      if (info.low.length < 2) continue;
      const f = info.f;
      if (f & COMMON && !(f & (FIRST | LAST | PLACE))) continue;
      if (!opts.person && !(f & PLACE) && !info.phraseStart) continue;
      // A single word in no list (a product, an acronym) can only be a name with context before it;
      // a listed word that is also ordinary vocabulary ("Will", "Reading") needs context on either side.
      if (!(f & (FIRST | LAST | PLACE)) && !info.phraseStart) {
        if (c.length <= 5 && c === c.toUpperCase()) continue;
        if (!contextTriggerAt(text, cs) && !afterTrigger(text, ce)) continue;
      } else if (f & COMMON && !info.phraseStart && !contextTriggerAt(text, cs) && !afterTrigger(text, ce)) {
        continue;
      }
    }
    const toks = tokens(lex, c, cs);
    // Fast mode: a run of words in no list needs context before it or a possessive after it.
    if (opts.mode === 'fast' && toks.length > 1) {
      let listed = false;
      for (const t of toks)
        if (t.f & (FIRST | LAST | PLACE) || t.ps || TITLES.has(t.low)) {
          listed = true;
          break;
        }
      // The shape of a name with a middle initial is evidence enough to look further.
      for (let k = 0; !listed && k + 3 <= toks.length; k++) if (middleInitialLength(toks, k) > 0) listed = true;
      if (!listed && text.charCodeAt(ce) !== 39 && text.charCodeAt(ce) !== 0x2019 && !contextTriggerAt(text, cs))
        continue;
    }
    // Titles open the name but are not part of it.
    let titled = false;
    while (toks.length && TITLES.has(toks[0]!.low) && toks.length > 1) {
      titled = true;
      toks.shift();
    }
    if (toks.length === 1 && TITLES.has(toks[0]!.low)) continue;
    // Split the chunk into runs around words that are ordinary vocabulary (sentence-initial "The", "Capitalized").
    let i = 0;
    while (i < toks.length) {
      // Multi-word places first ("New Zealand", "South Africa", "Rio de Janeiro").
      const pl = placePhrase(lex, toks, i);
      if (pl > 0) {
        const s = toks[i]!.s;
        const e = toks[i + pl - 1]!.e;
        scorePlace(text, lex, s, e, toks.slice(i, i + pl), true);
        i += pl;
        continue;
      }
      // A name with a middle initial is one run, even where the initial is also a word ("Hanne I. Kreutzmann",
      // "Mark A Lewis").
      const mid = middleInitialLength(toks, i);
      if (mid > 0) {
        const orgAfter = i + mid < toks.length && ORG_WORDS.has(toks[i + mid]!.low);
        classify(toks.slice(i, i + mid), titled && i === 0, orgAfter);
        titled = false;
        i += mid;
        continue;
      }
      const t = toks[i]!;
      const common = (t.f & COMMON) !== 0 && (t.f & (FIRST | LAST | PLACE)) === 0;
      if (common || ORG_WORDS.has(t.low) || (TITLES.has(t.low) && i < toks.length - 1)) {
        if (TITLES.has(t.low)) titled = true;
        i++;
        continue;
      }
      let j = i + 1;
      while (j < toks.length) {
        const u = toks[j]!;
        if ((u.f & COMMON) !== 0 && (u.f & (FIRST | LAST | PLACE)) === 0) break;
        if (ORG_WORDS.has(u.low)) break;
        if (placePhrase(lex, toks, j) > 0 && (u.f & (FIRST | LAST)) === 0) break;
        j++;
      }
      const run = toks.slice(i, j);
      const orgAfter = j < toks.length && ORG_WORDS.has(toks[j]!.low);
      // "Stanley Cups", "Christian Science": a capitalised ordinary word right after makes one proper noun.
      const commonAfter =
        !orgAfter && j < toks.length && (toks[j]!.f & COMMON) !== 0 && (toks[j]!.f & (FIRST | LAST)) === 0;
      classify(run, titled && i === 0, orgAfter, commonAfter);
      titled = false;
      i = j;
    }
  }

  /** `ctxIn`, `placeCtxIn`: the lower-cased context before s and PLACE_BEFORE on it, when the caller has them. */
  function scorePlace(
    text: string,
    lex: Lexicon,
    s: number,
    e: number,
    run: Tok[],
    phrase: boolean,
    ctxIn?: string,
    placeCtxIn?: boolean,
  ): void {
    if (!opts.location) return;
    const ctx = ctxIn ?? lower(text.slice(Math.max(0, s - 30), s));
    const low = run.map((t) => t.low).join(' ');
    let score = 0;
    if (lex.country.has(low) || phrase) score = 0.6;
    if (lex.region.has(low)) score = Math.max(score, 0.5);
    if (lex.majorCity.has(low)) score = Math.max(score, 0.55);
    if (lex.city.has(low)) score = Math.max(score, 0.3);
    const placeCtx = placeCtxIn ?? PLACE_BEFORE.test(ctx);
    if (placeCtx) score += 0.35;
    // Ordinary words that are also places ("Mobile", "As", "Reading") count as places only where the text says so.
    // A country named in several words is one whatever its words ("United States", "Czech Republic").
    const ordinary =
      (run.every((t) => (t.f & COMMON) !== 0) && !(run.length >= 2 && lex.country.has(low))) || low.length <= 2;
    if (ordinary && !placeCtx) return;
    if (inAddress(s, e) || nearAddress(s)) score += 0.3;
    const nxt = text.slice(e, e + 24);
    if (/^,\s*(?:\p{Lu}{2}\b|\p{Lu}\p{Ll}+)/u.test(nxt) && score > 0) score += 0.1; // "Springfield, IL", "Paris, France"
    if (/^\s+(?:country club|university|orchestra|college|airport|station|road|street|fc|city council)/i.test(nxt))
      score += 0.1;
    if ((run[0]!.f & (FIRST | LAST)) !== 0 && !phrase && PERSON_BEFORE_STRONG.test(ctx)) score -= 0.5;
    if (/^(?:'s|’s)/.test(nxt) && !lex.country.has(low)) score -= 0.2;
    if (run.length === 1 && run[0]!.raw.length <= 3 && run[0]!.raw === run[0]!.raw.toUpperCase()) score -= 0.3;
    // The model's opinion weighs 0.2: it is asked only where that can change the outcome.
    if (model && score < placeThreshold && score + 0.2 >= placeThreshold && model.place(s, e)) score += 0.2;
    if (score >= placeThreshold)
      found.push({ start: s, end: e, entity: 'LOCATION', score: Math.min(1, score), kind: 'place' });
  }

  function classify(run: Tok[], titledChunk: boolean, orgAfter: boolean, commonAfter = false): void {
    const n = run.length;
    const head = run[0]!;
    const last = run[n - 1]!;
    const s = head.s;
    let e = last.e;
    // A sentence-final dot is not part of the name (an initial's dot is).
    if (last.raw.endsWith('.') && last.raw.length > 2) e -= 1;
    // Context phrases are short: a short window keeps the end-anchored patterns cheap.
    const ctx = lower(text.slice(Math.max(0, s - 30), s));
    // The patterns run only when the word or mark just before could start one of them, and only once
    // their answer can matter (each is an end-anchored scan of the window).
    const trigger = contextTrigger(ctx);
    let placeCtxMemo = trigger ? -1 : 0;
    const placeCtx = (): boolean =>
      (placeCtxMemo < 0 ? (placeCtxMemo = PLACE_BEFORE.test(ctx) ? 1 : 0) : placeCtxMemo) === 1;
    let strongCtxMemo = trigger ? -1 : 0;
    const strongCtx = (): boolean =>
      (strongCtxMemo < 0 ? (strongCtxMemo = PERSON_BEFORE_STRONG.test(ctx) ? 1 : 0) : strongCtxMemo) === 1;
    const after = afterTrigger(text, e);
    const nxt = after ? text.slice(e, e + 28) : '';
    const titled = titledChunk || (trigger && TITLE_BEFORE.test(ctx));
    const sum = summarise(run);
    const headIsFirstName = (head.f & FIRST) !== 0;

    // ---- place reading: every word a known place, and the place wins over a name reading unless the
    // context is a name's ("Mr.", "said", "'s") or the word is a first name with no place context.
    if (opts.location && sum.allPlace && !orgAfter && !titled && !inFirm(s, e)) {
      const low = n === 1 ? head.low : run.map((t) => t.low).join(' ');
      const bigPlace = lex.country.has(low) || lex.majorCity.has(low) || lex.region.has(low);
      const nameLike = headIsFirstName && !bigPlace;
      const ctxPerson = strongCtx() || (after && (/^(?:'s|’s)\b/.test(nxt) || PERSON_AFTER_STRONG.test(nxt)));
      if (placeCtx() || (!nameLike && !ctxPerson) || (bigPlace && !ctxPerson)) {
        const before = found.length;
        // The same context: PLACE_BEFORE's answer is known when the trigger let it run.
        scorePlace(text, lex, s, e, run, false, ctx, trigger ? placeCtx() : undefined);
        if (found.length > before) return;
      }
    }
    // ---- a name where the text says a place follows ("grew up in Remniku", "flew to RYSSBY"): listed
    // names too ("studied at the University of Vierhöf", "born in Florence"), unless a possessive makes it
    // a person's ("lives in Anna's flat") or people are visited as well as places ("visited Maria").
    if (
      opts.location &&
      !titled &&
      !orgAfter &&
      sum.common === 0 &&
      n <= 4 &&
      trigger &&
      PLACE_STRONG.test(ctx) &&
      !inAddress(s, e) &&
      (sum.known === 0 || (!/^['’]s\b/.test(text.slice(e, e + 3)) && !/\bvisit(?:ed|ing)?\s+$/.test(ctx)))
    ) {
      found.push({ start: s, end: e, entity: 'LOCATION', score: 0.7, kind: 'place-context' });
      return;
    }
    // ---- a name with a postal code after it, where the text says a place follows ("support MysticWeb in
    // Quinta de São Tiago 3610-114"): a place, the code with it.
    if (
      opts.location &&
      !titled &&
      !orgAfter &&
      n <= 5 &&
      trigger &&
      text.charCodeAt(e) <= 44 &&
      placeCtx() &&
      !inAddress(s, e)
    ) {
      const code = POSTAL_AFTER.exec(text.slice(e, e + 16));
      // Four digits that could be a year are a date's ("in June 2021", "in Windows 2000").
      if (code && !/^\D*(?:1[5-9]|20)\d\d$/.test(code[0])) {
        found.push({ start: s, end: e + code[0].length, entity: 'LOCATION', score: 0.75, kind: 'place-postal' });
        return;
      }
    }
    if (!opts.person) return;
    if (inAddress(s, e) || inFirm(s, e)) return;

    // ---- person reading: a prior from the word lists, then the context.
    let score: number;
    if (n >= 2) {
      const k = sum.known;
      if (headIsFirstName && !commonAt(head) && ((last.f & LAST) !== 0 || !commonAt(last))) score = 0.75;
      else if (k >= 1 && sum.common === 0) score = 0.6;
      else if (k >= 1) score = 0.45;
      else if (sum.common > 0) score = 0.2;
      else score = 0.4;
      if (k === n && n <= 4) score += 0.1;
      if (sum.initial) score += 0.1;
      if (n > 4) score -= 0.3;
      if (n <= 4 && middleInitialLength(run, 0) > 0) score = Math.max(score, 0.7);
    } else {
      const known = sum.known > 0;
      if (known && !commonAt(head)) score = headIsFirstName ? 0.5 : 0.4;
      else if (known) score = 0.15;
      else if (commonAt(head)) score = 0;
      else score = SENTENCE_END.test(text.slice(Math.max(0, s - 6), s)) ? 0.1 : 0.25;
      if ((head.f & PLACE) !== 0 && !known && !titled) score -= 0.15;
      if (head.low.length <= 2) score -= 0.3;
    }
    if (sum.upperShort && sum.known === 0) score -= 0.4;
    // ALL-CAPS words are headings, acronyms and labels unless the name lists know them.
    if (sum.allUpper && sum.known < n) score -= 0.3;
    // A title before a capitalised word makes it a name even when the word is ordinary ("Mrs. Baker").
    if (titled) score += 0.6;
    // The context below adds at most 0.5 before, 0.5 after and 0.2 from the model, and the rest only
    // lowers the score: a candidate that cannot reach the threshold is let go before the patterns run.
    const acronym = !titled && sum.acronym;
    const certainLoss = (orgAfter ? 0.6 : 0) + (commonAfter && !titled ? 0.25 : 0) + (acronym ? 0.25 : 0);
    if (score + (trigger ? 0.5 : 0) + (after ? 0.5 : 0) + (model ? 0.2 : 0) - certainLoss < personThreshold - 1e-6)
      return;
    if (trigger && (PERSON_BEFORE_VERY_STRONG.test(ctx) || signOffBefore(text, s))) score += 0.5;
    else if (trigger && /\b(?:said|says|asked|told|replied|answered|shouted at|shouted|whispered)\s*$/.test(ctx))
      score += 0.4;
    else if (strongCtx()) score += 0.3;
    else if (trigger && PERSON_BEFORE.test(ctx)) score += 0.15;
    // Dialogue and speaker lines: "Leverett: What a wife."
    if (
      after &&
      /^:\s*["“]?\p{Lu}/u.test(nxt) &&
      /(?:^|\n)\s*$/.test(ctx) &&
      sum.common === 0 &&
      !(n === 1 && HEADER_LABELS.has(run[0]!.low))
    )
      score += 0.5;
    // A possessive of things people have: "Matej's address", "Asya's kid".
    else if (after && POSSESSIVE_HUMAN.test(nxt)) score += 0.45;
    else if (after && PERSON_AFTER_STRONG.test(nxt)) score += 0.35;
    else if (after && PERSON_AFTER.test(nxt)) score += 0.15;
    if (orgAfter) score -= 0.6;
    if (commonAfter && !titled) score -= 0.25;
    // ALL-CAPS or mixed-caps short words (GAO, LLMs, IPv) are acronyms and product names.
    if (acronym) score -= 0.25;
    if (
      trigger &&
      /\b(?:work(?:s|ed|ing)? (?:for|at)|employed (?:by|at)|joined|company|firm|agency|brand|startup|client)\s*$/.test(
        ctx,
      )
    )
      score -= 0.3;
    if (sum.place > 0 && !titled && placeCtx()) score -= 0.25;
    if (model && score < personThreshold && score + 0.2 >= personThreshold && model.person(s, e)) score += 0.2;
    // Headings and titles capitalise every word: there a capitalised word is weak evidence.
    if (score >= personThreshold && !titled && !(headIsFirstName && n >= 2) && titleCased(text, s, e, lex))
      score -= 0.3;
    if (score >= personThreshold) {
      people.push({ start: s, end: e, entity: 'PERSON', score: Math.min(1, score), kind: 'person' });
    }
  }

  // A name that was confidently found once is a name everywhere in the text ("Brown" after "Ann Brown").
  if (opts.person && people.length) {
    const sure = new Set<string>();
    // Parts of full names (two or more words) spread: "McDowell" after "Adam McDowell". Ordinary words and
    // initials do not.
    for (const p of people) {
      const words = text.slice(p.start, p.end).split(/\s+/);
      if (p.score < 0.7 || words.length < 2) continue;
      for (const w of words)
        if (w.length > 2 && /^\p{Lu}\p{Ll}/u.test(w) && !isCommon(lex, lower(w)) && !TITLES.has(lower(w))) sure.add(w);
    }
    for (const w of sure) {
      let at = text.indexOf(w);
      while (at !== -1) {
        const end = at + w.length;
        const okEdges = !/[\p{L}\p{N}]/u.test(text[at - 1] ?? ' ') && !/[\p{L}\p{N}]/u.test(text[end] ?? ' ');
        if (okEdges && !people.some((p) => p.start < end && at < p.end) && !inAddress(at, end)) {
          people.push({ start: at, end, entity: 'PERSON', score: 0.7, kind: 'person-repeat' });
        }
        at = text.indexOf(w, end);
      }
    }
  }
  if (opts.person) {
    coordinated(
      text,
      lex,
      people,
      (s, e) => inAddress(s, e) || inFirm(s, e) || found.some((f) => f.start < e && s < f.end),
    );
    if (opts.mode !== 'fast') lowerCaseNames(text, lex, people, opts.mode);
  }
  out.push(...found, ...people);
}

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
function coordinated(text: string, lex: Lexicon, people: Detection[], taken: (s: number, e: number) => boolean): void {
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
      if (ORG_WORDS.has(low) || TITLES.has(low) || low.length < 2 || /['’]/.test(low) || AMBIGUOUS.has(low)) continue;
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
function lowerCaseNames(text: string, lex: Lexicon, people: Detection[], mode: DetectMode): void {
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
        (contextTrigger(ctx) && PERSON_BEFORE.test(ctx)) ||
        afterTrigger(text, end) ||
        PERSON_AFTER.test(text.slice(end, end + 28))
      ) {
        if (!people.some((q) => q.start < end && prev!.s < q.end))
          people.push({ start: prev.s, end, entity: 'PERSON', score: 0.65, kind: 'person-lower' });
      }
    } else if (f & (FIRST | LAST) && !(f & COMMON) && PERSON_BEFORE_VERY_STRONG.test(ctxOf(s))) {
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

// ------------------------------------------------------------------------------------------ ADDRESSES

const LED_WORDS = new Set([
  'rue',
  'via',
  'viale',
  'piazza',
  'corso',
  'rua',
  'calle',
  'avenida',
  'avenue',
  'av',
  'chemin',
  'allée',
  'boulevard',
  'bd',
  'place',
  'plaza',
  'paseo',
  'praça',
  'travessa',
  'estrada',
  'largo',
  'ulica',
  'ul',
  'aleja',
  'strada',
  'apt',
  'apartment',
  'suite',
  'ste',
  'unit',
  'flat',
  'psc',
  'box',
  'bldg',
  'building',
  'floor',
  'rr',
  'hc',
  'apo',
  'fpo',
  'dpo',
  'calea',
  'strada',
  'ulitsa',
  'utca',
  'rte',
  'route',
  'carrer',
  'rambla',
  'avinguda',
  'praia',
  'quai',
  'cours',
  'impasse',
  'passage',
  'square',
  'sentier',
  'chaussée',
  'steenweg',
  'straat',
  'weg',
  'laan',
]);
const PARTICLES = new Set([
  'de',
  'du',
  'des',
  'la',
  'le',
  'les',
  'do',
  'da',
  'dos',
  'das',
  'del',
  'di',
  'della',
  'the',
  'of',
  'y',
  'e',
  'dei',
  'degli',
  'van',
  'von',
  'der',
  'den',
  'am',
  'an',
  'im',
  'sur',
  'en',
]);
let streetWordSet: Set<string> | undefined;
let suffixSet: { set: Set<string>; lengths: number[] } | undefined;

function streetTables(lex: Lexicon): { words: Set<string>; suffixes: { set: Set<string>; lengths: number[] } } {
  if (!streetWordSet) streetWordSet = new Set(STREET_WORDS);
  if (!suffixSet) {
    const list = [
      ...lex.streetSuffix.filter((x) => /^\p{Ll}+$/u.test(x) && x.length >= 3),
      'katu',
      'tie',
      'kuja',
      'vej',
      'gade',
      'gatan',
      'vägen',
      'gata',
      'straat',
      'laan',
      'weg',
      'straße',
      'strasse',
      'gasse',
      'platz',
      'allee',
      'ring',
      'damm',
      'utca',
      'út',
      'stræti',
      'stræde',
      'veien',
      'vegen',
      'gränd',
      'torget',
      'plein',
      'singel',
      'gracht',
      'dijk',
      'kade',
      'tee',
      'põik',
      'iela',
      'gatve',
      'ulica',
      'cesta',
      'sokak',
    ];
    const set = new Set(list);
    suffixSet = { set, lengths: [...new Set(list.map((x) => x.length))].sort((a, b) => b - a) };
  }
  return { words: streetWordSet, suffixes: suffixSet };
}

interface Word {
  s: number;
  e: number;
  raw: string;
  low: string;
}

/** Up to `n` words before `at` on the same line, nearest first; stops at punctuation other than . ' -. */
function wordsBefore(text: string, at: number, n: number): Word[] {
  const cls = classes();
  const out: Word[] = [];
  let i = at;
  while (out.length < n) {
    let j = i;
    while (j > 0 && (text[j - 1] === ' ' || text[j - 1] === '\t' || text[j - 1] === ',')) j--;
    if (j === i && out.length > 0) break;
    if (j === 0) break;
    let k = j;
    while (k > 0) {
      const ch = text.charCodeAt(k - 1);
      if (cls[ch] !== 0 || (ch >= 48 && ch <= 57) || ch === 39 || ch === 0x2019 || ch === 46 || ch === 45) k--;
      else break;
    }
    if (k === j) break;
    const raw = text.slice(k, j);
    out.push({ s: k, e: j, raw, low: raw.replace(/\.$/, '').toLowerCase() });
    i = k;
  }
  return out;
}

const CAP = /^\p{Lu}/u;
const STREET_AFTER_NUMBER =
  /\d{1,6}[A-Za-z]?,?[ \t]+((?:[\p{Lu}\d][\p{L}\p{M}'’.\-]*[ \t]+){0,4})([\p{L}]+)\.?(?:[ \t]+\d{1,5}[A-Za-z]?\b)?/uy;
const STREET_LED_AFTER_NUMBER =
  /\d{1,6}[A-Za-z]?,?[ \t]+(\p{Lu}[\p{L}.]*)(?:[ \t]+(?:\p{Lu}[\p{L}\p{M}'’\-]*|de|du|des|la|le|les|do|da|dos|das|del|di|dei|della|the|of)){1,5}/uy;
const NUMBER_WORDS_NUMBER = /\d{1,6}[ \t]+(?:\p{Lu}[\p{L}\p{M}'’\-]*[ \t]+){1,3}\d{1,5}[A-Za-z]?\b/uy;
const NUMBER_THEN_TYPE = /\d{1,5}[A-Za-z]?[ \t]+([\p{L}]+)\b\.?/uy;
const CORNER = /\b(?:the )?corner of [^\n,;?!]{2,60}? and (?:\p{Lu}[\p{L}\p{M}'’\-]*\.?\s?){1,4}(?:\d{1,5}\b)?/gu;

/** Postal codes in many national formats; only ever taken next to an address or after "zip"/"postcode". */
const POSTAL = /(?:\d{5}(?:-\d{4}|-\d{3})?|\d{3} \d{2}|\d{4}(?: ?[A-Z]{2})?|\d{4}-\d{3}|\d{2}-\d{3}|\d{3})\b/y;
const POSTAL_CONTEXT =
  /(?:zip|zip code|zipcode|postcode|postal code|post code|postal|plz|cap|cp|code postal)\s*(?:is|:|#|=)?\s*$/i;

/**
 * Street addresses, anchored on house numbers: numbers are rare in text, so each is looked at with
 * cheap checks of the words around it ("6750 Main Street", "Koskikatu 25", "Rue de Piétrain 371",
 * "Apt. 864", "5850 Jana Nerudy 894", "Hoge Wei 32 St."), then grown over the lines that continue it.
 */
const POSTAL_WORDS = /zip|post|plz|\bcap\b|\bcp\b/i;

/** A character of the \s class. */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Last letters of the words POSTAL_CONTEXT ends with (zip, cap, cp; code; postal; plz), in either case. */
const POSTAL_LAST = new Uint8Array(128);
for (const c of 'pelzPELZ') POSTAL_LAST[c.charCodeAt(0)] = 1;

/** Whether text[from, end) ends like POSTAL_CONTEXT: a word ending in POSTAL_LAST, then white space, an optional "is", ":", "#" or "=", white space. */
function postalEnding(text: string, from: number, end: number): boolean {
  let e = end;
  while (e > from && isSpace(text.charCodeAt(e - 1))) e--;
  if (e === from) return false;
  const c = text.charCodeAt(e - 1);
  if (POSTAL_LAST[c] === 1) return true;
  let m = -1;
  if (c === 58 || c === 35 || c === 61) m = e - 1;
  else if ((c | 32) === 115 && e - 2 >= from && (text.charCodeAt(e - 2) | 32) === 105) m = e - 2;
  if (m < 0) return false;
  while (m > from && isSpace(text.charCodeAt(m - 1))) m--;
  return m > from && POSTAL_LAST[text.charCodeAt(m - 1)] === 1;
}

/**
 * POSTAL_CONTEXT on the 24 characters before i. The pattern is anchored at the end, so the engine tries it
 * at every position; the ending it needs is checked first, and most numbers do not have it.
 */
function postalContextBefore(text: string, i: number): boolean {
  const from = Math.max(0, i - 24);
  return postalEnding(text, from, i) && POSTAL_CONTEXT.test(text.slice(from, i));
}

/** Whether a text mentions postal codes at all ("zip", "postcode", "PLZ", "CAP", "CP"). */
export function mentionsPostal(text: string): boolean {
  return POSTAL_WORDS.test(text);
}

function findAddresses(
  text: string,
  lex: Lexicon,
  mode: DetectMode,
  postal: boolean | undefined,
  corner: boolean,
  digits: number[],
): Detection[] {
  const { words, suffixes } = streetTables(lex);
  const parts: Array<[number, number]> = [];
  const out: Detection[] = [];
  // Digit runs: a run of more than six digits is no house number (an ID, a phone number).
  const cls = classes();
  const postalWords = postal ?? POSTAL_WORDS.test(text);
  let m: RegExpExecArray | null;
  for (const i of digits) {
    let runEnd = i + 1;
    while (runEnd < text.length && text.charCodeAt(runEnd) >= 48 && text.charCodeAt(runEnd) <= 57) runEnd++;
    if (runEnd - i > 6) continue;
    const prevCh = i > 0 ? text.charCodeAt(i - 1) : 32;
    // Inside a longer token (a word, a decimal, a code): not a house number.
    if (
      (prevCh >= 65 && prevCh <= 90) ||
      (prevCh >= 97 && prevCh <= 122) ||
      (prevCh === 46 && i > 1 && /\d/.test(text[i - 2]!))
    )
      continue;
    // What follows: "5 Main Street", "5850 Jana Nerudy 894" need a capitalised word (or a number) next.
    let q = runEnd;
    if (cls[text.charCodeAt(q)] !== 0 && cls[text.charCodeAt(q + 1)] === 0) q++;
    if (text.charCodeAt(q) === 44) q++;
    let ws = q;
    while (text.charCodeAt(ws) === 32 || text.charCodeAt(ws) === 9) ws++;
    const capNext =
      ws > q && (cls[text.charCodeAt(ws)] === 2 || (text.charCodeAt(ws) >= 48 && text.charCodeAt(ws) <= 57));
    // "5 Main Street" / "5 Main Street 12"
    STREET_AFTER_NUMBER.lastIndex = i;
    let a = capNext ? STREET_AFTER_NUMBER.exec(text) : null;
    if (a && !words.has(a[2]!.toLowerCase())) a = streetTypeWithin(a, words);
    if (
      a &&
      words.has(a[2]!.toLowerCase()) &&
      ((a[1]!.length > 0 && CAP.test(a[1]!)) || (LED_WORDS.has(a[2]!.toLowerCase()) === false && CAP.test(a[2]!))) &&
      !/^\d{1,4}[ \t]+(?:st|nd|rd|th)\b/i.test(a[0])
    ) {
      let e = i + a[0].length;
      if (text[e - 1] === ',') e--;
      parts.push([i, e]);
      continue;
    }
    // "1812 Rue De La Gare", "31 Via dei Fiorentini": a street word leads the words after the number.
    if (capNext) {
      STREET_LED_AFTER_NUMBER.lastIndex = i;
      const l = STREET_LED_AFTER_NUMBER.exec(text);
      if (
        l &&
        LED_WORDS.has(l[1]!.toLowerCase()) &&
        !/^(?:apt|apartment|suite|ste|unit|flat|box|floor|building|bldg|house)$/i.test(l[1]!)
      ) {
        parts.push([i, i + l[0].length]);
        continue;
      }
    }
    // "5850 Jana Nerudy 894" (not "16 Jul 2020": dates have month names between their numbers)
    NUMBER_WORDS_NUMBER.lastIndex = i;
    const b = capNext ? NUMBER_WORDS_NUMBER.exec(text) : null;
    if (
      b &&
      !/\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december|mon|tue|wed|thu|fri|sat|sun|am|pm|utc|gmt|cet|est|pst)\b/i.test(
        b[0],
      ) &&
      !b[0]
        .split(/\s+/)
        .slice(1, -1)
        .some((w) => lex.common.has(w.toLowerCase()))
    ) {
      parts.push([i, i + b[0].length]);
      continue;
    }
    // Words before the number: "Koskikatu 25", "Rue de Piétrain 371", "Apt. 864", "Hoge Wei 32 St."
    if (prevCh !== 32 && prevCh !== 9 && prevCh !== 44) {
      if (postalWords && postalContextBefore(text, i)) {
        POSTAL.lastIndex = i;
        const p = POSTAL.exec(text);
        if (p) out.push({ start: i, end: i + p[0].length, entity: 'LOCATION', score: 0.9, kind: 'postal' });
      }
      continue;
    }
    if (postalWords && postalContextBefore(text, i)) {
      POSTAL.lastIndex = i;
      const p = POSTAL.exec(text);
      if (p) {
        out.push({ start: i, end: i + p[0].length, entity: 'LOCATION', score: 0.9, kind: 'postal' });
        continue;
      }
    }
    // The word before the number decides whether it can be a house number: a capitalised word ("Koskikatu 25",
    // "Apt. 864"), a street word in lower case ("rue", "via"), or a "u." abbreviation. Most numbers in
    // running text follow an ordinary lower-case word ("version 2", "in 2019") and stop here.
    {
      let k = i - 1;
      while (k > 0 && (text.charCodeAt(k - 1) === 32 || text.charCodeAt(k - 1) === 9 || text.charCodeAt(k - 1) === 44))
        k--;
      if (text.charCodeAt(k - 1) === 46) k--;
      let w = k;
      while (w > 0 && cls[text.charCodeAt(w - 1)]! !== 0) w--;
      if (w === k) continue;
      if (cls[text.charCodeAt(w)] === 1) {
        const word = text.slice(w, k);
        if (!LED_WORDS.has(word.toLowerCase()) && word !== 'u' && !words.has(word)) continue;
      }
    }
    const before = wordsBefore(text, i, 6);
    const w0 = before[0];
    if (!w0) continue;
    let start = -1;
    if (
      CAP.test(w0.raw) &&
      !/.\p{Lu}/u.test(w0.raw) &&
      !lex.common.has(w0.low) &&
      (/\p{Ll}/u.test(w0.low) || w0.raw.length > 3)
    ) {
      const low = w0.low;
      for (const L of suffixes.lengths) {
        if (low.length > L && suffixes.set.has(low.slice(-L))) {
          start = w0.s;
          break;
        }
      }
    }
    // "Kálmán Imre u. 12.", "Victor Hugo u. 49", "Joaquin Suarez 2906" after "lives on": the street's name
    // before the number, its type word (if any) last.
    if (start < 0) {
      const typed = (words.has(w0.low) || w0.raw === 'u.') && !LED_WORDS.has(w0.low);
      let k = typed ? 1 : 0;
      let first = -1;
      while (
        k < before.length &&
        k < 4 &&
        CAP.test(before[k]!.raw) &&
        !/.\p{Lu}/u.test(before[k]!.raw) &&
        !MONTHS_DAYS.has(before[k]!.low) &&
        (typed || !before[k]!.raw.endsWith('.')) &&
        (!lex.common.has(before[k]!.low) || isName(lex, before[k]!.low))
      ) {
        first = before[k]!.s;
        k++;
      }
      // Without a street type, a year is not a house number ("in June 2021").
      const year = runEnd - i === 4 && /^(?:1[89]|20)\d\d$/.test(text.slice(i, runEnd));
      if (
        first >= 0 &&
        (typed || (!year && ADDRESS_BEFORE.test(text.slice(Math.max(0, first - 30), first).toLowerCase())))
      )
        start = first;
    }
    if (start < 0) {
      for (let k = 0; k < before.length; k++) {
        const w = before[k]!;
        if (LED_WORDS.has(w.low) && (CAP.test(w.raw) || k > 0 || /^(?:apt|ste|unit|suite|box)$/.test(w.low))) {
          // Everything between the street word and the number must be name-like.
          const between = before.slice(0, k);
          if (between.every((x) => CAP.test(x.raw) || PARTICLES.has(x.low) || /^\d/.test(x.raw))) start = w.s;
          break;
        }
        if (!CAP.test(w.raw) && !PARTICLES.has(w.low)) break;
      }
    }
    if (start < 0 && CAP.test(w0.raw) && !lex.common.has(w0.low)) {
      NUMBER_THEN_TYPE.lastIndex = i;
      const c = NUMBER_THEN_TYPE.exec(text);
      if (c && words.has(c[1]!.toLowerCase()) && !LED_WORDS.has(c[1]!.toLowerCase())) {
        let s0 = w0.s;
        if (before[1] && CAP.test(before[1].raw) && !lex.common.has(before[1].low)) s0 = before[1].s;
        parts.push([s0, i + c[0].length]);
        continue;
      }
    }
    if (start >= 0) {
      let e = runEnd;
      if (/[A-Za-z]/.test(text[e] ?? '') && !/[A-Za-z]/.test(text[e + 1] ?? '')) e++;
      // "Main Street 5" after a house number: "6750 Koskikatu 25".
      const pre = /(?:^|[^\p{L}\p{N}])(\d{1,6}[A-Za-z]?,?[ \t]+)$/u.exec(text.slice(Math.max(0, start - 10), start));
      if (pre) start -= pre[1]!.length;
      parts.push([start, e]);
      continue;
    }
    if (postalWords && postalContextBefore(text, i)) {
      POSTAL.lastIndex = i;
      const p = POSTAL.exec(text);
      if (p) out.push({ start: i, end: i + p[0].length, entity: 'LOCATION', score: 0.9, kind: 'postal' });
    }
  }
  if (corner) {
    CORNER.lastIndex = 0;
    while ((m = CORNER.exec(text)) !== null) parts.push([m.index, m.index + m[0].length]);
  }
  if (parts.length === 0) return out;
  parts.sort((a, b) => a[0] - b[0]);
  // Grow each street part over the segments that continue the address: further street parts, place
  // names, region abbreviations, postal codes, each a short line or comma-separated segment.
  const blocks: Array<[number, number]> = [];
  for (const [s0, e0] of parts) {
    let s = s0;
    let e = e0;
    const prev = blocks[blocks.length - 1];
    if (prev && s <= prev[1] + 3 && /^[\s,]*$/.test(text.slice(prev[1], s))) {
      prev[1] = Math.max(prev[1], e);
      continue;
    }
    if (prev && s < prev[1]) {
      prev[1] = Math.max(prev[1], e);
      continue;
    }
    // A number just before the house number is the building's or the unit's ("975 3968 Bay Street",
    // "12/345 Main St"), unless it reads as a year ("in 2019 45 Main Street was sold").
    const lead = /(?:^|[^\p{L}\p{N}.,\-/])(\d{1,6})([ \t]+|\/)$/u.exec(text.slice(Math.max(0, s - 10), s));
    if (lead && !(lead[2] !== '/' && /^(?:1[89]|20)\d\d$/.test(lead[1]!))) s -= lead[1]!.length + lead[2]!.length;
    // Continue forward.
    for (let steps = 0; steps < 8; steps++) {
      const rest = text.slice(e, e + 80);
      // One line break at most (after a comma or not): a blank line ends the address's paragraph.
      const seg = /^([ \t]*(?:,[ \t>?]*\n?|\n)?[ \t>?]*)([^\n,;:!?()]{1,48})/u.exec(rest);
      if (!seg) break;
      const sepLen = seg[1]!.length;
      let body = seg[2]!;
      // Do not run into the sentence after the address.
      const cut =
        /(?:\s+\p{Ll}{2,}|(?:^|\s+)(?:I|I'm|It|The|This|Please|For|And|But|Is|Are|Can|Could|Was))\b[\s\S]*$/u.exec(
          body,
        );
      if (cut) body = body.slice(0, cut.index);
      body = body.replace(/[.\s]+$/u, '');
      if (!body) break;
      if (!continuesAddress(body, lex)) break;
      if (sepLen === 0 && !/^\s/.test(rest)) break;
      e = e + sepLen + seg[2]!.indexOf(body) + body.length;
    }
    blocks.push([s, e]);
  }
  for (const [s, e] of blocks)
    out.push({ start: s, end: e, entity: 'LOCATION', score: mode === 'fast' ? 0.85 : 0.9, kind: 'street' });
  return out;
}

/**
 * Words that name the kind of place in a place name ("Port Whangarei", "Pines Beach", "Mount Barker"):
 * ordinary vocabulary, but a part of the name on an address line beside a word that is not.
 */
const TOPONYM_WORDS = new Set([
  'port',
  'fort',
  'mount',
  'mt',
  'saint',
  'st',
  'san',
  'santa',
  'santo',
  'sao',
  'são',
  'new',
  'old',
  'north',
  'south',
  'east',
  'west',
  'upper',
  'lower',
  'great',
  'little',
  'lake',
  'bay',
  'beach',
  'park',
  'point',
  'city',
  'village',
  'town',
  'heights',
  'springs',
  'falls',
  'island',
  'islands',
  'valley',
  'hill',
  'hills',
  'creek',
  'harbour',
  'harbor',
  'bridge',
  'field',
  'fields',
  'green',
  'grove',
  'rock',
  'river',
  'vale',
  'wood',
  'woods',
  'downs',
  'cross',
  'station',
  'junction',
  'centre',
  'center',
  'county',
  'district',
]);
/** Lower-case words inside place names of many languages ("Ostrov nad Ohří", "Turkovice u Přelouče", "Frankfurt am Main"). */
const PLACE_PARTICLES =
  /^(?:de|du|des|la|le|les|do|da|dos|das|del|di|della|of|the|am|an|im|sur|sous|upon|on|nad|pod|u|na|bei|van|von|der|den|aan|op|en|y|e|i)$/i;

/**
 * STREET_AFTER_NUMBER takes as many capitalised words as it can and then one more word, so "45 Baker
 * Street was sold" ends on "was". The street is then the run up to its last street-type word ("45 Baker
 * Street"), in the same shape as the match: [text, words before the type word, the type word].
 */
function streetTypeWithin(a: RegExpExecArray, words: Set<string>): RegExpExecArray | null {
  const lead = /^\d{1,6}[A-Za-z]?,?[ \t]+/.exec(a[0])![0];
  const run = a[1]!;
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  let best: [number, number] | null = null;
  while ((m = re.exec(run)) !== null) {
    const w = m[0].replace(/\.$/, '');
    if (m.index > 0 && words.has(w.toLowerCase())) best = [m.index, m.index + w.length];
  }
  if (!best) return null;
  const out = [
    lead + run.slice(0, best[1]),
    run.slice(0, best[0]),
    run.slice(best[0], best[1]),
  ] as unknown as RegExpExecArray;
  out.index = a.index;
  return out;
}

/** A segment that can follow a street line: a place, region code, postal code, unit, country. */
function continuesAddress(seg: string, lex: Lexicon): boolean {
  const words = seg.trim().split(/\s+/);
  if (words.length > 6) return false;
  let ok = 0;
  let plain = 0;
  for (let j = 0; j < words.length; j++) {
    const w = words[j]!;
    const low = lower(w.replace(/[.,]$/, ''));
    // A listed place of several words ("South Africa", "Czech Republic") counts whole.
    if (j + 1 < words.length && /^\p{Lu}/u.test(w)) {
      const len = phraseLength(lex, words, j);
      if (len > 0) {
        ok += len;
        plain++;
        j += len - 1;
        continue;
      }
    }
    if (/^\d{2,6}(?:-\d{3,4})?$/.test(w) || /^[A-Z]{1,2}\d[A-Z\d]?$/.test(w) || /^\d[A-Z]{2}$/.test(w)) ok++;
    else if (/^\p{Lu}{2,3}\.?$/u.test(w)) ok++;
    else if (/^\p{Lu}/u.test(w) && (isPlace(lex, low) || !lex.common.has(low) || STREET_WORDS.includes(low))) {
      ok++;
      plain++;
    } else if (/^\p{Lu}/u.test(w) && TOPONYM_WORDS.has(low)) ok++;
    else if (PLACE_PARTICLES.test(w)) ok += 0.5;
    else if (/^(?:apt|suite|ste|unit|box|floor|bldg|flat)\.?$/i.test(w)) ok++;
    else if (/^\d{1,5}[A-Za-z]?$/.test(w)) ok++;
    else return false;
  }
  // Kind-of-place words alone ("New Station") are no place name.
  if (plain === 0 && words.some((w) => TOPONYM_WORDS.has(lower(w.replace(/[.,]$/, ''))) && /^\p{Lu}/u.test(w)))
    return false;
  return ok >= words.length - 0.5;
}

/** Length in words of the listed multi-word place that starts at words[j] (0 when none does). */
function phraseLength(lex: Lexicon, words: string[], j: number): number {
  const lows = words.map((w) => lower(w.replace(/[.,]$/, '')));
  const cands = lex.placePhrases.get(`${lows[j]} ${lows[j + 1]}`);
  let best = 0;
  for (const p of cands ?? []) {
    if (p.length <= best || j + p.length > lows.length) continue;
    if (p.every((x, k) => lows[j + k] === x)) best = p.length;
  }
  return best;
}
