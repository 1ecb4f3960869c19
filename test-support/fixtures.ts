/**
 * The regression harness's conventions. A fixture is any supported document under `fixtures/`;
 * beside it, `<file>.md` holds the expected markdown and an optional `<file>.options.json` the
 * ParseOptions it is converted with.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { SUPPORTED_EXTENSIONS } from '../src/detect/detect.js';
import type { ParseOptions } from '../src/options/schema.js';
import { REPO_ROOT } from './corpus.js';

export const FIXTURES_DIR = path.join(REPO_ROOT, 'fixtures');

export interface Fixture {
  /** Path relative to `fixtures/`. */
  name: string;
  file: string;
  expectedFile: string;
  options: ParseOptions | undefined;
}

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(full);
  }
}

/**
 * Folders of documents that are not regression fixtures: their own tests read them against a truth of
 * their own (fixtures/ocr/scripts: pages in other scripts, read by test/ocr-scripts.test.ts, which skips a
 * page whose optional model is not installed, where an expected markdown would fail).
 */
const NOT_FIXTURES = [path.join('ocr', 'scripts')];

export function listFixtures(filter?: string): Fixture[] {
  if (!existsSync(FIXTURES_DIR)) return [];
  const files: string[] = [];
  walk(FIXTURES_DIR, files);
  return files
    .filter((f) => (SUPPORTED_EXTENSIONS as readonly string[]).includes(path.extname(f).toLowerCase()))
    .filter((f) => !NOT_FIXTURES.some((dir) => path.relative(FIXTURES_DIR, f).startsWith(dir + path.sep)))
    .map((file) => {
      const optionsFile = `${file}.options.json`;
      return {
        name: path.relative(FIXTURES_DIR, file),
        file,
        expectedFile: `${file}.md`,
        options: existsSync(optionsFile) ? (JSON.parse(readFileSync(optionsFile, 'utf8')) as ParseOptions) : undefined,
      };
    })
    .filter((f) => !filter || f.name.includes(filter))
    .sort((a, b) => a.name.localeCompare(b.name));
}
