/**
 * Regenerates the expected markdown of fixtures after review:
 *   npm run fixtures:update [-- FILTER]
 * Prints what changed; review the diff (`git diff fixtures/`) before committing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createParser } from '../src/parser.js';
import { listFixtures } from './fixtures.js';

const filter = process.argv[2];
const parser = createParser();
let changed = 0;
try {
  for (const fx of listFixtures(filter)) {
    const doc = await parser.parseFile(readFileSync(fx.file), fx.options, { filename: path.basename(fx.file) });
    const markdown = doc.markdown ?? '';
    const before = existsSync(fx.expectedFile) ? readFileSync(fx.expectedFile, 'utf8') : undefined;
    if (before !== markdown) {
      writeFileSync(fx.expectedFile, markdown);
      changed++;
      console.log(`${before === undefined ? 'created' : 'updated'} ${path.relative(process.cwd(), fx.expectedFile)}`);
    }
  }
} finally {
  await parser.close();
}
console.log(`${changed} expectation(s) written`);
