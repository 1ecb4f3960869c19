/**
 * Names of people and places: capitalised word sequences scored from gazetteer membership (first and
 * last names of many languages, GeoNames places, countries, regions) and the words around them
 * ("Mr.", "my name is", "lives in", "'s", "said"). Street addresses and postal codes are found from
 * their shape (house number next to a street-type word, "Apt. 12", "PSC 1234, Box 5678") and grown over
 * the lines or comma-separated parts that continue them.
 */
import { getLexicon, STREET_WORDS, type Lexicon } from './lexicon.js';
import type { Detection, DetectMode } from './types.js';

/** Scores a model (or a second opinion) gives to a span, keyed by entity. */
export interface ModelHints {
  person: Array<[number, number]>;
  place: Array<[number, number]>;
}

const WORD = String.raw`\p{Lu}[\p{L}\p{M}'’]*(?:-\p{L}[\p{L}\p{M}'’]*)*`;
const INITIAL = String.raw`\p{Lu}\.`;
const PARTICLE = String.raw`(?:van|von|de|der|den|ten|ter|da|di|du|del|della|dos|das|do|le|la|bin|ibn|al|el|y|af|zu|st\.)`;
const CHUNK = new RegExp(String.raw`(?:${INITIAL}|${WORD})(?:[ \u00a0](?:${PARTICLE}[ \u00a0])*(?:${INITIAL}(?!\p{L})|${WORD}))*`, 'gu');

const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'professor', 'sir', 'madam', 'dame', 'lord', 'lady', 'rev', 'reverend', 'fr', 'hon', 'capt', 'captain', 'col', 'gen', 'sgt', 'lt', 'president', 'senator', 'judge', 'mister', 'mme', 'mlle', 'herr', 'frau', 'sr', 'sra', 'srta', 'dott', 'dra', 'uncle', 'aunt', 'king', 'queen', 'prince', 'princess', 'officer', 'agent', 'detective', 'coach', 'nurse', 'doctor']);

const ORG_WORDS = new Set(['inc', 'llc', 'ltd', 'corp', 'corporation', 'company', 'co', 'associates', 'group', 'partners', 'holdings', 'bank', 'university', 'college', 'institute', 'school', 'hospital', 'foundation', 'orchestra', 'band', 'records', 'church', 'club', 'society', 'association', 'council', 'committee', 'agency', 'department', 'ministry', 'gmbh', 'ag', 'sa', 'bv', 'plc', 'limited', 'technologies', 'systems', 'solutions', 'services', 'investments', 'industries', 'international', 'global', 'media', 'press', 'labs', 'studios', 'airlines', 'motors', 'consulting', 'capital', 'ventures', 'enterprises', 'trust', 'fund', 'network', 'museum', 'library', 'center', 'centre', 'hotel', 'restaurant', 'cafe', 'café', 'street', 'avenue', 'road', 'times', 'post', 'news', 'journal', 'magazine', 'award', 'awards', 'prize', 'act', 'law', 'treaty', 'war', 'day', 'festival', 'stripes', 'beatles', 'tv', 'radio', 'country', 'county', 'state', 'city', 'river', 'lake', 'mountain', 'mountains', 'island', 'islands', 'park', 'square', 'station', 'airport', 'bridge', 'tower', 'castle', 'palace', 'cathedral', 'abbey', 'valley', 'beach', 'bay', 'sea', 'ocean']);

const PLACE_BEFORE = /(?:\b(?:in|from|near|into|visit|visited|visiting|born in|based in|lives in|living in|live in|located in|(?:moved|move|moving|flew|fly|flying|travel(?:l?ing|led)?|trip|arrived|arriving|headed|heading|returned|return|welcome|relocated|relocating|went|going|go|came|coming|come|back|way|drive|drove|train|flight|bus|road)\s+(?:back\s+)?(?:here\s+)?(?:to|at|in|from|into)|towards|toward|around|across|outside|throughout|city of|town of|village of|province of|state of|region of|republic of|kingdom of|university of|capital of|southern|northern|eastern|western|central|downtown|home (?:city|town|country)|native)\s+(?:the\s+)?$)|(?:where|city|town|country|location|state|region|province|place of birth|birthplace|hometown|nationality|citizenship)\s*:\s*$/;
const PERSON_BEFORE = /(?:\b(?:name(?:'s| is|d)|names are|called|call me|i'm|i am|this is|it's|it is|hi|hello|hey|dear|thanks|thank you|by|with|said|says|say|told|tell|ask|asked|meet|met|contact|follow up with|ceo|cto|cfo|founder|director|manager|producer|songwriter|singer|author|writer|actor|actress|player|artist|father|mother|brother|sister|son|daughter|wife|husband|partner|friend|kid|child|boss|colleague|assistant|uncle|aunt|cousin|grandfather|grandmother|nephew|niece|under|to|from|for|and|or|&|,|with|starring|directed|featuring|feat\.?|vs\.?|cc:?|attn:?|signed|sincerely|regards|best|cheers|love|yours)\s*$)|(?:^|\n)\s*(?:name|full name|first name|last name|surname|contact|attn|attendee|patient|employee|customer|client|user|from|to|cc|signed|author|by|manager|owner|holder|beneficiary|recipient|sender|directed by|written by|starring)\s*:?\s*$/;
const PERSON_BEFORE_STRONG = /(?:\b(?:my name is|name is|named|called|call me|i'm|i am|this is|hi|hello|hey|dear|maiden name is|last name|first name|surname|said|says|told|asked|starring|directed by|written by|produced by|by|meet|ask|with)\s*[:?]?\s*$)|(?:^|\n)\s*>?\s*(?:name|full name|first name|last name|surname|attn|patient|employee|customer|client|user|from|signed|author|directed by)\s*:\s*$/;
const TITLE_BEFORE = /\b(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dame|lord|lady|rev|capt|mister|mme|mlle|herr|frau|sr|sra|srta)\.?\s+$/;
const PERSON_BEFORE_VERY_STRONG = /(?:\b(?:my name is|name is|names are|named|called|call me|maiden name is|last name|first name|surname|name(?:'s)?\s*[?:])\s*[:?]?\s*$)|(?:^|\n)\s*>?\s*(?:name|full name|first name|last name|surname|patient|employee|attn|attendee)\s*:\s*$/;
const PERSON_AFTER_STRONG = /^(?:'s\b|’s\b|\s*(?:said|says|told|asked|shouted|replied|wrote|explained|lives|lived|works|worked|spent|began|joined|flew|had given|is a very|is very|is so|will be talking|is from|from (?:the )?\p{Lu}|speak|, can i|, the \w+, said|\(born))/u;
const PERSON_AFTER = /^(?:'s\b|’s\b|\s*(?:said|says|told|asked|shouted|replied|wrote|explained|added|noted|lives|lived|works|worked|is a|is an|was a|was an|is very|is so|has|had|will|would|and (?:his|her) |who\b|himself|herself|spent|began|joined|left|flew|arrived|moved|is from|from\b|\(born|, who|, the|, a |:\s*["“]|:\s*\S))/;
const ADDRESS_BEFORE = /(?:\b(?:lives (?:at|on)|live (?:at|on)|located at|address(?: is|:)?|addresses|at|on|to|send(?: it)? to|ship(?: it)? to|deliver(?: it)? to|return to|meet (?:me|you) at|drops you off at|arrived at|corner of|in|from|update.*address.*(?:is|with|to)|billing address:?|shipping address:?)\s*:?\s*$)/;

const SENTENCE_END = /(?:^|[.!?]["”’)]?\s+|\n\s*(?:[>*\-+#|]+\s*)?|^\s*["“(]\s*|[:;]\s+["“]?)$/;

const lower = (s: string): string => s.toLocaleLowerCase('en');
const stripDot = (s: string): string => (s.endsWith('.') ? s.slice(0, -1) : s);

interface Tok {
  s: number;
  e: number;
  raw: string;
  low: string;
}

function tokens(chunk: string, base: number): Tok[] {
  const out: Tok[] = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(chunk)) !== null) out.push({ s: base + m.index, e: base + m.index + m[0].length, raw: m[0], low: lower(stripDot(m[0])) });
  return out;
}

const COMMON_SUFFIX = /(?:[a-z]{3}ly|[a-z]{3}ness|[a-z]{3}ment|[a-z]{2}tions?|[a-z]{3}ings?|[a-z]{3}ities|[a-z]{3}ism|[a-z]{3}ists?|[a-z]{3}ably|[a-z]{3}ous|[a-z]{3}ive|[a-z]{3}ful|[a-z]{3}less)$/;

/** Ordinary vocabulary: in the word lists, or built with a derivational suffix names do not have. */
function isCommon(lex: Lexicon, low: string): boolean {
  return lex.common.has(low) || (COMMON_SUFFIX.test(low) && !lex.first.has(low) && !lex.last.has(low));
}

/** "White, Willis and Hoffman", "Jones, Smith and Davis": the shape of a firm's name, not three people. */
const FIRM = /\b(\p{Lu}\p{Ll}+), (\p{Lu}\p{Ll}+),? and (\p{Lu}\p{Ll}+)\b(?!,)/gu;

/** Share of capitalised words around a position: headings and titles ("Supposed To Hate") capitalise everything. */
function titleCased(text: string, s: number, e: number): boolean {
  const lineStart = text.lastIndexOf('\n', s - 1) + 1;
  let lineEnd = text.indexOf('\n', e);
  if (lineEnd === -1) lineEnd = text.length;
  const left = text.slice(Math.max(lineStart, s - 60), s);
  const right = text.slice(e, Math.min(lineEnd, e + 60));
  const words = (left + ' ' + right).match(/\p{L}[\p{L}'’]*/gu) ?? [];
  const content = words.filter((w) => w.length > 3);
  if (content.length < 4) return false;
  const caps = content.filter((w) => /^\p{Lu}/u.test(w)).length;
  return caps / content.length >= 0.75;
}

function isPlace(lex: Lexicon, low: string): boolean {
  return lex.city.has(low) || lex.country.has(low) || lex.region.has(low);
}

function isName(lex: Lexicon, low: string): boolean {
  return lex.first.has(low) || lex.last.has(low);
}

/** The longest multi-word place phrase starting at token i, as a token count. */
function placePhrase(lex: Lexicon, toks: Tok[], i: number): number {
  const cands = lex.placePhrases.get(toks[i]!.low);
  if (!cands) return 0;
  let best = 0;
  for (const words of cands) {
    if (words.length <= best || i + words.length > toks.length) continue;
    let ok = true;
    for (let k = 1; k < words.length; k++) if (toks[i + k]!.low !== words[k]) { ok = false; break; }
    if (ok) best = words.length;
  }
  return best;
}

const overlaps = (a: [number, number], s: number, e: number): boolean => a[0] < e && s < a[1];

export interface NameOptions {
  mode: DetectMode;
  person: boolean;
  location: boolean;
  hints?: ModelHints | undefined;
}

export function findNamesAndPlaces(text: string, opts: NameOptions, out: Detection[]): void {
  const lex = getLexicon();
  const found: Detection[] = [];
  const addresses = opts.location || opts.person ? findAddresses(text, lex, opts.mode) : [];
  if (opts.location) found.push(...addresses);
  const inAddress = (s: number, e: number): boolean => addresses.some((a) => a.start <= s && e <= a.end);
  const nearAddress = (s: number): boolean => addresses.some((a) => Math.abs(a.start - s) < 60 || Math.abs(a.end - s) < 60);
  const aggressive = opts.mode === 'aggressive';
  const useModel = opts.mode !== 'fast' && opts.hints !== undefined;
  const placeThreshold = opts.mode === 'aggressive' ? 0.5 : 0.6;
  const personThreshold = opts.mode === 'aggressive' ? 0.45 : 0.6;

  const firms: Array<[number, number]> = [];
  FIRM.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = FIRM.exec(text)) !== null) {
    const names = [m[1]!, m[2]!, m[3]!].map(lower);
    // Three first names are three people ("Anna, Ben and Carl"); surnames are a firm.
    if (names.filter((w) => lex.last.has(w)).length >= 2 && names.filter((w) => lex.first.has(w) && !lex.last.has(w)).length <= 1) firms.push([m.index, m.index + m[0].length]);
  }
  const inFirm = (s: number, e: number): boolean => firms.some((f) => f[0] <= s && e <= f[1]);
  CHUNK.lastIndex = 0;
  const people: Detection[] = [];
  while ((m = CHUNK.exec(text)) !== null) {
    const toks = tokens(m[0], m.index);
    // Titles open the name but are not part of it.
    let titled = false;
    while (toks.length && TITLES.has(toks[0]!.low) && toks.length > 1) { titled = true; toks.shift(); }
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
      const t = toks[i]!;
      const common = isCommon(lex, t.low) && !isName(lex, t.low) && !isPlace(lex, t.low);
      if (common || (TITLES.has(t.low) && i < toks.length - 1)) {
        if (TITLES.has(t.low)) titled = true;
        i++;
        continue;
      }
      let j = i + 1;
      while (j < toks.length) {
        const u = toks[j]!;
        if (isCommon(lex, u.low) && !isName(lex, u.low) && !isPlace(lex, u.low)) break;
        if (ORG_WORDS.has(u.low)) break;
        if (placePhrase(lex, toks, j) > 0 && !isName(lex, u.low)) break;
        j++;
      }
      const run = toks.slice(i, j);
      const orgAfter = j < toks.length && ORG_WORDS.has(toks[j]!.low);
      classify(run, titled && i === 0, orgAfter);
      titled = false;
      i = j;
    }
  }

  function scorePlace(text: string, lex: Lexicon, s: number, e: number, run: Tok[], phrase: boolean): void {
    if (!opts.location) return;
    const ctx = lower(text.slice(Math.max(0, s - 40), s));
    const low = run.map((t) => t.low).join(' ');
    let score = 0;
    if (lex.country.has(low) || (phrase && lex.placePhrases.has(run[0]!.low))) score = 0.6;
    if (lex.region.has(low)) score = Math.max(score, 0.5);
    if (lex.majorCity.has(low)) score = Math.max(score, 0.55);
    if (lex.city.has(low)) score = Math.max(score, 0.3);
    if (PLACE_BEFORE.test(ctx)) score += 0.35;
    if (inAddress(s, e) || nearAddress(s)) score += 0.3;
    const nxt = text.slice(e, e + 24);
    if (/^,\s*(?:\p{Lu}{2}\b|\p{Lu}\p{Ll}+)/u.test(nxt) && score > 0) score += 0.1; // "Springfield, IL", "Paris, France"
    if (/^\s+(?:country club|university|orchestra|college|airport|station|road|street|fc|city council)/i.test(nxt)) score += 0.1;
    if (useModel && opts.hints!.place.some((h) => overlaps(h, s, e))) score += 0.2;
    if (isName(lex, run[0]!.low) && !phrase && PERSON_BEFORE_STRONG.test(ctx)) score -= 0.5;
    if (/^(?:'s|’s)/.test(nxt) && !lex.country.has(low)) score -= 0.2;
    if (run.length === 1 && run[0]!.raw.length <= 3 && run[0]!.raw === run[0]!.raw.toUpperCase()) score -= 0.3;
    if (score >= placeThreshold) found.push({ start: s, end: e, entity: 'LOCATION', score: Math.min(1, score), kind: 'place' });
  }


  function classify(run: Tok[], titledChunk: boolean, orgAfter: boolean): void {
    const s = run[0]!.s;
    let e = run[run.length - 1]!.e;
    const last = run[run.length - 1]!;
    // A sentence-final dot is not part of the name (an initial's dot is).
    if (last.raw.endsWith('.') && last.raw.length > 2) e -= 1;
    const ctx = lower(text.slice(Math.max(0, s - 48), s));
    const nxt = text.slice(e, e + 40);
    const sentenceStart = SENTENCE_END.test(text.slice(Math.max(0, s - 6), s));
    const lows = run.map((t) => t.low);
    const firsts = lows.map((w) => lex.first.has(w));
    const lasts = lows.map((w) => lex.last.has(w));
    const places = lows.map((w) => isPlace(lex, w));
    const commons = lows.map((w) => isCommon(lex, w));
    const known = lows.map((_, k) => firsts[k] || lasts[k]);
    const upperShort = run.every((t) => t.raw.length <= 4 && t.raw === t.raw.toUpperCase() && t.raw.length > 1);
    const titled = titledChunk || TITLE_BEFORE.test(ctx);
    const n = run.length;
    const low = lows.join(' ');
    const modelPerson = useModel && opts.hints!.person.some((h) => overlaps(h, s, e));

    // ---- place reading: every word a known place, and the place wins over a name reading unless the
    // context is a name's ("Mr.", "said", "'s") or the word is a first name with no place context.
    const allPlace = places.every(Boolean);
    if (opts.location && allPlace && !orgAfter && !titled) {
      const strongPlace = PLACE_BEFORE.test(ctx);
      const bigPlace = lex.country.has(low) || lex.majorCity.has(low) || lex.region.has(low);
      const nameLike = firsts[0] && !bigPlace;
      const ctxPerson = PERSON_BEFORE_STRONG.test(ctx) || /^(?:'s|’s)\b/.test(nxt) || PERSON_AFTER_STRONG.test(nxt);
      if (strongPlace || (!nameLike && !ctxPerson) || (bigPlace && !ctxPerson)) {
        const before = found.length;
        scorePlace(text, lex, s, e, run, false);
        if (found.length > before) return;
      }
    }
    if (!opts.person) return;
    if (inAddress(s, e) || inFirm(s, e)) return;

    // ---- person reading: a prior from the word lists, then the context.
    let score: number;
    if (n >= 2) {
      const k = known.filter(Boolean).length;
      if (firsts[0] && !commons[0] && (lasts[n - 1] || !commons[n - 1])) score = 0.75;
      else if (k >= 1 && commons.filter(Boolean).length === 0) score = 0.6;
      else if (k >= 1) score = 0.45;
      else if (commons.some(Boolean)) score = 0.2;
      else score = 0.4;
      if (k === n && n <= 4) score += 0.1;
      if (run.some((t) => /^\p{Lu}\.$/u.test(t.raw))) score += 0.1;
      if (n > 4) score -= 0.3;
    } else {
      if (known[0] && !commons[0]) score = firsts[0] ? 0.5 : 0.4;
      else if (known[0]) score = 0.15;
      else if (commons[0]) score = 0;
      else score = sentenceStart ? 0.15 : 0.3;
      if (places[0] && !known[0]) score -= 0.15;
      if (lows[0]!.length <= 2) score -= 0.3;
    }
    if (upperShort && !known.some(Boolean)) score -= 0.4;
    if (titled) score += 0.5;
    if (PERSON_BEFORE_VERY_STRONG.test(ctx)) score += 0.5;
    else if (PERSON_BEFORE_STRONG.test(ctx)) score += 0.3;
    else if (PERSON_BEFORE.test(ctx)) score += 0.15;
    if (PERSON_AFTER_STRONG.test(nxt) || (/^:\s*["“]?\p{Lu}/u.test(nxt) && /(?:^|\n)\s*$/.test(ctx))) score += 0.25;
    else if (PERSON_AFTER.test(nxt)) score += 0.15;
    if (orgAfter) score -= 0.6;
    if (!titled && titleCased(text, s, e) && !(firsts[0] && n >= 2)) score -= 0.3;
    if (PLACE_BEFORE.test(ctx) && places.some(Boolean) && !titled) score -= 0.25;
    if (modelPerson) score += 0.2;
    if (score >= personThreshold) {
      people.push({ start: s, end: e, entity: 'PERSON', score: Math.min(1, score), kind: 'person' });
    }
  }

  // A name that was confidently found once is a name everywhere in the text ("Brown" after "Ann Brown").
  if (opts.person && people.length) {
    const sure = new Set<string>();
    for (const p of people) if (p.score >= 0.7) for (const w of text.slice(p.start, p.end).split(/\s+/)) if (w.length > 2) sure.add(w);
    CHUNK.lastIndex = 0;
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
  out.push(...found, ...people);
}

// ------------------------------------------------------------------------------------------ ADDRESSES

interface StreetPatterns { typed: RegExp; led: RegExp; compound: RegExp; numbered: RegExp; corner: RegExp }
let streetRe: StreetPatterns | undefined;

function streetPatterns(lex: Lexicon): StreetPatterns {
  if (streetRe) return streetRe;
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const words = [...new Set([...STREET_WORDS])].sort((a, b) => b.length - a.length).map((w) => `[${w[0]}${w[0]!.toUpperCase()}]${esc(w.slice(1))}`).join('|');
  const suffixes = [...new Set([...lex.streetSuffix.filter((s) => /^\p{Ll}+$/u.test(s) && s.length >= 3), 'katu', 'tie', 'kuja', 'vej', 'gade', 'gatan', 'vägen', 'gata', 'straat', 'laan', 'weg', 'straße', 'strasse', 'gasse', 'platz', 'allee', 'ring', 'damm', 'utca', 'út', 'stræti', 'stræde', 'veien', 'vegen', 'gata', 'gränd', 'torget', 'plein', 'singel', 'gracht', 'dijk', 'kade', 'tee', 'põik', 'iela', 'gatve', 'ulica', 'cesta', 'sokak'])].sort((a, b) => b.length - a.length).map(esc).join('|');
  const W = String.raw`[\p{Lu}\d][\p{L}\p{M}'’.\-]*`;
  streetRe = {
    // "6750 Main Street", "12 Rue de la Paix" style with the type word last: number, 1-4 words, street word
    typed: new RegExp(String.raw`\b\d{1,6}[A-Za-z]?,?\s+(?:${W}\s+){0,4}(?:${words})\b\.?(?:\s+\d{1,5}[A-Za-z]?\b)?`, 'giu'),
    // "Rue de Piétrain 371", "Via Franscini 12", "Calle Mayor 5", "Apt. 864", "Suite 727", "PSC 1234, Box 5678"
    led: new RegExp(String.raw`\b(?:rue|via|viale|piazza|corso|rua|calle|avenida|avenue|av\.|chemin|allée|boulevard|bd\.?|place|plaza|paseo|praça|travessa|estrada|largo|ulica|ul\.|aleja|strada|apt\.?|apartment|suite|ste\.?|unit|flat|psc|box|po box|p\.o\. box|bldg\.?|building|floor|house|rr|hc|apo|fpo|dpo)\s+(?:(?:${W}|de|du|des|la|le|les|do|da|dos|das|del|di|della|the|of|y|e)\s+){0,5}?(?:\d{1,6}[A-Za-z]?|[A-Z]{2}\s+\d{5})\b`, 'giu'),
    // "Koskikatu 25", "Brixtonlaan 380", "Hammarvägen 15", "Magrethevej 298", "Main Street 5"
    compound: new RegExp(String.raw`(?<![\p{L}])\p{Lu}[\p{L}\p{M}'’\-]*(?:${suffixes})\.?(?:\s+\d{1,5}[A-Za-z]?\b)`, 'gu'),
    // "5850 Jana Nerudy 894", "Hoge Wei 32 St.": house numbers around capitalised words, or a street type after the number
    numbered: new RegExp(String.raw`\b\d{1,6}\s+(?:\p{Lu}[\p{L}\p{M}'’\-]*\s+){1,3}\d{1,5}[A-Za-z]?\b|(?<![\p{L}])(?:\p{Lu}[\p{L}\p{M}'’\-]*\s+){1,3}\d{1,5}[A-Za-z]?\s+(?:${words})\b\.?`, 'gu'),
    // "the corner of Csabai kapu 39 and Mathias Pass"
    corner: /\b(?:the )?corner of [^\n,;?!]{2,60}? and (?:\p{Lu}[\p{L}\p{M}'’\-]*\.?\s?){1,4}(?:\d{1,5}\b)?/gu,
  };
  return streetRe;
}

/** Postal codes in many national formats; only ever taken next to an address or after "zip"/"postcode". */
const POSTAL = /\b(?:\d{5}(?:-\d{4}|-\d{3})?|\d{3} \d{2}|\d{4}(?: ?[A-Z]{2})?|\d{4}-\d{3}|\d{2}-\d{3}|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|[A-Z]\d[A-Z] ?\d[A-Z]\d|\d{3})\b/g;
const POSTAL_CONTEXT = /(?:zip|zip code|zipcode|postcode|postal code|post code|postal|plz|cap|cp|code postal)\s*(?:is|:|#|=)?\s*$/i;

function findAddresses(text: string, lex: Lexicon, mode: DetectMode): Detection[] {
  const { typed, led, compound, numbered, corner } = streetPatterns(lex);
  const parts: Array<[number, number]> = [];
  for (const re of [typed, led, compound, numbered, corner]) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      let s = m.index;
      let e = s + m[0].length;
      if (/[.,]$/.test(m[0]) && !/\b(?:st|ave|rd|blvd|ln|dr|ct|pl|sq|apt|ste|str|av|bd|ul)\.$/i.test(m[0])) e -= 1;
      // "Main Street 5" and "5 Main Street": take the house number on either side.
      const pre = /(?:^|[^\p{L}\p{N}])(\d{1,6}[A-Za-z]?,?\s+)$/u.exec(text.slice(Math.max(0, s - 10), s));
      if (pre) s -= pre[1]!.length;
      const matched = text.slice(s, e);
      if (re === typed && /^\d{1,4}\s+(?:st|nd|rd|th)\b/i.test(matched)) continue;
      if (re === typed && /\b(?:19|20)\d\d\s+\p{Ll}/u.test(matched)) continue;
      // "10 ways" is not an address: a typed street needs a capitalised word between number and type.
      if (re === typed && !/\d[A-Za-z]?,?\s+\p{Lu}/u.test(matched)) continue;
      parts.push([s, e]);
    }
  }
  // Postal codes after "zip code is", "ZIP:", ...
  POSTAL.lastIndex = 0;
  let m: RegExpExecArray | null;
  const postals: Array<[number, number]> = [];
  while ((m = POSTAL.exec(text)) !== null) postals.push([m.index, m.index + m[0].length]);
  const out: Detection[] = [];
  for (const [s, e] of postals) {
    if (POSTAL_CONTEXT.test(text.slice(Math.max(0, s - 24), s))) out.push({ start: s, end: e, entity: 'LOCATION', score: 0.9, kind: 'postal' });
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
    if (prev && s < prev[1]) { prev[1] = Math.max(prev[1], e); continue; }
    // Continue forward.
    for (let steps = 0; steps < 8; steps++) {
      const rest = text.slice(e, e + 80);
      const seg = /^([ \t]*(?:,|\n)?[ \t>?]*(?:\n[ \t>?]*)?)([^\n,;:!?()]{1,48})/u.exec(rest);
      if (!seg) break;
      const sepLen = seg[1]!.length;
      let body = seg[2]!;
      // Do not run into the sentence after the address.
      const cut = /\s+(?:\p{Ll}{2,}|I|I'm|It|The|This|Please|For|And|But|Is|Are|Can|Could|Was)\b[\s\S]*$/u.exec(body);
      if (cut) body = body.slice(0, cut.index);
      body = body.replace(/[.\s]+$/u, '');
      if (!body) break;
      if (!continuesAddress(body, lex)) break;
      if (sepLen === 0 && !/^\s/.test(rest)) break;
      e = e + sepLen + (seg[2]!.indexOf(body)) + body.length;
    }
    blocks.push([s, e]);
  }
  for (const [s, e] of blocks) out.push({ start: s, end: e, entity: 'LOCATION', score: mode === 'fast' ? 0.85 : 0.9, kind: 'street' });
  return out;
}

/** A segment that can follow a street line: a place, region code, postal code, unit, country. */
function continuesAddress(seg: string, lex: Lexicon): boolean {
  const words = seg.trim().split(/\s+/);
  if (words.length > 6) return false;
  let ok = 0;
  for (const w of words) {
    const low = lower(w.replace(/[.,]$/, ''));
    if (/^\d{2,6}(?:-\d{3,4})?$/.test(w) || /^[A-Z]{1,2}\d[A-Z\d]?$/.test(w) || /^\d[A-Z]{2}$/.test(w)) ok++;
    else if (/^\p{Lu}{2,3}\.?$/u.test(w)) ok++;
    else if (/^\p{Lu}/u.test(w) && (isPlace(lex, low) || !lex.common.has(low) || STREET_WORDS.includes(low))) ok++;
    else if (/^(?:de|du|des|la|le|do|da|del|di|of|the|am|an|im|sur|upon|on)$/i.test(w)) ok += 0.5;
    else if (/^(?:apt|suite|ste|unit|box|floor|bldg|flat)\.?$/i.test(w)) ok++;
    else if (/^\d{1,5}[A-Za-z]?$/.test(w)) ok++;
    else return false;
  }
  return ok >= words.length - 0.5;
}
