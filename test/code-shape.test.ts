/**
 * The shape of the source tree (README, "Layout of the code"): imports run one way, workers are thin
 * adapters that src/ never imports, and no module or function grows past what a reader can hold.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { functionSpans, importCycles, importsOf, sourceFiles } from '../test-support/code-shape.js';
import { REPO_ROOT } from '../test-support/corpus.js';

const rel = (f: string): string => path.relative(REPO_ROOT, f);
const files = sourceFiles('src', 'workers');

describe('the shape of the source tree', () => {
  it('has no import cycle between files', () => {
    expect(importCycles(files).map((c) => c.map(rel).join(' -> '))).toEqual([]);
  });

  it('has no file under src/ importing from workers/', () => {
    const offenders = sourceFiles('src').flatMap((f) =>
      importsOf(f)
        .filter((t) => rel(t).startsWith('workers/'))
        .map((t) => `${rel(f)} -> ${rel(t)}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps pdf and ocr apart but for their two seams, and the layout engine free of both', () => {
    const crossings = sourceFiles('src').flatMap((f) => {
      const from = rel(f);
      return importsOf(f)
        .map(rel)
        .filter((to) => {
          if (from.startsWith('src/layout/')) return to.startsWith('src/pdf/') || to.startsWith('src/ocr/');
          if (from.startsWith('src/pdf/') && from !== 'src/pdf/ocr-seam.ts') return to.startsWith('src/ocr/');
          if (from.startsWith('src/ocr/') && from !== 'src/ocr/pdf-seam.ts') return to.startsWith('src/pdf/');
          return false;
        })
        .map((to) => `${from} -> ${to}`);
    });
    expect(crossings).toEqual([]);
  });

  it('has no function over 150 lines', () => {
    const long = files
      .flatMap(functionSpans)
      .filter((s) => s.lines > 150)
      .map((s) => `${rel(s.file)}:${s.line} ${s.name} (${s.lines} lines)`);
    expect(long).toEqual([]);
  });

  it('has no source file over 900 lines or 200 KB', () => {
    const big = files
      .map((f) => ({ f, text: readFileSync(f, 'utf8') }))
      .filter(({ text }) => text.split('\n').length > 900 || text.length > 200_000)
      .map(({ f }) => rel(f));
    expect(big).toEqual([]);
  });
});
