/**
 * The PDF text thread started ahead of the first parse (src/pdf/text-pool.ts warmTextPool, which the
 * command's parse thread calls when its first input is a PDF): the parse that follows uses that thread
 * instead of starting a second one, and the thread ends with the parser whether or not a PDF came.
 * Runs the built text worker (`npm test` builds first).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parserOn } from '../src/parser.js';
import { textPool, warmTextPool } from '../src/pdf/text-pool.js';
import { ParserRuntime } from '../src/runtime/runtime.js';
import { REPO_ROOT } from '../test-support/corpus.js';

const FAST = { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] };
const onePage = readFileSync(path.join(REPO_ROOT, 'fixtures', 'pdf', 'two-columns.pdf'));

describe('text thread started ahead of the parse', () => {
  it('a short PDF parsed after the warm start is read by that one thread', async () => {
    const runtime = new ParserRuntime({ textThreads: 2 });
    warmTextPool(runtime);
    const pool = textPool(runtime);
    expect(pool.threads.length).toBe(1);
    const parser = parserOn(runtime);
    const doc = await parser.parseFile(onePage, FAST, { filename: 'two-columns.pdf' });
    expect(doc.markdown?.length).toBeGreaterThan(100);
    // A range posted while the warm thread still loaded would have made the pool start another.
    expect(pool.threads.length).toBe(1);
    await parser.close();
    expect(pool.threads.length).toBe(0);
  });

  it('the thread ends with the parser when the input is not a PDF', async () => {
    const runtime = new ParserRuntime({ textThreads: 2 });
    warmTextPool(runtime);
    const pool = textPool(runtime);
    const parser = parserOn(runtime);
    const doc = await parser.parseFile(Buffer.from('name,value\nalpha,1\n'), {}, { filename: 'a.csv' });
    expect(doc.markdown).toContain('alpha');
    await parser.close();
    expect(pool.threads.length).toBe(0);
  });

  it('the thread ends with the parser when the PDF cannot be read', async () => {
    const runtime = new ParserRuntime({ textThreads: 2 });
    warmTextPool(runtime);
    const pool = textPool(runtime);
    const parser = parserOn(runtime);
    await expect(parser.parseFile(Buffer.from('%PDF-1.7\nnot a pdf body\n'), FAST)).rejects.toMatchObject({
      code: 'MALFORMED',
    });
    expect(pool.threads.length).toBe(1);
    await parser.close();
    expect(pool.threads.length).toBe(0);
  });
});
