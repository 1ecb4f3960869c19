/**
 * The command line for real work: standard input, several files, --version, serve --host/--port,
 * what --blocks/--pages and formats without markdown print, flag errors that name the flag (all exit 2),
 * no deadline unless --timeout, progress only on a terminal, a distinct status for incomplete documents.
 * Runs the built CLI (`npm test` builds first).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from '../src/cli/args.js';
import { EXIT_INCOMPLETE, incompleteReason, render } from '../src/cli/output.js';
import { ProgressLine } from '../src/cli/progress-line.js';
import { REPO_ROOT } from '../test-support/corpus.js';

const CLI = path.join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');
const dir = mkdtempSync(path.join(tmpdir(), 'docmill-cli-first-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { NODE_COMPILE_CACHE: _chosen, ...inherited } = process.env;
const env = { ...inherited, XDG_CACHE_HOME: path.join(dir, 'cache') };

function file(name: string, content: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

function cli(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { env, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (stdin !== undefined) child.stdin!.end(stdin);
    else child.stdin!.end();
  });
}

const page = file(
  'page.html',
  '<html><body><main><h1>Results</h1><p>See <a href="https://example.com/a">the annex</a>.</p></main></body></html>',
);
const notes = file('notes.html', '<html><body><main><p>Second file.</p></main></body></html>');

describe('docmill command', () => {
  it('--version prints the package version', async () => {
    const r = await cli(['--version']);
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(r).toMatchObject({ code: 0, stdout: `docmill ${pkg.version}\n` });
  });

  it('- reads standard input, with --type or --filename as the hint content cannot give', async () => {
    const csv = 'city,people\nOslo,709000\n';
    for (const hint of [
      ['--type', 'csv'],
      ['--filename', 'people.csv'],
    ]) {
      const r = await cli(['-', ...hint], csv);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('| city | people |\n| --- | --- |\n| Oslo | 709000 |\n');
    }
  });

  it('several files with -o DIR: one .md each', async () => {
    const out = path.join(dir, 'out');
    const r = await cli([page, notes, '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['notes.html.md', 'page.html.md']);
    expect(readFileSync(path.join(out, 'page.html.md'), 'utf8')).toContain('# Results');
    expect(readFileSync(path.join(out, 'notes.html.md'), 'utf8')).toContain('Second file.');
  });

  it('several files without -o is a usage error', async () => {
    const r = await cli([page, notes]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/-o DIR/);
  });

  it.each([
    [['--mode', 'turbo'], /--mode: must be one of fast, auto, ocr \(got "turbo"\)/],
    [['--max-pages', 'many'], /--max-pages: must be an integer/],
    [['--timeout', '-5'], /--timeout/],
    [['--colour'], /--colour/],
    [['--options', '{"timeout": 999999}'], /options\.timeout: must be at most 300000/],
    [['--options', 'nope'], /--options: not valid JSON/],
    [['--type', 'csv'], /--type: names standard input/],
  ])('%j: a usage error naming the flag, status 2', async (flags, message) => {
    const r = await cli([page, ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('--blocks without --json prints the blocks; formats without markdown print what was asked for', async () => {
    const blocks = await cli([page, '--blocks']);
    expect(blocks.code).toBe(0);
    expect(JSON.parse(blocks.stdout)[0].items[0]).toMatchObject({ id: 'p1.b0', content: '# Results' });
    const links = await cli([page, '--options', '{"formats":["links"]}']);
    expect(links).toMatchObject({ code: 0, stdout: 'https://example.com/a\n' });
    const html = await cli([page, '--options', '{"formats":["html"]}']);
    expect(html.stdout).toContain('<h1>Results</h1>');
  });

  it('no progress line when standard error is not a terminal', async () => {
    const r = await cli([page]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('serve: --host and --port override the environment', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0'], {
      env: {
        ...env,
        DOCMILL_API_KEYS: 'a:test-key-alpha-0123456789abcdef',
        DOCMILL_HOST: '0.0.0.0',
        DOCMILL_PORT: '1',
        DOCMILL_DATA_DIR: path.join(dir, 'data'),
      },
    });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening at (http:\/\/127\.0\.0\.1:\d+)/i.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      const res = await fetch(`${address}/health`);
      expect(res.status).toBe(200);
    } finally {
      child.kill();
    }
  }, 60_000);
});

describe('pieces of the command', () => {
  it('no deadline unless --timeout (or options.timeout) sets one', () => {
    const plain = parseCliArgs(['a.pdf']);
    expect(plain !== 'help' && plain !== 'version' && plain.timeoutMs).toBeUndefined();
    const timed = parseCliArgs(['a.pdf', '--timeout', '5000']);
    expect(timed !== 'help' && timed !== 'version' && [timed.timeoutMs, timed.options.timeout]).toEqual([5000, 5000]);
    expect(() => parseCliArgs(['a.pdf', '--mode', 'turbo'])).toThrow(UsageError);
  });

  it('a document with failed or partial pages, or cut by time, is incomplete (status 3)', () => {
    expect(EXIT_INCOMPLETE).toBe(3);
    expect(incompleteReason({ metadata: {}, markdown: 'x' })).toBeNull();
    expect(incompleteReason({ metadata: { error: 'page 3: could not be read' } })).toMatch(/page 3/);
    expect(
      incompleteReason({ metadata: {}, warning: 'The parse ran out of time (options.timeout 5000 ms) before page 9' }),
    ).toMatch(/out of time/);
  });

  it('--pages on a document without pages says why on standard error and prints the markdown', () => {
    const out = render({ metadata: {}, markdown: '# A\n' }, { json: false, pages: true, blocks: false });
    expect(out.text).toBe('# A\n');
    expect(out.notes.join()).toMatch(/--pages: this document has no pages/);
  });

  it('the progress line shows pages done of total, and nothing when disabled', () => {
    const written: string[] = [];
    const stream = { write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    new ProgressLine(stream, true).show('big.pdf', { phase: 'read', pagesDone: 120, pagesTotal: 1164, ocrPages: 0 });
    expect(written.join('')).toContain('big.pdf: page 120 of 1164');
    const silent: string[] = [];
    const quiet = { write: (s: string) => silent.push(s) } as unknown as NodeJS.WriteStream;
    new ProgressLine(quiet, false).show('big.pdf', { phase: 'read', pagesDone: 1, pagesTotal: 2, ocrPages: 0 });
    expect(silent).toEqual([]);
  });
});
