/**
 * The generated gazetteer (names, places, street words and common English words; see
 * data/README.md), shipped as `models/gazetteer.json.br` and read on first use: a parse that never
 * asks for redaction, nor for the dictionary of the PDF inline marks, never pays for it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { PACKAGE_ROOT } from '../runtime/package-root.js';

/** Each list is its entries, sorted, one a line. */
export interface Gazetteer {
  first: string;
  last: string;
  city: string;
  region: string;
  country: string;
  streetSuffix: string;
  streetWord: string;
  common: string;
  majorCity: string;
}

export const GAZETTEER_FILE = path.join(PACKAGE_ROOT, 'models', 'gazetteer.json.br');

let gazetteerLists: Gazetteer | undefined;

export function gazetteer(): Gazetteer {
  gazetteerLists ??= JSON.parse(brotliDecompressSync(readFileSync(GAZETTEER_FILE)).toString('utf8')) as Gazetteer;
  return gazetteerLists;
}

/** Common English words, one a line (what `gazetteer().common` holds). */
export function commonWordList(): string {
  return gazetteer().common;
}
