/**
 * Every fixture converts to exactly its expected markdown. On a difference the failure shows a
 * line diff; after reviewing it, `npm run fixtures:update` rewrites the expectations.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createParser } from '../src/parser.js';
import { listFixtures } from '../test-support/fixtures.js';

const parser = createParser();
afterAll(() => parser.close());

const fixtures = listFixtures();

describe('fixtures', () => {
  it('has fixtures with expectations', () => {
    expect(fixtures.length).toBeGreaterThan(0);
  });

  for (const fx of fixtures) {
    it(fx.name, async () => {
      expect(existsSync(fx.expectedFile), `missing ${fx.name}.md: run npm run fixtures:update -- ${fx.name}`).toBe(
        true,
      );
      const doc = await parser.parseFile(readFileSync(fx.file), fx.options, { filename: path.basename(fx.file) });
      // toEqual on strings makes vitest print a readable line diff.
      expect(doc.markdown ?? '').toEqual(readFileSync(fx.expectedFile, 'utf8'));
    });
  }
});
