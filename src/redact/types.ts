import type { PiiEntity, RedactMode } from '../options/schema.js';

export type DetectMode = RedactMode;

/** One piece of PII found in a text: `[start, end)` offsets into that text. */
export interface Detection {
  start: number;
  end: number;
  entity: PiiEntity;
  /** 0..1: how sure the detector is. Modes keep detections above their own threshold. */
  score: number;
  /** Which detector found it (email, phone, card, iban, person, street, ...). */
  kind: string;
}
