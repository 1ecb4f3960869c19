/**
 * The hand-made word lists of the detectors (titles, organisation words, street-type words, the
 * words around a name or a place, credential words...) and the context patterns built of such words,
 * kept as data in `models/redact-words.json` and read on first use, so that a parse that never asks
 * for redaction never reads them. Edit the file to change a list; each list keeps its order (some are
 * tried in it), and a pattern is a regular expression's source and flags.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../runtime/package-root.js';

interface WordData {
  sets: Record<string, string[]>;
  lists: Record<string, string[]>;
  patterns: Record<string, { source: string; flags: string }>;
}

export const WORD_LISTS_FILE = path.join(PACKAGE_ROOT, 'models', 'redact-words.json');

let data: WordData | undefined;
const sets = new Map<string, ReadonlySet<string>>();
const patterns = new Map<string, RegExp>();

function words(): WordData {
  data ??= JSON.parse(readFileSync(WORD_LISTS_FILE, 'utf8')) as WordData;
  return data;
}

function entry<T>(table: Record<string, T>, name: string): T {
  const value = table[name];
  if (value === undefined) throw new Error(`${WORD_LISTS_FILE} has no list "${name}"`);
  return value;
}

/** The set of the words of list `name` (one Set for the process). */
export function wordSet(name: string): ReadonlySet<string> {
  let set = sets.get(name);
  if (!set) sets.set(name, (set = new Set(entry(words().sets, name))));
  return set;
}

/** The words of list `name` in their order. */
export function wordList(name: string): readonly string[] {
  return entry(words().lists, name);
}

/** The context pattern `name` (one RegExp for the process). */
export function wordPattern(name: string): RegExp {
  let re = patterns.get(name);
  if (!re) {
    const { source, flags } = entry(words().patterns, name);
    patterns.set(name, (re = new RegExp(source, flags)));
  }
  return re;
}
