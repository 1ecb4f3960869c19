/**
 * The hostile-input catalogue: every synthetic attack plus seeded mutations of corpus documents.
 * The same (seed, mutations) always yields the same ids and bytes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { mutatedOle, OLE_SOURCES, syntheticOle } from './ole.js';
import { MUTATION_SOURCES, mutatedPdfs, syntheticPdfs } from './pdf.js';
import { syntheticText } from './text.js';
import type { Variant } from './util.js';
import { mutatedZips, syntheticZips, ZIP_SOURCES } from './zip.js';

export type { Variant } from './util.js';

export interface CatalogueOptions {
  seed: number;
  /** Random mutations per corpus source (structural mutations come on top). */
  mutations: number;
  /** Include corpus mutations (needs the corpus). */
  corpus?: boolean;
}

function loader(rel: string): () => Uint8Array {
  let cached: Uint8Array | undefined;
  return () => (cached ??= new Uint8Array(readFileSync(corpusPath(rel))));
}

export function synthetic(): Variant[] {
  return [...syntheticPdfs(), ...syntheticZips(), ...syntheticOle(), ...syntheticText()];
}

export function mutated(seed: number, mutations: number): Variant[] {
  if (!corpusAvailable) return [];
  const out: Variant[] = [];
  const present = (s: string): boolean => existsSync(corpusPath(s));
  for (const s of MUTATION_SOURCES.filter(present)) out.push(...mutatedPdfs(s, loader(s), seed, mutations));
  for (const s of ZIP_SOURCES.filter(present)) out.push(...mutatedZips(s, loader(s), seed, mutations));
  for (const s of OLE_SOURCES.filter(present)) out.push(...mutatedOle(s, loader(s), seed, mutations));
  return out;
}

export function catalogue(opts: CatalogueOptions): Variant[] {
  return [...synthetic(), ...(opts.corpus === false ? [] : mutated(opts.seed, opts.mutations))];
}
