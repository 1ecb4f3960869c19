/**
 * The shared development corpus lives beside the repository (`../shared/corpus`). It is not part of
 * the project: tests that read it skip, saying why, when it is absent.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, whether this runs from `test-support/` or `dist/test-support/`. */
export const REPO_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
})();

export const CORPUS_DIR = process.env['DOCMILL_CORPUS'] ?? path.resolve(REPO_ROOT, '..', 'shared', 'corpus');

export const corpusAvailable = existsSync(CORPUS_DIR);

export const CORPUS_SKIP_MESSAGE = `corpus not found at ${CORPUS_DIR}: corpus tests skipped (set DOCMILL_CORPUS to its path)`;

if (!corpusAvailable) console.warn(CORPUS_SKIP_MESSAGE);

export function corpusPath(...parts: string[]): string {
  return path.join(CORPUS_DIR, ...parts);
}

export function readCorpus(...parts: string[]): Buffer {
  return readFileSync(corpusPath(...parts));
}

/** Files of a corpus folder (not its LICENSE or sub-folders), optionally filtered by extension. */
export function corpusFiles(folder: string, extensions?: string[]): string[] {
  if (!corpusAvailable) return [];
  return readdirSync(corpusPath(folder), { withFileTypes: true })
    .filter((d) => d.isFile() && !d.name.startsWith('LICENSE'))
    .map((d) => d.name)
    .filter((n) => !extensions || extensions.some((e) => n.toLowerCase().endsWith(e)))
    .sort();
}
