/**
 * Idle pool threads must not keep a process alive: a script that parses a PDF with the default
 * `parseFile` (the process-wide parser, never closed) has to exit on its own. Runs the built package.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test-support/corpus.js';

describe('process lifetime', () => {
  it('a script using the default parseFile exits by itself after a PDF parse', async () => {
    const entry = pathToFileURL(path.join(REPO_ROOT, 'dist', 'src', 'index.js')).href;
    const pdf = path.join(REPO_ROOT, 'fixtures', 'pdf', 'two-columns.pdf');
    const script = `
      const { parseFile } = await import(${JSON.stringify(entry)});
      const fs = await import('node:fs');
      const doc = await parseFile(fs.readFileSync(${JSON.stringify(pdf)}), { parsers: [{ type: 'pdf', mode: 'fast' }] });
      console.log(JSON.stringify({ pages: doc.metadata.numPages, chars: doc.markdown.length, done: Date.now() }));
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const limit = 15000;
    const exited = await new Promise<{ code: number | null; at: number } | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), limit);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, at: Date.now() });
      });
    });
    if (!exited) child.kill('SIGKILL');
    expect(exited, `the process did not exit within ${limit} ms: ${err}`).not.toBeNull();
    expect(exited!.code, err).toBe(0);
    const result = JSON.parse(out.trim().split('\n').pop()!) as { pages: number; chars: number; done: number };
    expect(result.pages).toBe(2);
    expect(result.chars).toBeGreaterThan(500);
    // It exits right after its answer, not after the pool's idle timeout (30 s by default).
    expect(exited!.at - result.done).toBeLessThan(5000);
  }, 30000);
});
