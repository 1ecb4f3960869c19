/**
 * Detectors for identifiers with a fixed shape: e-mail addresses, phone numbers, financial numbers
 * (checked with their check digits); secrets are in secrets.ts.
 * Every detector scans only where a cheap trigger (an `@`, a digit, a key prefix) says it may match.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { abaValid, ibanValid, isbnValid, luhnValid, ssnValid } from './checksums.js';
import type { Detection, DetectMode } from './types.js';

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** Lower-cased text of up to `n` characters before `i`. */
export const before = (text: string, i: number, n: number): string => text.slice(Math.max(0, i - n), i).toLowerCase();
export const after = (text: string, i: number, n: number): string => text.slice(i, i + n).toLowerCase();

// ---------------------------------------------------------------------------------------------- EMAIL

const EMAIL_LOCAL = /[\p{L}\p{N}._%+\-!#$&'*/=?^`{|}~]/u;
const EMAIL_DOMAIN =
  /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?)*\.\p{L}{2,24}/u;

/** EMAIL_LOCAL of the ASCII characters, less the ones that are table and template syntax far more often. */
const EMAIL_LOCAL_ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++)
  EMAIL_LOCAL_ASCII[c] =
    EMAIL_LOCAL.test(String.fromCharCode(c)) && !"|{}`*'/".includes(String.fromCharCode(c)) ? 1 : 0;

export function findEmails(text: string, out: Detection[]): void {
  let at = text.indexOf('@');
  while (at !== -1) {
    let s = at;
    while (s > 0 && at - s < 64) {
      // `|` and `{}` are legal in an address but are table and template syntax far more often.
      const c = text.charCodeAt(s - 1);
      if (c < 128 ? EMAIL_LOCAL_ASCII[c] === 0 : !EMAIL_LOCAL.test(text[s - 1]!)) break;
      s--;
    }
    while (s < at && (text[s] === '.' || text[s] === '-' || text[s] === '_' || text[s] === '+')) s++;
    const dom = EMAIL_DOMAIN.exec(text.slice(at + 1, at + 256));
    if (s < at && dom) {
      const end = at + 1 + dom[0].length;
      out.push({ start: s, end, entity: 'EMAIL', score: 1, kind: 'email' });
      at = text.indexOf('@', end);
    } else {
      at = text.indexOf('@', at + 1);
    }
  }
}

// ------------------------------------------------------------------------------------ NUMBERS (PHONE, FINANCIAL)

/**
 * A run of digits with the separators numbers are written with. It starts at a `+`, `(` or digit
 * that does not continue a word, and stops before a separator that is not followed by more digits.
 */
const NUM_RUN =
  /(?:\+|\b)\(?\d(?:\d|[ \u00a0.\-/](?=\(?\d)|\((?=\d)|\)(?=[ \u00a0\-.]?\d))*(?:(?: ?(?:x|ext\.?|ext) ?)\d{1,6}\b)?/g;

const PHONE_CONTEXT =
  /(?:phone|tel(?:ephone)?|call|calling|mobile|cell|fax|desk|office|contact|reach|dial|ring|text|sms|whatsapp|number|landline|hotline|answering|registered)\W{0,3}(?:[a-z]{1,12}\W{1,3}){0,3}$|\b(?:ph|mob|tel|t|m|f)\.?\s*:\s*$/;
const PHONE_AFTER = /^[\s\-:(]{0,3}(?:office|fax|mobile|cell|home|work|desk|phone|tel)\b/;
const CARD_CONTEXT =
  /(?:card|cc|visa|mastercard|amex|american express|discover|maestro|jcb|diners|credit|debit|payment)\b[^\n]{0,30}$/;
const SSN_CONTEXT = /(?:ssn|social security|social sec|ss#|ss #|taxpayer|tin)\b[^\n]{0,25}$/;
const ROUTING_CONTEXT = /(?:routing|aba|rtn|transit|sort code)\b[^\n]{0,25}$/;
const ACCOUNT_CONTEXT = /(?:account|acct|a\/c|bank)\s*(?:number|no\.?|num|#|nr\.?)?\s*(?:is|:|=|#)?\s*$/;
const NOT_PHONE_CONTEXT =
  /(?:cve|order|invoice|ref(?:erence)?|ticket|tracking|isbn|issn|doi|serial|part|model|sku|item|case|claim|policy|version|v|build|page|pages|pp|no|year|id|shipment|parcel|transaction|receipt|booking|confirmation|\$|€|£|¥|usd|eur|gbp)(?:\s*(?:number|no\.?|nr\.?|num|id|code|#))?\W{0,3}$/;

/** Countries whose national formats are tried for numbers written without a country code. */
const PHONE_COUNTRIES: CountryCode[] = [
  'US',
  'GB',
  'DE',
  'FR',
  'IT',
  'ES',
  'NL',
  'BE',
  'CH',
  'AT',
  'SE',
  'NO',
  'DK',
  'FI',
  'IE',
  'PT',
  'PL',
  'CZ',
  'HU',
  'AU',
  'NZ',
  'CA',
  'BR',
  'IN',
  'ZA',
  'IS',
  'GR',
  'RU',
  'JP',
  'MX',
];

function ctxPhoneCheap(ctx: string): boolean {
  return PHONE_CONTEXT.test(ctx);
}

function looksLikeDateOrVersion(run: string): boolean {
  if (/^\d{1,2}[ ./\-]\d{1,2}[ ./\-](?:19|20)\d\d$/.test(run)) return true; // 30 06 2023
  if (/^\d{1,4}[./\-]\d{1,2}[./\-]\d{1,4}$/.test(run)) return true; // 2024-01-31, 31/01/2024, 1.2.3
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(run)) return true; // IPv4 address or a four-part version
  if (/^(?:19|20)\d\d ?[-–/] ?(?:19|20)?\d\d$/.test(run)) return true; // 1990-2000
  if (/^\d{1,2}:\d{2}/.test(run)) return true;
  return false;
}

function phoneValid(run: string, digits: string, loose: boolean): boolean {
  const intl = run.startsWith('+') || run.startsWith('00');
  const candidate = run.startsWith('00') ? '+' + run.slice(2) : run;
  try {
    if (intl) {
      const p = parsePhoneNumberFromString(candidate);
      return !!p && (p.isValid() || (loose && p.isPossible()));
    }
    for (const c of PHONE_COUNTRIES) {
      const p = parsePhoneNumberFromString(candidate, c);
      if (p && (p.isValid() || (loose && p.isPossible()))) return true;
    }
  } catch {
    return false;
  }
  // In a phone context, short local numbers ("467 3395", "9472 7916") carry no area code to validate.
  return loose && digits.length >= 7 && digits.length <= 12 && /[ .\-]/.test(run);
}

/**
 * phoneValid remembered per text: parsing tries up to thirty national formats (about 50 µs), and
 * documents repeat their numbers (a footer, a contact block, a table of the same lines).
 */
function phoneValidOnce(run: string, digits: string, loose: boolean, seen: Map<string, boolean>): boolean {
  const key = loose ? '1' + run : '0' + run;
  let ok = seen.get(key);
  if (ok === undefined) {
    ok = phoneValid(run, digits, loose);
    seen.set(key, ok);
  }
  return ok;
}

/** Characters a NUM_RUN match is made of: digits, separators, brackets, "+", and "x" / "ext." of an extension. */
function numberChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) ||
    c === 32 ||
    c === 0xa0 ||
    c === 46 ||
    c === 45 ||
    c === 47 ||
    c === 40 ||
    c === 41 ||
    c === 43 ||
    c === 120 ||
    c === 101 ||
    c === 116
  );
}

/**
 * The next NUM_RUN match that can hold six digits, or null. Every match lies inside a window of
 * numberChar characters, and a match with fewer than six digits is never an identifier: windows with
 * fewer digits are passed over without running the pattern (most digit runs are years, versions and
 * counts). Within a window the matches are those of a scan from the start of the text.
 */
function nextNumberRun(text: string, scan: NumberScan): RegExpExecArray | null {
  for (;;) {
    if (NUM_RUN.lastIndex < scan.windowEnd) {
      const m = NUM_RUN.exec(text);
      if (m && m.index < scan.windowEnd) return m;
      NUM_RUN.lastIndex = scan.windowEnd;
    }
    // The first digit after a window starts a digit run: the window took every digit before it.
    const p = nextDigit(text, scan);
    if (p < 0) return null;
    let ws = p;
    while (ws > scan.windowEnd && numberChar(text.charCodeAt(ws - 1))) ws--;
    let we = p + 1;
    let nd = 1;
    for (let c = text.charCodeAt(we); we < text.length && numberChar(c); c = text.charCodeAt(++we))
      if (c >= 48 && c <= 57) nd++;
    scan.windowEnd = we;
    NUM_RUN.lastIndex = nd >= 6 ? ws : we;
  }
}

interface NumberScan {
  /** Starts of the text's digit runs (digitRuns) when the caller has them, and the next one to look at. */
  digits: number[] | undefined;
  k: number;
  /** End of the last window of number characters. */
  windowEnd: number;
}

const DIGIT = /\d/g;

/** The first digit at or after scan.windowEnd, or -1. */
function nextDigit(text: string, scan: NumberScan): number {
  const digits = scan.digits;
  if (digits === undefined) {
    // test() finds the next digit without a match object.
    DIGIT.lastIndex = scan.windowEnd;
    return DIGIT.test(text) ? DIGIT.lastIndex - 1 : -1;
  }
  while (scan.k < digits.length && digits[scan.k]! < scan.windowEnd) scan.k++;
  return scan.k < digits.length ? digits[scan.k]! : -1;
}

/**
 * Start of every maximal run of ASCII digits, in one scan: numbers and house numbers both start from
 * them. test() finds the next digit without a match object; the run is measured by hand.
 */
export function digitRuns(text: string): number[] {
  const out: number[] = [];
  const digit = /\d/g;
  while (digit.test(text)) {
    let e = digit.lastIndex;
    out.push(e - 1);
    while (e < text.length && isDigit(text.charCodeAt(e))) e++;
    digit.lastIndex = e;
  }
  return out;
}

/** `digits`: digitRuns(text), when the caller has it (a scan of its own finds only the digits it needs). */
export function findNumbers(
  text: string,
  mode: DetectMode,
  out: Detection[],
  wantPhone: boolean,
  wantFinancial: boolean,
  digits?: number[],
): void {
  NUM_RUN.lastIndex = 0;
  const scan: NumberScan = { digits, k: 0, windowEnd: 0 };
  const phoneSeen = new Map<string, boolean>();
  let m: RegExpExecArray | null;
  while ((m = nextNumberRun(text, scan)) !== null) {
    let run = m[0];
    let start = m.index;
    if (run.length < 7) continue;
    // A run glued to letters or more digits on its left (a word, a product code) is not an identifier.
    const prev = start > 0 ? text.charCodeAt(start - 1) : 32;
    if (
      (prev >= 65 && prev <= 90) ||
      (prev >= 97 && prev <= 122) ||
      prev === 95 ||
      prev === 45 ||
      (prev === 35 && !wantFinancial)
    )
      continue;
    const next = text.charCodeAt(start + run.length);
    if ((next >= 65 && next <= 90) || (next >= 97 && next <= 122)) continue;
    let nd = 0;
    for (let k = 0; k < run.length; k++) {
      const c = run.charCodeAt(k);
      if (c >= 48 && c <= 57) nd++;
    }
    // Fewer than six digits: a year, a version, a quantity; no identifier here is that short.
    if (nd < 6) continue;
    const digits = run.replace(/\D/g, '');
    const ctx = before(text, start, 40);
    const end = start + run.length;

    if (wantFinancial) {
      // US SSN: 3-2-4 with its validity rules; nine bare digits only when named as one.
      const ssn = /^(\d{3})([- ])(\d{2})\2(\d{4})$/.exec(run);
      const ssnNamed = SSN_CONTEXT.test(ctx);
      if (ssn && ssnValid(ssn[1]!, ssn[3]!, ssn[4]!, ssnNamed) && (!PHONE_CONTEXT.test(ctx) || ssnNamed)) {
        out.push({ start, end, entity: 'FINANCIAL', score: 0.95, kind: 'ssn' });
        continue;
      }
      if (
        /^\d{9}$/.test(digits) &&
        ssnNamed &&
        ssnValid(digits.slice(0, 3), digits.slice(3, 5), digits.slice(5), true)
      ) {
        out.push({ start, end, entity: 'FINANCIAL', score: 0.95, kind: 'ssn' });
        continue;
      }
      if (/^\d{9}$/.test(digits) && ROUTING_CONTEXT.test(ctx) && abaValid(digits)) {
        out.push({ start, end, entity: 'FINANCIAL', score: 0.95, kind: 'routing' });
        continue;
      }
      if (digits.length >= 12 && digits.length <= 19 && luhnValid(digits) && cardShape(run, digits)) {
        const isbn = /isbn|issn/.test(ctx) || (digits.length === 13 && /^97[89]/.test(digits) && isbnValid(digits));
        const other = NOT_PHONE_CONTEXT.test(ctx) && !CARD_CONTEXT.test(ctx);
        const cardCtx = CARD_CONTEXT.test(ctx);
        // 12-digit Maestro numbers are too short to tell from other numbers without being called a card.
        if (!isbn && !other && (digits.length >= 13 || cardCtx)) {
          out.push({ start, end, entity: 'FINANCIAL', score: cardCtx ? 1 : 0.9, kind: 'card' });
          continue;
        }
      }
      if (ACCOUNT_CONTEXT.test(ctx) && digits.length >= 6 && digits.length <= 17 && /^\d[\d -]*$/.test(run)) {
        out.push({ start, end, entity: 'FINANCIAL', score: 0.85, kind: 'account' });
        continue;
      }
    }

    if (!wantPhone) continue;
    // An extension belongs to the number; the digit count excludes it.
    const ext = /(?: ?(?:x|ext\.?) ?)(\d{1,6})$/.exec(run);
    const core = ext ? run.slice(0, ext.index) : run;
    const coreDigits = core.replace(/\D/g, '');
    if (coreDigits.length < 7 || coreDigits.length > 15) continue;
    if (looksLikeDateOrVersion(core) || /^:\d/.test(text.slice(end, end + 2))) continue;
    // Dates, versions, IP ranges and decimals inside the run; runs inside URLs and paths.
    // Dates, versions, and citations ("22 (2019) 451": volume, year, page).
    if (/\d{4}-\d{2}-\d{2}|\d+\.\d+\.\d+[ (]|\((?:1[89]|20)\d\d(?:\)|$)/.test(core)) continue;
    if (core.split(/[ \u00a0]/).some((g) => /^\d+\.\d+$/.test(g)) && !/^\+/.test(core)) continue;
    if (core.includes('/') && !ctxPhoneCheap(ctx)) continue;
    // Inside a list of numbers ("1.65,403.8"), a URL or a query string.
    if (
      start > 0 &&
      (text[start - 1] === '/' ||
        text[start - 1] === '=' ||
        ((text[start - 1] === ',' || text[start - 1] === '.') && /\d/.test(text[start - 2] ?? '')))
    )
      continue;
    // Postal codes: Portuguese 1234-567, US ZIP+4 and Brazilian CEP 12345-6789 / 12345-678.
    if (/^\d{4}-\d{3}$|^\d{5}-\d{3,4}$/.test(core) && !ctxPhoneCheap(ctx)) continue;
    if (/^(?:19|20)\d\d[ \-.]/.test(core) && !ctxPhoneCheap(ctx)) continue;
    if (/^\d+$/.test(core) && coreDigits.length > 11 && !core.startsWith('+')) continue;
    const tail = text.slice(end, end + 2);
    if (/^\s?%/.test(tail)) continue;
    // "licence number", "account number": the number is named, and it is not a phone number.
    const otherNumber =
      /(?:licen[cs]e|passport|account|card|order|invoice|policy|member|customer|tracking|serial|tax|id|ssn|social security)\W+(?:number|no\.?|nr\.?|#)\W*(?:is\W*)?$/.test(
        ctx,
      );
    const ctxPhone = !otherNumber && (PHONE_CONTEXT.test(ctx) || PHONE_AFTER.test(after(text, end, 16)));
    if (!ctxPhone && (otherNumber || NOT_PHONE_CONTEXT.test(ctx))) continue;
    if (SSN_CONTEXT.test(ctx) && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(core)) continue;
    // 1 200 000 or 12.345.678: a quantity with thousands separators.
    if (!ctxPhone && /^\d{1,3}(?:([ ,.\u00a0])\d{3})(?:\1\d{3})*$/.test(core)) continue;
    if (!ctxPhone && coreDigits.length === 10 && isbnValid(coreDigits) && /isbn/.test(ctx)) continue;
    if (/^(?:19|20)\d\d$/.test(coreDigits.slice(0, 4)) && /^\d{4}[ ]\d{4}$/.test(core) && !ctxPhone) continue;
    const loose = ctxPhone || mode === 'aggressive';
    // A bare run of digits with no grouping and no context is more often an ID than a phone number.
    if (!ctxPhone && /^\d+$/.test(core) && mode !== 'aggressive') continue;
    if (!phoneValidOnce(core, coreDigits, loose, phoneSeen)) continue;
    if (start > 0 && text[start - 1] === '(' && !core.startsWith('(')) {
      // "(555) 123" was split at the parenthesis: keep the number whole.
      start -= 1;
      run = '(' + run;
    }
    out.push({ start, end, entity: 'PHONE', score: ctxPhone ? 0.95 : 0.85, kind: 'phone' });
  }
}

/** Card numbers are written as one run of digits or in groups of 4 (Amex 4-6-5, Diners 4-6-4). */
function cardShape(run: string, digits: string): boolean {
  if (!/^[1-6]/.test(digits)) return false;
  if (digits.startsWith('1') && !digits.startsWith('1800')) return false;
  if (/^\d+$/.test(run)) return true;
  const groups = run.split(/[ \-.]/).map((g) => g.length);
  if (groups.some((g) => g === 0)) return false;
  const shape = groups.join('-');
  return /^(?:4-4-4-4(?:-\d)?|4-4-4-1|4-4-4-3|4-6-5|4-6-4|4-4-4-4-3|4-4-4-2|4-4-5|4-4-4)$/.test(shape);
}

// ---------------------------------------------------------------------------------------------- IBAN

const IBAN_RUN = /\b([A-Za-z]{2}\d{2}(?:[ ]?[A-Za-z0-9]{4}){2,7}(?:[ ]?[A-Za-z0-9]{1,4})?)\b/g;
/** IBAN_RUN tried at one position. */
const IBAN_AT = new RegExp(IBAN_RUN.source, 'y');

const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isWordCode = (c: number): boolean => isAsciiLetter(c) || isDigit(c) || c === 95;

/**
 * The matches of IBAN_RUN. With the text's digit runs (digitRuns): an IBAN starts with two letters at
 * a word start and two digits, and those digits start a digit run, so the pattern is tried only there,
 * in the order and without the overlaps of a scan of the whole text.
 */
function ibanMatches(text: string, digits: number[] | undefined): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  let m: RegExpExecArray | null;
  if (digits === undefined) {
    IBAN_RUN.lastIndex = 0;
    while ((m = IBAN_RUN.exec(text)) !== null) out.push(m);
    return out;
  }
  let resume = 0;
  for (const p of digits) {
    const at = p - 2;
    if (
      at < resume ||
      !isDigit(text.charCodeAt(p + 1)) ||
      !isAsciiLetter(text.charCodeAt(at)) ||
      !isAsciiLetter(text.charCodeAt(at + 1))
    )
      continue;
    if (at > 0 && isWordCode(text.charCodeAt(at - 1))) continue;
    IBAN_AT.lastIndex = at;
    m = IBAN_AT.exec(text);
    if (m === null) continue;
    out.push(m);
    resume = at + m[0].length;
  }
  return out;
}

/** `digits`: digitRuns(text), when the caller has it. */
export function findIbans(text: string, out: Detection[], digits?: number[]): void {
  for (const m of ibanMatches(text, digits)) {
    let value = m[1]!;
    // The optional trailing group may have swallowed the next word: shorten until the checksum holds.
    for (let cut = value.length; cut >= 15; cut--) {
      const v = value.slice(0, cut);
      if (/ $/.test(v)) continue;
      if (ibanValid(v.replace(/ /g, ''))) {
        value = v;
        out.push({ start: m.index, end: m.index + v.length, entity: 'FINANCIAL', score: 1, kind: 'iban' });
        break;
      }
    }
  }
}
