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
import { findNamesAndPlaces, mentionsPostal } from './names.js';
import { findEmails, findIbans, findNumbers, findSecrets } from './patterns.js';
import type { Detection, DetectMode } from './types.js';

export interface DetectOptions {
  mode: DetectMode;
  entities: readonly PiiEntity[];
  /** Epoch milliseconds after which detection gives up with ParseError TIMEOUT (the parse's deadline). */
  deadline?: number | undefined;
}

function checkDeadline(options: DetectOptions): void {
  if (options.deadline !== undefined && Date.now() > options.deadline) {
    throw new ParseError('TIMEOUT', 'PII redaction did not finish within options.timeout; raise the timeout or use redactPII mode "fast".');
  }
}

/** Priority when two detections overlap: fixed-shape identifiers win over names. */
const PRIORITY: Record<PiiEntity, number> = { SECRET: 6, EMAIL: 5, FINANCIAL: 4, PHONE: 3, LOCATION: 2, PERSON: 1 };

export function detect(text: string, options: DetectOptions): Detection[] {
  const want = new Set(options.entities);
  const all: Detection[] = [];
  // Fixed shapes are always looked for: an e-mail address must not be read as a name even when only
  // names are asked for. Detections of entities not asked for are dropped at the end.
  findEmails(text, all);
  findSecrets(text, options.mode, all);
  findIbans(text, all);
  findNumbers(text, options.mode, all, true, true);
  checkDeadline(options);
  if (want.has('PERSON') || want.has('LOCATION')) {
    // Names are decided from their neighbourhood: scoring paragraph-sized segments keeps the cost linear.
    const postal = mentionsPostal(text);
    for (const [s, e] of segments(text)) {
      checkDeadline(options);
      const seg = text.slice(s, e);
      const model = options.mode === 'fast' ? undefined : modelOracle(seg);
      const found: Detection[] = [];
      findNamesAndPlaces(seg, { mode: options.mode, person: want.has('PERSON'), location: want.has('LOCATION'), model, postal }, found);
      for (const d of found) all.push({ ...d, start: d.start + s, end: d.end + s });
    }
  }
  return resolve(all).filter((d) => want.has(d.entity));
}

const SEGMENT = 4000;

/** Pieces of about SEGMENT characters, cut at blank lines, else at line ends, else at spaces. */
export function segments(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let s = 0;
  while (s < text.length) {
    if (text.length - s <= SEGMENT) { out.push([s, text.length]); break; }
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
  const sorted = dets.filter((d) => d.end > d.start).sort((a, b) => rank(b) - rank(a) || b.score - a.score || (b.end - b.start) - (a.end - a.start));
  const kept: Detection[] = [];
  // Which kept detection (index + 1) owns each character: overlap checks stay linear in the text.
  let lo = Infinity;
  let hi = 0;
  for (const d of sorted) { if (d.start < lo) lo = d.start; if (d.end > hi) hi = d.end; }
  const owner = new Int32Array(Math.max(0, hi - lo));
  const get = (p: number): number => owner[p - lo]!;
  const set = (p: number, v: number): void => { owner[p - lo] = v; };
  for (const d of sorted) {
    let clash = 0;
    for (let p = d.start; p < d.end && !clash; p++) clash = get(p);
    if (!clash) {
      kept.push(d);
      for (let p = d.start; p < d.end; p++) set(p, kept.length);
      continue;
    }
    // Two detections of one entity that overlap are one: keep their union.
    const k = kept[clash - 1]!;
    if (k.entity === d.entity) {
      let free = true;
      for (let p = Math.min(k.start, d.start); p < Math.max(k.end, d.end) && free; p++) { const o = get(p); if (o && o !== clash) free = false; }
      if (free) {
        k.start = Math.min(k.start, d.start);
        k.end = Math.max(k.end, d.end);
        for (let p = k.start; p < k.end; p++) set(p, clash);
      }
    }
  }
  return kept.sort((a, b) => a.start - b.start);
}
