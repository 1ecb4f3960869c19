/**
 * Finds PII in one text. Modes:
 * - `fast`: shapes, check digits and word lists only (no model): e-mail, phone (libphonenumber), cards
 *   (Luhn), IBAN (mod 97), SSN, routing numbers (ABA), provider keys, addresses and gazetteer names in context.
 * - `accurate`: the same detectors plus the compromise tagger's people and places as evidence, with
 *   thresholds set for precision.
 * - `aggressive`: model and heuristics with lower thresholds and looser shapes (bare digit runs as phones,
 *   single capitalised unknown words in name context), for recall.
 */
import type { PiiEntity } from '../options/schema.js';
import { modelHints } from './model.js';
import { findNamesAndPlaces } from './names.js';
import { findEmails, findIbans, findNumbers, findSecrets } from './patterns.js';
import type { Detection, DetectMode } from './types.js';

export interface DetectOptions {
  mode: DetectMode;
  entities: readonly PiiEntity[];
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
  if (want.has('PERSON') || want.has('LOCATION')) {
    const hints = options.mode === 'fast' ? undefined : modelHints(text);
    findNamesAndPlaces(text, { mode: options.mode, person: want.has('PERSON'), location: want.has('LOCATION'), hints }, all);
  }
  return resolve(all).filter((d) => want.has(d.entity));
}

/** Keeps non-overlapping detections: higher priority first, then higher score, then longer. */
export function resolve(dets: Detection[]): Detection[] {
  // A digit run read as a phone number only from its shape yields to an address or postal code around it.
  const rank = (d: Detection): number => (d.entity === 'PHONE' && d.score < 0.9 ? 1.5 : PRIORITY[d.entity]);
  const sorted = [...dets].sort((a, b) => rank(b) - rank(a) || b.score - a.score || (b.end - b.start) - (a.end - a.start));
  const kept: Detection[] = [];
  for (const d of sorted) {
    if (d.end <= d.start) continue;
    const clash = kept.find((k) => k.start < d.end && d.start < k.end);
    if (!clash) { kept.push(d); continue; }
    // A longer address that swallows a place or a person of lower priority: keep the union as the address.
    if (clash.entity === d.entity) {
      clash.start = Math.min(clash.start, d.start);
      clash.end = Math.max(clash.end, d.end);
    }
  }
  return kept.sort((a, b) => a.start - b.start);
}
