/**
 * Finds PII in one text. Modes:
 * - `fast`: shapes, check digits and word lists only (no model): e-mail, phone (libphonenumber), cards
 *   (Luhn), IBAN (mod 97), SSN, routing numbers (ABA), provider keys, addresses and gazetteer names scored
 *   with the words around them.
 * - `accurate`: the same, plus the compromise tagger (people, places) for candidates within its weight of
 *   the threshold, and lower-case names (lists, "my name is"); thresholds set for precision.
 * - `aggressive`: the model and the heuristics with lower thresholds and looser shapes (bare digit runs
 *   as phones, unknown capitalised words with weaker context, lower-case surnames), for recall.
 */
import { ParseError } from '../errors.js';
import type { PiiEntity } from '../options/schema.js';
import { modelOracle } from './model.js';
import { findNamesAndPlaces } from './names.js';
import { mentionsPostal } from './addresses.js';
import { findEmails, findIbans, findNumbers } from './patterns.js';
import { capitalSetAt, findSecrets, type NameLiterals } from './secrets.js';
import type { Detection, DetectMode } from './types.js';

export interface DetectOptions {
  mode: DetectMode;
  entities: readonly PiiEntity[];
  /** Epoch milliseconds after which detection gives up with ParseError TIMEOUT (the parse's deadline). */
  deadline?: number | undefined;
}

function checkDeadline(options: DetectOptions): void {
  if (options.deadline !== undefined && Date.now() > options.deadline) {
    throw new ParseError(
      'TIMEOUT',
      'PII redaction did not finish within options.timeout; raise the timeout or use redactPII mode "fast".',
    );
  }
}

/** Priority when two detections overlap: fixed-shape identifiers win over names. */
const PRIORITY: Record<PiiEntity, number> = { SECRET: 6, EMAIL: 5, FINANCIAL: 4, PHONE: 3, LOCATION: 2, PERSON: 1 };

export function detect(text: string, options: DetectOptions): Detection[] {
  const want = new Set(options.entities);
  const all: Detection[] = [];
  // Fixed shapes are always looked for: an e-mail address must not be read as a name even when only
  // names are asked for. Detections of entities not asked for are dropped at the end.
  const names = want.has('PERSON') || want.has('LOCATION');
  const literals: NameLiterals | undefined = names ? { and: [], corner: [], digits: [], capitals: [] } : undefined;
  findEmails(text, all);
  findSecrets(text, options.mode, all, literals);
  // House numbers need every digit run: found once (by the secret-hint pass), they serve IBANs and
  // numbers too. Without names those scan for the few digits they need themselves.
  const digitStarts = literals?.digits;
  findIbans(text, all, digitStarts);
  findNumbers(text, options.mode, all, true, true, digitStarts);
  checkDeadline(options);
  if (literals) {
    // Names are decided from their neighbourhood: scoring paragraph-sized segments keeps the cost linear.
    const postal = mentionsPostal(text);
    const and = new Cursor(literals.and, 5);
    const corner = new Cursor(literals.corner, 8);
    const digits = new Cursor(digitStarts!, 1);
    const capitals = new Cursor(literals.capitals, 1);
    for (const [s, e] of segments(text)) {
      checkDeadline(options);
      const seg = text.slice(s, e);
      const model = options.mode === 'fast' ? undefined : modelOracle(seg);
      const found: Detection[] = [];
      const segDigits = digits.within(s, e);
      // A digit run cut by the segment's start starts again in the segment.
      if (s > 0 && isDigitAt(text, s) && isDigitAt(text, s - 1)) segDigits.unshift(0);
      // A capital at the segment's start has nothing before it in the segment: it can start a run there.
      const segCapitals = capitals.within(s, e);
      if (capitalSetAt(text, s) && segCapitals[0] !== 0) segCapitals.unshift(0);
      const opts = {
        mode: options.mode,
        person: want.has('PERSON'),
        location: want.has('LOCATION'),
        model,
        postal,
        and: and.within(s, e),
        corner: corner.within(s, e).length > 0,
        digits: segDigits,
        capitals: segCapitals,
      };
      findNamesAndPlaces(seg, opts, found);
      for (const d of found) {
        const piece = withinParagraph(seg, d);
        if (piece) all.push({ ...piece, start: piece.start + s, end: piece.end + s });
      }
    }
  }
  return resolve(all).filter((d) => want.has(d.entity));
}

/** A blank line (blank but for quote marks): where a paragraph, a list or a table ends. */
const BLANK_LINE = /\n[ \t>]*\n/;

/**
 * A name or place found by growing over its neighbours stops at the end of its paragraph: an address
 * that ran on over a blank line would take the first line of the next block with it.
 */
function withinParagraph(text: string, d: Detection): Detection | null {
  const blank = BLANK_LINE.exec(text.slice(d.start, d.end));
  if (!blank) return d;
  const end = d.start + text.slice(d.start, d.start + blank.index).trimEnd().length;
  return end > d.start ? { ...d, end } : null;
}

function isDigitAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** Walks an ascending list of literal positions segment by segment. */
class Cursor {
  private k = 0;
  constructor(
    private readonly at: number[],
    private readonly length: number,
  ) {}

  /** Positions of the literals lying wholly in [s, e), relative to s; segments must come in order. */
  within(s: number, e: number): number[] {
    const out: number[] = [];
    while (this.k < this.at.length && this.at[this.k]! < s) this.k++;
    for (let j = this.k; j < this.at.length && this.at[j]! + this.length <= e; j++) out.push(this.at[j]! - s);
    return out;
  }
}

const SEGMENT = 4000;

/** Pieces of about SEGMENT characters, cut at blank lines, else at line ends, else at spaces. */
export function segments(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let s = 0;
  while (s < text.length) {
    if (text.length - s <= SEGMENT) {
      out.push([s, text.length]);
      break;
    }
    const limit = s + SEGMENT;
    let cut = text.lastIndexOf('\n\n', limit);
    if (cut <= s + SEGMENT / 4) cut = text.lastIndexOf('\n', limit);
    if (cut <= s + SEGMENT / 4) cut = text.lastIndexOf(' ', limit);
    if (cut <= s + SEGMENT / 4) cut = limit;
    out.push([s, cut]);
    s = cut;
  }
  return out;
}

/** Keeps non-overlapping detections: higher priority first, then higher score, then longer. */
export function resolve(dets: Detection[]): Detection[] {
  // A digit run read as a phone number only from its shape yields to an address or postal code around it.
  const rank = (d: Detection): number => (d.entity === 'PHONE' && d.score < 0.9 ? 1.5 : PRIORITY[d.entity]);
  const sorted = dets
    .filter((d) => d.end > d.start)
    .sort((a, b) => rank(b) - rank(a) || b.score - a.score || b.end - b.start - (a.end - a.start));
  const kept: Detection[] = [];
  // Which kept detection (index + 1) owns each stretch between two consecutive span edges: every span
  // and every union of spans starts and ends at such edges, so owning stretches is owning characters,
  // and the table stays as small as the number of detections however long the text.
  const edges = [...new Set(sorted.flatMap((d) => [d.start, d.end]))].sort((a, b) => a - b);
  const cell = new Map<number, number>();
  for (let k = 0; k < edges.length; k++) cell.set(edges[k]!, k);
  const owner = new Int32Array(edges.length);
  for (const d of sorted) {
    const cs = cell.get(d.start)!;
    const ce = cell.get(d.end)!;
    let clash = 0;
    for (let p = cs; p < ce && !clash; p++) clash = owner[p]!;
    if (!clash) {
      kept.push(d);
      for (let p = cs; p < ce; p++) owner[p] = kept.length;
      continue;
    }
    // Two detections of one entity that overlap are one: keep their union.
    const k = kept[clash - 1]!;
    if (k.entity === d.entity) {
      const us = Math.min(cell.get(k.start)!, cs);
      const ue = Math.max(cell.get(k.end)!, ce);
      let free = true;
      for (let p = us; p < ue && free; p++) {
        const o = owner[p]!;
        if (o && o !== clash) free = false;
      }
      if (free) {
        k.start = Math.min(k.start, d.start);
        k.end = Math.max(k.end, d.end);
        for (let p = us; p < ue; p++) owner[p] = clash;
      }
    }
  }
  return kept.sort((a, b) => a.start - b.start);
}
