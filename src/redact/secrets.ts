/**
 * Secrets: provider key formats, key blocks, connection strings, credential assignments and random
 * tokens. One pass over the text finds every place a rule may match (its hints: key prefixes and
 * credential words), and the same pass collects the literals the name detector starts from.
 */
import { entropy } from './checksums.js';
import { after, before, digitRuns } from './patterns.js';
import type { Detection, DetectMode } from './types.js';
import { wordList } from './word-lists.js';

interface SecretRule {
  kind: string;
  re: RegExp;
  /** Literals one of which every match contains: the rule runs only when the text has one. */
  hints: string[];
  /**
   * Two-letter prefixes too common to be hints ("SK", "AC"): followed by a lower-case hex digit they
   * mark a window for the rule without being taken as a hint (other hints may start inside them).
   */
  hexPrefixes?: string[];
  /** Index of the capture group holding the secret; 0 = the whole match. */
  group?: number;
}

/** Key formats published by their providers (and used by secret scanners such as gitleaks). */
const PROVIDER_RULES: SecretRule[] = [
  {
    kind: 'private-key',
    hints: ['PRIVATE KEY'],
    re: /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/g,
  },
  {
    kind: 'aws-access-key',
    hints: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AIPA', 'ANPA', 'ANVA', 'APKA', 'AROA', 'ASCA'],
    re: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z2-7]{16}\b/g,
  },
  {
    kind: 'github-token',
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
  },
  {
    kind: 'gitlab-token',
    hints: ['glpat-', 'gldt-', 'glptt-', 'glrt-', 'glcbt-', 'glsoat-', 'glffct-'],
    re: /\bgl(?:pat|dt|ptt|rt|cbt|soat|ffct)-[A-Za-z0-9_\-]{20,}\b/g,
  },
  { kind: 'slack-token', hints: ['xox'], re: /\bxox[abposre]-[A-Za-z0-9-]{10,}\b/g },
  {
    kind: 'slack-webhook',
    hints: ['hooks.slack.com'],
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9+/_\-]{20,}/g,
  },
  { kind: 'stripe-key', hints: ['_live_', '_test_'], re: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { kind: 'stripe-webhook', hints: ['whsec_'], re: /\bwhsec_[A-Za-z0-9]{24,}\b/g },
  { kind: 'google-api-key', hints: ['AIza'], re: /\bAIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])/g },
  {
    kind: 'google-oauth',
    hints: ['ya29.', 'GOCSPX-'],
    re: /\b(?:ya29\.[0-9A-Za-z_\-]{20,}|GOCSPX-[0-9A-Za-z_\-]{28})/g,
  },
  { kind: 'anthropic-key', hints: ['sk-ant-'], re: /\bsk-ant-[a-z0-9]+-[A-Za-z0-9_\-]{32,}/g },
  {
    kind: 'openai-key',
    hints: ['sk-'],
    re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}(?:T3BlbkFJ[A-Za-z0-9_\-]{20,})?(?![A-Za-z0-9_\-])/g,
  },
  { kind: 'sendgrid-key', hints: ['SG.'], re: /\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}\b/g },
  { kind: 'npm-token', hints: ['npm_'], re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'pypi-token', hints: ['pypi-'], re: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}/g },
  { kind: 'huggingface-token', hints: ['hf_'], re: /\bhf_[A-Za-z]{34}\b/g },
  { kind: 'digitalocean-token', hints: ['_v1_'], re: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  { kind: 'shopify-token', hints: ['shp'], re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { kind: 'twilio-key', hints: [], hexPrefixes: ['SK', 'AC'], re: /\b(?:SK|AC)[0-9a-f]{32}\b/g },
  { kind: 'mailgun-key', hints: ['key-'], re: /\bkey-[0-9a-z]{32}\b/g },
  { kind: 'square-token', hints: ['sq0', 'EAAA'], re: /\b(?:sq0atp|sq0csp|EAAA)[0-9A-Za-z_\-]{22,60}\b/g },
  { kind: 'telegram-bot-token', hints: [':AA'], re: /\b\d{8,10}:AA[0-9A-Za-z_\-]{33}\b/g },
  { kind: 'azure-storage-key', hints: ['AccountKey='], re: /\bAccountKey=([A-Za-z0-9+/]{86}==)/g, group: 1 },
  { kind: 'jwt', hints: ['eyJ'], re: /\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}/g },
  {
    kind: 'bearer',
    hints: ['Bearer ', 'Basic ', 'token '],
    re: /\b(?:Bearer|Basic|token)\s+([A-Za-z0-9_\-.~+/]{20,}=*)/g,
    group: 1,
  },
];

/** `scheme://user:password@host`: the user and password are credentials. */
const CONNECTION_STRING = /\b[a-z][a-z0-9+.\-]{1,20}:\/\/([^\s:@/]{1,128}):([^\s@/]{1,256})@[\w.\-]+/gi;

const SECRET_KEYWORD = String.raw`(?:[A-Za-z0-9]+[_\-.])*(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_\-.]?key|apikey|access[_\-.]?key(?:[_\-.]?id)?|auth[_\-.]?(?:token|key)|client[_\-.]?secret|private[_\-.]?key|credentials?|session[_\-.]?key|signing[_\-.]?key|encryption[_\-.]?key|master[_\-.]?key|mot de passe|passwort|kennwort|contraseña|senha)(?:[_\-.][A-Za-z0-9]+)*`;
/** `password = "..."`, `API_KEY: ...`, `"token": "..."`: the value is the secret. */
/** Tried only where an identifier holding a credential word starts (sticky). */
const ASSIGNMENT = new RegExp(
  String.raw`["']?${SECRET_KEYWORD}["']?\s*(?::=|=>|=|:)\s*(?:"([^"\n]{1,512})"|'([^'\n]{1,512})'|([^\s"',;)}\]]{1,512}))`,
  'iy',
);

/** Values of a credential assignment that are not the secret itself. */
function placeholderValue(v: string): boolean {
  if (
    /^(?:\$\{?[A-Za-z_][\w]*\}?|%[A-Za-z_]+%|<[^>]*>|\{\{.*\}\}|process\.env\..*|os\.environ.*|env\(.*|\*+|x+|\.\.\.|…|null|none|nil|undefined|true|false|required|optional|string|str|int|number|boolean|bool|yes|no|\?+)$/i.test(
      v,
    )
  )
    return true;
  if (/^(?:the|a|an|your|my|is|was|should|must|will|can)$/i.test(v)) return true;
  // Documentation placeholders: YOUR_API_KEY, <token>, [REDACTED], xxxx, ${SECRET}.
  if (
    /your[_\- ]?(?:api|secret|token|key|password)|\b(?:redacted|placeholder|changeme|example)\b|x{4,}|\*{3,}|^\W+$|\$\{|\{\{/i.test(
      v,
    )
  )
    return true;
  if (!/[A-Za-z0-9]/.test(v) || v.length < 3) return true;
  return false;
}

/** A token that could be a generated key: long enough, mixed characters, high entropy. */
function looksRandom(v: string): boolean {
  if (v.length < 16 || /\s/.test(v)) return false;
  const classes =
    (/[a-z]/.test(v) ? 1 : 0) + (/[A-Z]/.test(v) ? 1 : 0) + (/\d/.test(v) ? 1 : 0) + (/[_\-+/=.]/.test(v) ? 1 : 0);
  if (classes < 2 || !/\d/.test(v)) return false;
  return entropy(v) >= 3.3;
}

const CREDENTIAL_LINE =
  /\b(?:key|secret|token|auth|bearer|credential|password|passwd|api|signature|sig|access|private)\b/i;
const RANDOM_TOKEN = /(?<![A-Za-z0-9_\-+/=.])[A-Za-z0-9_\-+/=.]{20,}(?![A-Za-z0-9_\-+/=.])/g;

interface HintIndex {
  /** Hints by their first three characters (all ASCII), longest first; group 0 is empty. */
  groups: string[][];
  /** Id of the first two ASCII characters of some hint (index c0 << 7 | c1), 0 for none: 16 KB, it stays in cache. */
  pairs: Uint8Array;
  /** Group of the hints starting with a pair and a third ASCII character (index pairId << 7 | c2), 0 for none. */
  triples: Uint8Array;
  rules: Map<string, SecretRule[]>;
  /**
   * Bits of every pair of ASCII characters (index c0 << 7 | c1): PAIR_INNER when it is the first or the
   * second pair of some triple (a triple starting at i has one of its two pairs at the even one of i and
   * i + 1, so reading the pairs at even positions finds every position worth a look up in `triples`);
   * PAIR_MARK when it holds a digit or a capital (NameLiterals). One look up per pair for both.
   */
  pairBits: Uint8Array;
  /** The rule of SecretRule.hexPrefixes (its triples have group MARK_GROUP). */
  markRule: SecretRule | undefined;
  /** Hint → length of the credential word (KEYWORDS) it starts with, 0 for none. */
  keywordLength: Map<string, number>;
}

const PAIR_INNER = 1;
const PAIR_MARK = 2;

/** Group id of the hexPrefixes triples: a mark for HintIndex.markRule, not a hint. */
const MARK_GROUP = 255;
/** Group ids of the first three characters of the name literals (NameLiterals). */
const AND_GROUP = 254;
const CORNER_GROUP = 253;

let hintIndex: HintIndex | undefined;

/**
 * Every rule's hints and the credential words in one index: a single pass finds where any rule may
 * match. A character loop over a table of three-character prefixes costs about a third of one regular expression
 * with a hundred alternatives.
 */
function hints(): HintIndex {
  if (hintIndex) return hintIndex;
  const rules = new Map<string, SecretRule[]>();
  for (const rule of PROVIDER_RULES) for (const h of rule.hints) rules.set(h, [...(rules.get(h) ?? []), rule]);
  // Credential words in the case forms they are written in (password, Password, PASSWORD).
  const words = KEYWORDS().flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1), w.toUpperCase()]);
  const all = [...new Set([...rules.keys(), '://', ...words])].sort((a, b) => b.length - a.length);
  const groups: string[][] = [[]];
  const pairs = new Uint8Array(1 << 14);
  const triples = new Uint8Array(256 << 7);
  let pairCount = 0;
  for (const h of all) {
    const c0 = h.charCodeAt(0);
    const c1 = h.charCodeAt(1);
    const c2 = h.charCodeAt(2);
    if (h.length < 3 || c0 >= 128 || c1 >= 128 || c2 >= 128)
      throw new Error(`secret hint ${h} must start with three ASCII characters`);
    if (pairs[(c0 << 7) | c1] === 0) {
      if (pairCount >= 255) throw new Error('too many secret hint prefixes for the table');
      pairs[(c0 << 7) | c1] = ++pairCount;
    }
    const key = (pairs[(c0 << 7) | c1]! << 7) | c2;
    if (triples[key] === 0) {
      if (groups.length > 255) throw new Error('too many secret hint prefixes for the table');
      triples[key] = groups.length;
      groups.push([]);
    }
    groups[triples[key]!]!.push(h);
  }
  let markRule: SecretRule | undefined;
  for (const rule of PROVIDER_RULES) {
    for (const p of rule.hexPrefixes ?? []) {
      if (markRule && markRule !== rule) throw new Error('one rule only may have hex prefixes');
      markRule = rule;
      const c0 = p.charCodeAt(0);
      const c1 = p.charCodeAt(1);
      if (pairs[(c0 << 7) | c1] === 0) pairs[(c0 << 7) | c1] = ++pairCount;
      for (const h of '0123456789abcdef') {
        const key = (pairs[(c0 << 7) | c1]! << 7) | h.charCodeAt(0);
        if (triples[key] !== 0) throw new Error(`hex prefix ${p}${h} is also a hint prefix`);
        triples[key] = MARK_GROUP;
      }
    }
  }
  // The name literals' first three characters lead to their own groups, checked without consuming.
  for (const [literal, group] of [
    [' and ', AND_GROUP],
    ['orner of', CORNER_GROUP],
  ] as const) {
    const c0 = literal.charCodeAt(0);
    const c1 = literal.charCodeAt(1);
    if (pairs[(c0 << 7) | c1] === 0) pairs[(c0 << 7) | c1] = ++pairCount;
    const key = (pairs[(c0 << 7) | c1]! << 7) | literal.charCodeAt(2);
    if (triples[key] !== 0) throw new Error(`name literal ${literal} shares a hint prefix`);
    triples[key] = group;
  }
  if (pairCount > 255 || groups.length >= CORNER_GROUP) throw new Error('too many secret hint prefixes for the table');
  const keywordLength = new Map<string, number>();
  for (const h of all) keywordLength.set(h, KEYWORDS().find((w) => h.toLowerCase().startsWith(w))?.length ?? 0);
  const pairBits = new Uint8Array(1 << 14);
  const kind = kinds();
  for (let ab = 0; ab < 1 << 14; ab++) {
    if (((kind[ab >> 7]! | kind[ab & 127]!) & (KIND_DIGIT | KIND_CAPITAL)) !== 0) pairBits[ab]! |= PAIR_MARK;
    const pair = pairs[ab]!;
    if (pair === 0) continue;
    for (let c2 = 0; c2 < 128; c2++) {
      if (triples[(pair << 7) | c2] === 0) continue;
      pairBits[ab]! |= PAIR_INNER;
      pairBits[((ab & 127) << 7) | c2]! |= PAIR_INNER;
    }
  }
  hintIndex = { groups, pairs, triples, pairBits, rules, markRule, keywordLength };
  return hintIndex;
}

/**
 * Where the name detectors' literals occur, collected by the secret-hint pass: a search of a text for a
 * literal of common letters costs about a nanosecond per character, as much as the whole pass, and the
 * pass already reads every character.
 */
export interface NameLiterals {
  /** Start of every " and ", overlapping ones included, ascending (firm names "Xxx, Yyy and Zzz"). */
  and: number[];
  /** Start of every "orner of", ascending (street corners). */
  corner: number[];
  /**
   * Start of every maximal run of ASCII digits, ascending (digitRuns): house numbers, phone and card
   * numbers and IBANs start from them, and the pass reads every character anyway.
   */
  digits: number[];
  /**
   * Every character of CAPITAL_SET, ascending, that is not right after a word character or another
   * character of the set (the places a capitalised run can start: see capitalisedRunsFlat in names.ts).
   */
  capitals: number[];
}

/** The characters a capitalised run can start with (upper-case letters of the scripts of the name lists, and a few signs among them). */
export const CAPITAL_SET = 'A-Z\\u00C0-\\u00DE\\u0100-\\u024F\\u0370-\\u03FF\\u0400-\\u042F\\u1E00-\\u1EFF';
const KIND_DIGIT = 1;
const KIND_CAPITAL = 2;
/** A letter or mark ([\p{L}\p{M}]) or an apostrophe: the word characters of the name finder. */
const KIND_WORD = 4;
let charKinds: Uint8Array | undefined;

/** Whether text[i] is in CAPITAL_SET. */
export function capitalSetAt(text: string, i: number): boolean {
  return (kinds()[text.charCodeAt(i)]! & KIND_CAPITAL) !== 0;
}

/** KIND_* bits of every UTF-16 code unit. */
function kinds(): Uint8Array {
  if (charKinds) return charKinds;
  const t = new Uint8Array(65536);
  const capital = new RegExp(`[${CAPITAL_SET}]`);
  for (let c = 0; c < 65536; c++) {
    const ch = String.fromCharCode(c);
    let k = 0;
    if (c >= 48 && c <= 57) k |= KIND_DIGIT;
    if (capital.test(ch)) k |= KIND_CAPITAL;
    if ((c < 0xd800 || c > 0xdfff) && /[\p{L}\p{M}]/u.test(ch)) k |= KIND_WORD;
    if (c === 39 || c === 0x2019) k |= KIND_WORD;
    t[c] = k;
  }
  charKinds = t;
  return t;
}

/** Records a name literal starting at i, given the characters at i, i + 1, i + 2. */
function nameLiteralAt(text: string, i: number, c0: number, c1: number, c2: number, lits: NameLiterals): void {
  if (c2 !== 110) return; // both literals have an "n" third
  if (c0 === 32 && c1 === 97 && text.charCodeAt(i + 3) === 100 && text.charCodeAt(i + 4) === 32) lits.and.push(i);
  else if (c0 === 111 && c1 === 114 && text.startsWith('er of', i + 3)) lits.corner.push(i);
}

/**
 * Every hint occurrence, left to right, the longest hint at a position, the scan continuing after it:
 * the matches of the alternation of all hints (longest first) with /g. Positions go to `ats`, hints to
 * `found` (returned lists rather than a callback: a new closure per call would undo the compiled loop).
 * Name literals, starts of digit runs and capitals (NameLiterals) are recorded at every position,
 * inside hints too: the pass reads every character anyway, and a scan of its own for each costs about
 * as much as the pass.
 */
function scanHints(
  text: string,
  index: HintIndex,
  ats: number[],
  found: string[],
  marked: number[],
  lits: NameLiterals,
): void {
  const { groups, pairs, triples, pairBits } = index;
  // Positions that may start a triple (the last one starts three characters before the end).
  const n = text.length - 2;
  // Positions before `next` lie inside a hint already found: the scan goes on after it.
  let next = 0;
  // Every other position: about one pair in eight of this text is part of some triple, so this reads
  // half the pairs and looks up the full triple at two positions for one pair in eight.
  const kind = kinds();
  // Reads stay within the text: a read past either end makes the compiled loop fall back to a slower one.
  for (let j = 0; j <= n; j += 2) {
    const a = text.charCodeAt(j);
    const b = text.charCodeAt(j + 1);
    if ((a | b) >= 128) {
      // No hint has a character outside ASCII; capitals may.
      if (((kind[a]! | kind[b]!) & (KIND_DIGIT | KIND_CAPITAL)) !== 0) marksAt(text, j, a, b, kind, lits);
      continue;
    }
    const bits = pairBits[(a << 7) | b]!;
    if (bits === 0) continue;
    if ((bits & PAIR_MARK) !== 0) marksAt(text, j, a, b, kind, lits);
    if ((bits & PAIR_INNER) === 0) continue;
    for (let i = j - 1; i <= j; i++) {
      if (i < next || i >= n) continue;
      const c0 = text.charCodeAt(i);
      const c1 = text.charCodeAt(i + 1);
      const c2 = text.charCodeAt(i + 2);
      if ((c0 | c1 | c2) >= 128) continue;
      const g = triples[(pairs[(c0 << 7) | c1]! << 7) | c2]!;
      if (g === 0) continue;
      if (g >= CORNER_GROUP) {
        if (g === MARK_GROUP) marked.push(i);
        else nameLiteralAt(text, i, c0, c1, c2, lits);
        continue;
      }
      const h = hintAt(text, i, groups[g]!);
      if (h !== null) {
        ats.push(i);
        found.push(h);
        for (let p = i + 1; p < i + h.length; p++)
          nameLiteralAt(text, p, text.charCodeAt(p), text.charCodeAt(p + 1), text.charCodeAt(p + 2), lits);
        next = i + h.length;
      }
    }
  }
  if (text.length % 2 === 1) {
    // The pairs stop before an odd text's last character.
    const j = text.length - 1;
    marksAt(text, j, text.charCodeAt(j), -1, kind, lits);
  }
}

/**
 * Records the digit runs and the capitals (NameLiterals) starting at j or j + 1, given the characters
 * a, b there (b is -1 past the end).
 */
function marksAt(text: string, j: number, a: number, b: number, kind: Uint8Array, lits: NameLiterals): void {
  const ka = kind[a]!;
  const kb = b < 0 ? 0 : kind[b]!;
  const kp = j === 0 ? 0 : kind[text.charCodeAt(j - 1)]!;
  if ((ka & KIND_DIGIT) !== 0 && (kp & KIND_DIGIT) === 0) lits.digits.push(j);
  if ((kb & KIND_DIGIT) !== 0 && (ka & KIND_DIGIT) === 0) lits.digits.push(j + 1);
  if ((ka & KIND_CAPITAL) !== 0 && (kp & (KIND_WORD | KIND_CAPITAL)) === 0) lits.capitals.push(j);
  if ((kb & KIND_CAPITAL) !== 0 && (ka & (KIND_WORD | KIND_CAPITAL)) === 0) lits.capitals.push(j + 1);
}

/** The hint of a group (hints sharing their first three characters) that the text continues at i, or null. */
function hintAt(text: string, i: number, group: readonly string[]): string | null {
  for (let k = 0; k < group.length; k++) {
    const h = group[k]!;
    let q = 3;
    while (q < h.length && text.charCodeAt(i + q) === h.charCodeAt(q)) q++;
    if (q === h.length) return h;
  }
  return null;
}

/**
 * scanHints without NameLiterals (shapes only): a loop over every character, the three characters at
 * a position carried to the next. Without the digits and capitals to collect, it is faster than the
 * loop over pairs (measured on the throughput text: about 26 against 30 ms per pass of shapes only).
 */
function scanHintsByCharacter(text: string, index: HintIndex, ats: number[], found: string[], marked: number[]): void {
  const { groups, pairs, triples } = index;
  const n = text.length - 2;
  // The three characters at i, i + 1, i + 2, carried from one position to the next.
  let c1 = text.charCodeAt(0);
  let c2 = text.charCodeAt(1);
  for (let i = 0; i < n; i++) {
    const c0 = c1;
    c1 = c2;
    c2 = text.charCodeAt(i + 2);
    if ((c0 | c1) >= 128) continue;
    const pair = pairs[(c0 << 7) | c1]!;
    if (pair === 0 || c2 >= 128) continue;
    const g = triples[(pair << 7) | c2]!;
    if (g === 0) continue;
    if (g >= CORNER_GROUP) {
      if (g === MARK_GROUP) marked.push(i);
      continue;
    }
    const h = hintAt(text, i, groups[g]!);
    if (h !== null) {
      ats.push(i);
      found.push(h);
      i += h.length - 1;
      c1 = text.charCodeAt(i + 1);
      c2 = text.charCodeAt(i + 2);
    }
  }
}

function mergeWindows(wins: Array<[number, number]>): Array<[number, number]> {
  if (wins.length < 2) return wins;
  wins.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [wins[0]!];
  for (let i = 1; i < wins.length; i++) {
    const last = out[out.length - 1]!;
    const w = wins[i]!;
    if (w[0] <= last[1]) last[1] = Math.max(last[1], w[1]);
    else out.push(w);
  }
  return out;
}

/** `literals`, when given, receives the name detectors' literals found on the way (see NameLiterals). */
export function findSecrets(text: string, mode: DetectMode, out: Detection[], literals?: NameLiterals): void {
  const seen = new Set<number>();
  const index = hints();
  const rules = index.rules;
  // Windows per rule around its hints: a match starts a few characters before its hint and is at most a
  // few hundred characters long (a JWT a few thousand, a key block up to 20,000).
  const windows = new Map<SecretRule | 'connection', Array<[number, number]>>();
  const keywordHits: Array<[number, number]> = [];
  const ats: number[] = [];
  const found: string[] = [];
  const marked: number[] = [];
  if (literals === undefined) scanHintsByCharacter(text, index, ats, found, marked);
  else scanHints(text, index, ats, found, marked, literals);
  if (index.markRule) {
    const rule = index.markRule;
    windows.set(
      rule,
      marked.map((at) => [Math.max(0, at - 24), Math.min(text.length, at + 300)] as [number, number]),
    );
  }
  for (let x = 0; x < ats.length; x++) {
    const at = ats[x]!;
    const hint = found[x]!;
    const keyword = index.keywordLength.get(hint)!;
    if (keyword > 0) keywordHits.push([at, keyword]);
    if (hint === '://') {
      // Credentials in a URL come before an "@": URLs without one are skipped.
      let q = at + 3;
      while (q < text.length && q - at < 300 && text.charCodeAt(q) > 32 && text.charCodeAt(q) !== 64) q++;
      if (text.charCodeAt(q) !== 64) continue;
      const list = windows.get('connection') ?? [];
      list.push([Math.max(0, at - 24), Math.min(text.length, at + 400)]);
      windows.set('connection', list);
      continue;
    }
    for (const rule of rules.get(hint) ?? []) {
      const reach = rule.kind === 'private-key' ? 20000 : rule.kind === 'jwt' ? 4000 : 300;
      const list = windows.get(rule) ?? [];
      list.push([Math.max(0, at - (rule.kind === 'private-key' ? 40 : 24)), Math.min(text.length, at + reach)]);
      windows.set(rule, list);
    }
  }
  for (const rule of PROVIDER_RULES) {
    const wins = mergeWindows(windows.get(rule) ?? []);
    for (const [ws, we] of wins) {
      const win = text.slice(ws, we);
      rule.re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = rule.re.exec(win)) !== null) {
        const g = rule.group ?? 0;
        const value = m[g]!;
        const start = ws + m.index + (g === 0 ? 0 : m[0].indexOf(value));
        if (rule.kind === 'openai-key' && !looksRandom(value.slice(3))) continue;
        if (rule.kind === 'bearer' && !looksRandom(value)) continue;
        if (seen.has(start)) continue;
        seen.add(start);
        out.push({ start, end: start + value.length, entity: 'SECRET', score: 1, kind: rule.kind });
      }
    }
  }
  for (const [ws, we] of mergeWindows(windows.get('connection') ?? [])) {
    const win = text.slice(ws, we);
    CONNECTION_STRING.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = CONNECTION_STRING.exec(win)) !== null) {
      const password = m[2]!;
      if (placeholderValue(password)) continue;
      const start = ws + m.index + m[0].indexOf(':' + password + '@') + 1;
      if (seen.has(start)) continue;
      seen.add(start);
      out.push({ start, end: start + password.length, entity: 'SECRET', score: 1, kind: 'connection-string' });
    }
  }
  // Assignments and random-looking tokens are looked for only on lines that name a credential.
  const hits: number[] = [];
  const lines = credentialLines(text, keywordHits, hits);
  findAssignments(text, hits, mode, out);
  for (const [ls, le] of lines) findRandomTokens(text, ls, le, mode, out);
}

/** Credential words as words or parts of identifiers (API_KEY, apiKey, client-secret), not inside "monkey" or "author". */
const KEYWORDS = (): readonly string[] => wordList('keywords');

/**
 * A keyword hit that names a credential: a whole word or a part of an identifier (API_KEY, apiKey,
 * client-secret, "passwort"), not the inside of an ordinary word ("monkey", "author", "passage").
 */
function credentialWord(text: string, at: number, len: number): boolean {
  const before = text.charCodeAt(at - 1);
  const first = text.charCodeAt(at);
  const lowerBefore = before >= 97 && before <= 122;
  const upperFirst = first >= 65 && first <= 90;
  // Left edge: start of a word, or a camelCase part ("apiKey").
  if (lowerBefore && !upperFirst) return false;
  if (before >= 65 && before <= 90 && !upperFirst) return false;
  let end = at + len;
  const word = text.slice(at, end).toLowerCase();
  // Right edge: allowed endings ("keys", "tokens", "password", "passwd", "passwort", "passphrase").
  const rest = /^[a-z]*/.exec(text.slice(end, end + 8).toLowerCase())![0];
  const ok =
    rest === '' ||
    (rest === 's' && word !== 'pass') ||
    (word === 'pass' && /^(?:word|wd|phrase|wort)s?$/.test(rest)) ||
    (word === 'auth' && /^(?:orization|enticate|entication|token)$/.test(rest));
  end += rest.length;
  return ok;
}

/** [start, end) of every line mentioning a credential word, with the line before it. */
function credentialLines(text: string, keywordHits: Array<[number, number]>, hits: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [at, len] of keywordHits) {
    if (!credentialWord(text, at, len)) continue;
    hits.push(at);
    if (out.length && at < out[out.length - 1]![1]) continue;
    const ls = text.lastIndexOf('\n', at) + 1;
    let le = text.indexOf('\n', at);
    if (le === -1) le = text.length;
    // The value may sit on the next line ("API key:\n  abc..."): include it.
    let next = text.indexOf('\n', le + 1);
    if (next === -1) next = text.length;
    const end = le < text.length ? next : le;
    const last = out[out.length - 1];
    if (last && ls <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([ls, end]);
  }
  return out;
}

function findAssignments(text: string, hits: number[], mode: DetectMode, out: Detection[]): void {
  let last = -1;
  for (const h of hits) {
    // Back to the start of the identifier the credential word is part of: API_KEY, db.password, "apiKey".
    let i = h;
    // Identifiers are short; the bound also keeps the sticky pattern from crawling a huge token.
    while (i > 0 && h - i < 64 && /[A-Za-z0-9_.\-]/.test(text[i - 1]!)) i--;
    if (i > 0 && (text[i - 1] === '"' || text[i - 1] === "'")) i--;
    if (i <= last) continue;
    ASSIGNMENT.lastIndex = i;
    const m = ASSIGNMENT.exec(text);
    if (!m) continue;
    last = i + m[0].length;
    const value = m[1] ?? m[2] ?? m[3];
    if (!value || placeholderValue(value.trim())) continue;
    const v = value.trim();
    // In prose ("password: reset it from settings") a bare lower-case word is an instruction, not a secret.
    if (m[3] !== undefined && /^[a-z]{1,12}$/.test(v) && mode !== 'aggressive') continue;
    if (m[3] !== undefined && /^(?:https?:\/\/)/.test(v)) continue;
    // Code that computes the value (faker.internet.password(), config.secret) is not the value.
    if (m[3] !== undefined && /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\(?$|\($/.test(v)) continue;
    const start = i + m[0].lastIndexOf(value);
    out.push({ start, end: start + value.length, entity: 'SECRET', score: 0.95, kind: 'assignment' });
  }
}

/** High-entropy strings on a line that talks about keys or tokens (or right after one). */
function findRandomTokens(full: string, ls: number, le: number, mode: DetectMode, out: Detection[]): void {
  const text = full.slice(ls, le);
  RANDOM_TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = RANDOM_TOKEN.exec(text)) !== null) {
    const v = m[0];
    if (!looksRandom(v)) continue;
    if (/^[a-f0-9]{40}$/.test(v) && mode !== 'aggressive') continue; // git commit ids are not secrets
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const lineEnd = text.indexOf('\n', m.index);
    const line = text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
    const prevLine = text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart);
    if (!CREDENTIAL_LINE.test(line) && !(mode === 'aggressive' && CREDENTIAL_LINE.test(prevLine))) continue;
    if (/^https?:/.test(v) || /^[\d.\-/]+$/.test(v)) continue;
    // URLs and paths: "//host/path", "github.com/org/repo/commit/…", lower-case paths.
    if (v.includes('//') || /\.[a-z]{2,6}\//i.test(v) || (v.includes('/') && !/[A-Z]/.test(v))) continue;
    const prevCh = text[m.index - 1];
    if (prevCh === '/' || (prevCh === ':' && /https?$/i.test(text.slice(Math.max(0, m.index - 6), m.index - 1))))
      continue;
    out.push({ start: ls + m.index, end: ls + m.index + v.length, entity: 'SECRET', score: 0.8, kind: 'high-entropy' });
  }
}
