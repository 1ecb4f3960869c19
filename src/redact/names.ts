/**
 * Names of people and places: capitalised word sequences scored from gazetteer membership (first and
 * last names of many languages, GeoNames places, countries, regions) and the words around them
 * ("Mr.", "my name is", "lives in", "'s", "said"). Street addresses and postal codes are found in
 * addresses.ts.
 */
import { getLexicon, type Lexicon } from './lexicon.js';
import { digitRuns } from './patterns.js';
import { CAPITAL_SET } from './secrets.js';
import type { Detection, DetectMode } from './types.js';
import { wordSet } from './word-lists.js';
import { findAddresses } from './addresses.js';
import {
  afterTrigger,
  contextTrigger,
  contextTriggerAt,
  ORG_WORDS,
  PERSON_AFTER,
  PERSON_AFTER_STRONG,
  PERSON_BEFORE,
  PERSON_BEFORE_STRONG,
  PERSON_BEFORE_VERY_STRONG,
  PLACE_BEFORE,
  PLACE_STRONG,
  signOffBefore,
  TITLE_BEFORE,
  TITLES,
} from './name-context.js';
import { coordinated, lowerCaseNames } from './name-mentions.js';
import {
  classes,
  clearFlagCache,
  COMMON,
  FIRST,
  flags,
  isCommon,
  LAST,
  lower,
  MONTHS_DAYS,
  PLACE,
} from './word-flags.js';

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

const PARTICLE_WORDS = (): ReadonlySet<string> => wordSet('particleWords');

/**
 * Runs of capitalised words ("Angela Lundström", "Willemine ten Pas", "J. R. Smith") as [start, end),
 * found with one pass over the characters: a regular expression over every upper-case letter costs
 * more than all other detectors together.
 */
function capitalisedRuns(text: string): Array<[number, number]> {
  const flat = capitalisedRunsFlat(text);
  const out: Array<[number, number]> = [];
  for (let k = 0; k < flat.length; k += 3) out.push([flat[k]!, flat[k + 1]!]);
  return out;
}

interface ParticleIndex {
  words: ReadonlySet<string>;
  /** Whether a lower-case letter can start a particle word, by character code. */
  first: Uint8Array;
  /** Length of the longest particle word. */
  max: number;
}
let particleIndex: ParticleIndex | undefined;
function particleWords(): ParticleIndex {
  if (particleIndex) return particleIndex;
  const words = PARTICLE_WORDS();
  const first = new Uint8Array(128);
  for (const w of words) first[w.charCodeAt(0)] = 1;
  particleIndex = { words, first, max: Math.max(...[...words].map((w) => w.length)) };
  return particleIndex;
}

const CAPITAL = new RegExp(`[${CAPITAL_SET}]`, 'g');

/**
 * capitalisedRuns as a flat list start0, end0, words0, start1, end1, words1, ...: no small arrays to
 * collect, and the number of words (1 or more) tells single words, most runs, without a search.
 */
function capitalisedRunsFlat(text: string, capitals?: number[]): number[] {
  const cls = classes();
  const particles = particleWords();
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
        if (cls[first]! !== 1 || first >= 128 || particles.first[first] === 0) break;
        let w = j;
        while (w < n && cls[text.charCodeAt(w)]! === 1) w++;
        const ch = text.charCodeAt(w);
        if ((ch !== 32 && ch !== 0xa0) || w - j > particles.max || !particles.words.has(text.slice(j, w))) break;
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

/** A postal code right after a place's name: five digits (ZIP+4), four, or Portugal's and Poland's forms. */
const POSTAL_AFTER = /^,?[ \t]+(?:\d{5}(?:-\d{4})?|\d{4}-\d{3}|\d{2}-\d{3}|\d{4})(?![\d\p{L}])/u;
/** Labels of letter, memo and mail headers ("Attn:", "Cc:"): a line starting so is no speaker's. */
const HEADER_LABELS = (): ReadonlySet<string> => wordSet('headerLabels');

const POSSESSIVE_HUMAN =
  /^['’]s\s+(?:new\s+|old\s+|own\s+)?(?:address|kids?|children|son|daughter|wife|husband|mother|father|mom|dad|brother|sister|family|friends?|boss|phone|number|e-?mail|birthday|house|home|car|account|name|song|novel|book|killers?|death|life|office|desk|team|parents?|partner|girlfriend|boyfriend)\b/;

const SENTENCE_END = /(?:^|[.!?]["”’)]?\s+|\n\s*(?:[>*\-+#|]+\s*)?|^\s*["“(]\s*|[:;]\s+["“]?)$/;

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
  clearFlagCache();
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

/** "White, Willis and Hoffman", "Jones, Smith and Davis": the shape of a firm's name, not three people. */
const FIRM = /\b(\p{Lu}\p{Ll}+), (\p{Lu}\p{Ll}+),? and (\p{Lu}\p{Ll}+)\b/gu;

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
    if (MONTHS_DAYS().has(t.low)) month = true;
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

/** One text's scan for names and places: what every stage reads and the detections it collects. */
interface NameScan {
  text: string;
  lex: Lexicon;
  opts: NameOptions;
  /** Places found (and addresses, when places are asked for). */
  found: Detection[];
  people: Detection[];
  model: ModelOracle | undefined;
  placeThreshold: number;
  personThreshold: number;
  inAddress: (s: number, e: number) => boolean;
  nearAddress: (s: number) => boolean;
  inFirm: (s: number, e: number) => boolean;
}

/** Where "Xxx, Yyy and Zzz" is a firm's name ("Jones, Smith and Davis"), as [start, end). */
function findFirms(text: string, lex: Lexicon, opts: NameOptions): Array<[number, number]> {
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
  return firms;
}

/** `ctxIn`, `placeCtxIn`: the lower-cased context before s and PLACE_BEFORE on it, when the caller has them. */
function scorePlace(
  scan: NameScan,
  text: string,
  lex: Lexicon,
  s: number,
  e: number,
  run: Tok[],
  phrase: boolean,
  ctxIn?: string,
  placeCtxIn?: boolean,
): void {
  const { opts, found, model, placeThreshold, inAddress, nearAddress } = scan;
  if (!opts.location) return;
  const ctx = ctxIn ?? lower(text.slice(Math.max(0, s - 30), s));
  const low = run.map((t) => t.low).join(' ');
  let score = 0;
  if (lex.country.has(low) || phrase) score = 0.6;
  if (lex.region.has(low)) score = Math.max(score, 0.5);
  if (lex.majorCity.has(low)) score = Math.max(score, 0.55);
  if (lex.city.has(low)) score = Math.max(score, 0.3);
  const placeCtx = placeCtxIn ?? PLACE_BEFORE().test(ctx);
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
  if ((run[0]!.f & (FIRST | LAST)) !== 0 && !phrase && PERSON_BEFORE_STRONG().test(ctx)) score -= 0.5;
  if (/^(?:'s|’s)/.test(nxt) && !lex.country.has(low)) score -= 0.2;
  if (run.length === 1 && run[0]!.raw.length <= 3 && run[0]!.raw === run[0]!.raw.toUpperCase()) score -= 0.3;
  // The model's opinion weighs 0.2: it is asked only where that can change the outcome.
  if (model && score < placeThreshold && score + 0.2 >= placeThreshold && model.place(s, e)) score += 0.2;
  if (score >= placeThreshold)
    found.push({ start: s, end: e, entity: 'LOCATION', score: Math.min(1, score), kind: 'place' });
}

/** What scoring a run of name words needs to know of it and of the text around it. */
interface Candidate {
  n: number;
  head: Tok;
  last: Tok;
  s: number;
  e: number;
  /** The lower-cased context before the run. */
  ctx: string;
  /** Whether the context can match a context pattern at all (contextTrigger). */
  trigger: boolean;
  /** PLACE_BEFORE on the context (run once, when asked). */
  placeCtx: () => boolean;
  /** PERSON_BEFORE_STRONG on the context (run once, when asked). */
  strongCtx: () => boolean;
  /** Whether the text after the run can match PERSON_AFTER* (afterTrigger). */
  after: boolean;
  /** The text after the run, when `after`. */
  nxt: string;
  titled: boolean;
  sum: RunSummary;
  headIsFirstName: boolean;
}

function candidate(text: string, run: Tok[], titledChunk: boolean): Candidate {
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
    (placeCtxMemo < 0 ? (placeCtxMemo = PLACE_BEFORE().test(ctx) ? 1 : 0) : placeCtxMemo) === 1;
  let strongCtxMemo = trigger ? -1 : 0;
  const strongCtx = (): boolean =>
    (strongCtxMemo < 0 ? (strongCtxMemo = PERSON_BEFORE_STRONG().test(ctx) ? 1 : 0) : strongCtxMemo) === 1;
  const after = afterTrigger(text, e);
  const nxt = after ? text.slice(e, e + 28) : '';
  const titled = titledChunk || (trigger && TITLE_BEFORE.test(ctx));
  const sum = summarise(run);
  const headIsFirstName = (head.f & FIRST) !== 0;
  return { n, head, last, s, e, ctx, trigger, placeCtx, strongCtx, after, nxt, titled, sum, headIsFirstName };
}

/** The run read as a place where the word lists or the context say so; true when it was (or must not be a name). */
function placeReading(scan: NameScan, c: Candidate, run: Tok[], orgAfter: boolean): boolean {
  const { text, lex, opts, found, inAddress, inFirm } = scan;
  const { n, head, s, e, ctx, trigger, placeCtx, strongCtx, after, nxt, titled, sum, headIsFirstName } = c;
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
      scorePlace(scan, text, lex, s, e, run, false, ctx, trigger ? placeCtx() : undefined);
      if (found.length > before) return true;
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
    PLACE_STRONG().test(ctx) &&
    !inAddress(s, e) &&
    (sum.known === 0 || (!/^['’]s\b/.test(text.slice(e, e + 3)) && !/\bvisit(?:ed|ing)?\s+$/.test(ctx)))
  ) {
    found.push({ start: s, end: e, entity: 'LOCATION', score: 0.7, kind: 'place-context' });
    return true;
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
      return true;
    }
  }
  return false;
}

/** The run scored as a person's name: a prior from the word lists, then the context. */
function personReading(scan: NameScan, c: Candidate, run: Tok[], orgAfter: boolean, commonAfter: boolean): void {
  const { text, lex, people, model, personThreshold } = scan;
  const { n, head, last, s, e, ctx, trigger, placeCtx, strongCtx, after, nxt, titled, sum, headIsFirstName } = c;
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
  if (trigger && (PERSON_BEFORE_VERY_STRONG().test(ctx) || signOffBefore(text, s))) score += 0.5;
  else if (trigger && /\b(?:said|says|asked|told|replied|answered|shouted at|shouted|whispered)\s*$/.test(ctx))
    score += 0.4;
  else if (strongCtx()) score += 0.3;
  else if (trigger && PERSON_BEFORE().test(ctx)) score += 0.15;
  // Dialogue and speaker lines: "Leverett: What a wife."
  if (
    after &&
    /^:\s*["“]?\p{Lu}/u.test(nxt) &&
    /(?:^|\n)\s*$/.test(ctx) &&
    sum.common === 0 &&
    !(n === 1 && HEADER_LABELS().has(run[0]!.low))
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
  if (score >= personThreshold && !titled && !(headIsFirstName && n >= 2) && titleCased(text, s, e, lex)) score -= 0.3;
  if (score >= personThreshold) {
    people.push({ start: s, end: e, entity: 'PERSON', score: Math.min(1, score), kind: 'person' });
  }
}

function classify(scan: NameScan, run: Tok[], titledChunk: boolean, orgAfter: boolean, commonAfter = false): void {
  const { opts, inAddress, inFirm } = scan;
  const c = candidate(scan.text, run, titledChunk);
  const { s, e } = c;
  if (placeReading(scan, c, run, orgAfter)) return;
  if (!opts.person) return;
  if (inAddress(s, e) || inFirm(s, e)) return;
  personReading(scan, c, run, orgAfter, commonAfter);
}

/** The names and places of the capitalised runs (start, end, word count: capitalisedRunsFlat). */
function scanRuns(scan: NameScan, runs: number[]): void {
  const { text, lex, opts } = scan;
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
        if (t.f & (FIRST | LAST | PLACE) || t.ps || TITLES().has(t.low)) {
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
    while (toks.length && TITLES().has(toks[0]!.low) && toks.length > 1) {
      titled = true;
      toks.shift();
    }
    if (toks.length === 1 && TITLES().has(toks[0]!.low)) continue;
    // Split the chunk into runs around words that are ordinary vocabulary (sentence-initial "The", "Capitalized").
    let i = 0;
    while (i < toks.length) {
      // Multi-word places first ("New Zealand", "South Africa", "Rio de Janeiro").
      const pl = placePhrase(lex, toks, i);
      if (pl > 0) {
        const s = toks[i]!.s;
        const e = toks[i + pl - 1]!.e;
        scorePlace(scan, text, lex, s, e, toks.slice(i, i + pl), true);
        i += pl;
        continue;
      }
      // A name with a middle initial is one run, even where the initial is also a word ("Hanne I. Kreutzmann",
      // "Mark A Lewis").
      const mid = middleInitialLength(toks, i);
      if (mid > 0) {
        const orgAfter = i + mid < toks.length && ORG_WORDS().has(toks[i + mid]!.low);
        classify(scan, toks.slice(i, i + mid), titled && i === 0, orgAfter);
        titled = false;
        i += mid;
        continue;
      }
      const t = toks[i]!;
      const common = (t.f & COMMON) !== 0 && (t.f & (FIRST | LAST | PLACE)) === 0;
      if (common || ORG_WORDS().has(t.low) || (TITLES().has(t.low) && i < toks.length - 1)) {
        if (TITLES().has(t.low)) titled = true;
        i++;
        continue;
      }
      let j = i + 1;
      while (j < toks.length) {
        const u = toks[j]!;
        if ((u.f & COMMON) !== 0 && (u.f & (FIRST | LAST | PLACE)) === 0) break;
        if (ORG_WORDS().has(u.low)) break;
        if (placePhrase(lex, toks, j) > 0 && (u.f & (FIRST | LAST)) === 0) break;
        j++;
      }
      const run = toks.slice(i, j);
      const orgAfter = j < toks.length && ORG_WORDS().has(toks[j]!.low);
      // "Stanley Cups", "Christian Science": a capitalised ordinary word right after makes one proper noun.
      const commonAfter =
        !orgAfter && j < toks.length && (toks[j]!.f & COMMON) !== 0 && (toks[j]!.f & (FIRST | LAST)) === 0;
      classify(scan, run, titled && i === 0, orgAfter, commonAfter);
      titled = false;
      i = j;
    }
  }
}

/** A name that was confidently found once is a name everywhere in the text ("Brown" after "Ann Brown"). */
function spreadSureNames(scan: NameScan): void {
  const { text, lex, people, inAddress } = scan;
  if (people.length) {
    const sure = new Set<string>();
    // Parts of full names (two or more words) spread: "McDowell" after "Adam McDowell". Ordinary words and
    // initials do not.
    for (const p of people) {
      const words = text.slice(p.start, p.end).split(/\s+/);
      if (p.score < 0.7 || words.length < 2) continue;
      for (const w of words)
        if (w.length > 2 && /^\p{Lu}\p{Ll}/u.test(w) && !isCommon(lex, lower(w)) && !TITLES().has(lower(w)))
          sure.add(w);
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
  const firms = findFirms(text, lex, opts);
  const inFirm = (s: number, e: number): boolean => firms.some((f) => f[0] <= s && e <= f[1]);
  const people: Detection[] = [];
  const scan: NameScan = {
    text,
    lex,
    opts,
    found,
    people,
    model,
    placeThreshold,
    personThreshold,
    inAddress,
    nearAddress,
    inFirm,
  };
  scanRuns(scan, capitalisedRunsFlat(text, opts.capitals));
  if (opts.person && people.length) spreadSureNames(scan);
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
