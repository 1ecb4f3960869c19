/**
 * Street addresses and postal codes, found from their shape (house number next to a street-type word,
 * "Apt. 12", "PSC 1234, Box 5678") and grown over the lines or comma-separated parts that continue them.
 */
import { STREET_WORDS, type Lexicon } from './lexicon.js';
import type { Detection, DetectMode } from './types.js';
import { wordSet } from './word-lists.js';
import { classes, isName, isPlace, lower, MONTHS_DAYS } from './word-flags.js';

const ADDRESS_BEFORE =
  /(?:\b(?:lives (?:at|on)|live (?:at|on)|located at|address(?: is|:)?|addresses|at|on|to|send(?: it)? to|ship(?: it)? to|deliver(?: it)? to|return to|meet (?:me|you) at|drops you off at|arrived at|corner of|in|from|update.*address.*(?:is|with|to)|billing address:?|shipping address:?)\s*:?\s*$)/;
// ------------------------------------------------------------------------------------------ ADDRESSES

const LED_WORDS = (): ReadonlySet<string> => wordSet('ledWords');
const PARTICLES = (): ReadonlySet<string> => wordSet('particles');
let streetWordSet: Set<string> | undefined;
let suffixSet: { set: Set<string>; lengths: number[] } | undefined;

function streetTables(lex: Lexicon): { words: Set<string>; suffixes: { set: Set<string>; lengths: number[] } } {
  if (!streetWordSet) streetWordSet = new Set(STREET_WORDS());
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

export function findAddresses(
  text: string,
  lex: Lexicon,
  mode: DetectMode,
  postal: boolean | undefined,
  corner: boolean,
  digits: number[],
): Detection[] {
  const { words, suffixes } = streetTables(lex);
  const scan: NumberScan = {
    text,
    lex,
    words,
    suffixes,
    cls: classes(),
    postalWords: postal ?? POSTAL_WORDS.test(text),
    parts: [],
    out: [],
  };
  // Digit runs: a run of more than six digits is no house number (an ID, a phone number).
  for (const i of digits) addressAtNumber(scan, i);
  const { parts, out } = scan;
  let m: RegExpExecArray | null;
  if (corner) {
    CORNER.lastIndex = 0;
    while ((m = CORNER.exec(text)) !== null) parts.push([m.index, m.index + m[0].length]);
  }
  if (parts.length === 0) return out;
  parts.sort((a, b) => a[0] - b[0]);
  const blocks = grownAddresses(text, lex, parts);
  for (const [s, e] of blocks)
    out.push({ start: s, end: e, entity: 'LOCATION', score: mode === 'fast' ? 0.85 : 0.9, kind: 'street' });
  return out;
}

/**
 * Each street part grown over the segments that continue the address: further street parts, place
 * names, region abbreviations, postal codes, each a short line or comma-separated segment.
 */
function grownAddresses(text: string, lex: Lexicon, parts: Array<[number, number]>): Array<[number, number]> {
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
  return blocks;
}

/** What the house-number scan of one text reads and writes. */
interface NumberScan {
  text: string;
  lex: Lexicon;
  words: ReturnType<typeof streetTables>['words'];
  suffixes: ReturnType<typeof streetTables>['suffixes'];
  cls: ReturnType<typeof classes>;
  postalWords: boolean;
  /** Street parts found (start, end), grown into addresses afterwards. */
  parts: Array<[number, number]>;
  /** Postal codes, final as found. */
  out: Detection[];
}

/** The street part (or postal code) that the digit run starting at `i` begins or ends, if any. */
function addressAtNumber(scan: NumberScan, i: number): void {
  const { text, lex, words, cls, postalWords, parts, out } = scan;
  let runEnd = i + 1;
  while (runEnd < text.length && text.charCodeAt(runEnd) >= 48 && text.charCodeAt(runEnd) <= 57) runEnd++;
  if (runEnd - i > 6) return;
  const prevCh = i > 0 ? text.charCodeAt(i - 1) : 32;
  // Inside a longer token (a word, a decimal, a code): not a house number.
  if (
    (prevCh >= 65 && prevCh <= 90) ||
    (prevCh >= 97 && prevCh <= 122) ||
    (prevCh === 46 && i > 1 && /\d/.test(text[i - 2]!))
  )
    return;
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
    ((a[1]!.length > 0 && CAP.test(a[1]!)) || (LED_WORDS().has(a[2]!.toLowerCase()) === false && CAP.test(a[2]!))) &&
    !/^\d{1,4}[ \t]+(?:st|nd|rd|th)\b/i.test(a[0])
  ) {
    let e = i + a[0].length;
    if (text[e - 1] === ',') e--;
    parts.push([i, e]);
    return;
  }
  // "1812 Rue De La Gare", "31 Via dei Fiorentini": a street word leads the words after the number.
  if (capNext) {
    STREET_LED_AFTER_NUMBER.lastIndex = i;
    const l = STREET_LED_AFTER_NUMBER.exec(text);
    if (
      l &&
      LED_WORDS().has(l[1]!.toLowerCase()) &&
      !/^(?:apt|apartment|suite|ste|unit|flat|box|floor|building|bldg|house)$/i.test(l[1]!)
    ) {
      parts.push([i, i + l[0].length]);
      return;
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
    return;
  }
  // Words before the number: "Koskikatu 25", "Rue de Piétrain 371", "Apt. 864", "Hoge Wei 32 St."
  if (prevCh !== 32 && prevCh !== 9 && prevCh !== 44) {
    if (postalWords && postalContextBefore(text, i)) {
      POSTAL.lastIndex = i;
      const p = POSTAL.exec(text);
      if (p) out.push({ start: i, end: i + p[0].length, entity: 'LOCATION', score: 0.9, kind: 'postal' });
    }
    return;
  }
  if (postalWords && postalContextBefore(text, i)) {
    POSTAL.lastIndex = i;
    const p = POSTAL.exec(text);
    if (p) {
      out.push({ start: i, end: i + p[0].length, entity: 'LOCATION', score: 0.9, kind: 'postal' });
      return;
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
    if (w === k) return;
    if (cls[text.charCodeAt(w)] === 1) {
      const word = text.slice(w, k);
      if (!LED_WORDS().has(word.toLowerCase()) && word !== 'u' && !words.has(word)) return;
    }
  }
  streetBeforeNumber(scan, i, runEnd);
}

/**
 * The street named before the house number at `i` (its digits end at `runEnd`): "Koskikatu 25",
 * "Kálmán Imre u. 12.", "Rue de Piétrain 371", "Apt. 864"; or failing that, a postal code there.
 */
function streetBeforeNumber(scan: NumberScan, i: number, runEnd: number): void {
  const { text, lex, words, suffixes, postalWords, parts, out } = scan;
  const before = wordsBefore(text, i, 6);
  const w0 = before[0];
  if (!w0) return;
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
    const typed = (words.has(w0.low) || w0.raw === 'u.') && !LED_WORDS().has(w0.low);
    let k = typed ? 1 : 0;
    let first = -1;
    while (
      k < before.length &&
      k < 4 &&
      CAP.test(before[k]!.raw) &&
      !/.\p{Lu}/u.test(before[k]!.raw) &&
      !MONTHS_DAYS().has(before[k]!.low) &&
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
      if (LED_WORDS().has(w.low) && (CAP.test(w.raw) || k > 0 || /^(?:apt|ste|unit|suite|box)$/.test(w.low))) {
        // Everything between the street word and the number must be name-like.
        const between = before.slice(0, k);
        if (between.every((x) => CAP.test(x.raw) || PARTICLES().has(x.low) || /^\d/.test(x.raw))) start = w.s;
        break;
      }
      if (!CAP.test(w.raw) && !PARTICLES().has(w.low)) break;
    }
  }
  if (start < 0 && CAP.test(w0.raw) && !lex.common.has(w0.low)) {
    NUMBER_THEN_TYPE.lastIndex = i;
    const c = NUMBER_THEN_TYPE.exec(text);
    if (c && words.has(c[1]!.toLowerCase()) && !LED_WORDS().has(c[1]!.toLowerCase())) {
      let s0 = w0.s;
      if (before[1] && CAP.test(before[1].raw) && !lex.common.has(before[1].low)) s0 = before[1].s;
      parts.push([s0, i + c[0].length]);
      return;
    }
  }
  if (start >= 0) {
    let e = runEnd;
    if (/[A-Za-z]/.test(text[e] ?? '') && !/[A-Za-z]/.test(text[e + 1] ?? '')) e++;
    // "Main Street 5" after a house number: "6750 Koskikatu 25".
    const pre = /(?:^|[^\p{L}\p{N}])(\d{1,6}[A-Za-z]?,?[ \t]+)$/u.exec(text.slice(Math.max(0, start - 10), start));
    if (pre) start -= pre[1]!.length;
    parts.push([start, e]);
    return;
  }
  if (postalWords && postalContextBefore(text, i)) {
    POSTAL.lastIndex = i;
    const p = POSTAL.exec(text);
    if (p) out.push({ start: i, end: i + p[0].length, entity: 'LOCATION', score: 0.9, kind: 'postal' });
  }
}

/**
 * Words that name the kind of place in a place name ("Port Whangarei", "Pines Beach", "Mount Barker"):
 * ordinary vocabulary, but a part of the name on an address line beside a word that is not.
 */
const TOPONYM_WORDS = (): ReadonlySet<string> => wordSet('toponymWords');
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
    else if (/^\p{Lu}/u.test(w) && (isPlace(lex, low) || !lex.common.has(low) || STREET_WORDS().includes(low))) {
      ok++;
      plain++;
    } else if (/^\p{Lu}/u.test(w) && TOPONYM_WORDS().has(low)) ok++;
    else if (PLACE_PARTICLES.test(w)) ok += 0.5;
    else if (/^(?:apt|suite|ste|unit|box|floor|bldg|flat)\.?$/i.test(w)) ok++;
    else if (/^\d{1,5}[A-Za-z]?$/.test(w)) ok++;
    else return false;
  }
  // Kind-of-place words alone ("New Station") are no place name.
  if (plain === 0 && words.some((w) => TOPONYM_WORDS().has(lower(w.replace(/[.,]$/, ''))) && /^\p{Lu}/u.test(w)))
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
