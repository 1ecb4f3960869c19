/**
 * The command line as a person (and the evaluation) uses it: a path in, markdown on stdout.
 * Runs the built CLI (`npm test` builds first).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test-support/corpus.js';

const run = promisify(execFile);
const CLI = path.join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');
const dir = mkdtempSync(path.join(tmpdir(), 'docmill-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Uint8Array): string {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

// The command keeps compiled code under $XDG_CACHE_HOME: the tests give it a directory of their own.
const cacheHome = path.join(dir, 'cache-home');
const { NODE_COMPILE_CACHE: _chosen, ...inherited } = process.env;

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cliWith({}, ...args);
}

async function cliWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      maxBuffer: 64 * 1024 * 1024,
      env: { ...inherited, XDG_CACHE_HOME: cacheHome, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const page = file(
  'page.html',
  '<!doctype html><html lang="en"><head><title>Quarterly report</title></head><body>' +
    '<nav><a href="/">Home</a></nav><main><h1>Results</h1><p>Revenue grew <em>strongly</em>.</p>' +
    '<table><tr><th>Quarter</th><th>Revenue</th></tr><tr><td>Q1</td><td>10</td></tr></table></main></body></html>',
);

describe('docmill CLI', () => {
  it('prints markdown for a file', async () => {
    const r = await cli(page);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('# Results');
    expect(r.stdout).toContain('Revenue grew *strongly*.');
    expect(r.stdout).toContain('| Quarter | Revenue |');
    expect(r.stdout).not.toContain('Home');
  });

  it('prints the response envelope with --json', async () => {
    const r = await cli(page, '--json', '--options', '{"formats":["markdown","links"],"onlyMainContent":false}');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as {
      success: boolean;
      data: { markdown: string; links: string[]; metadata: Record<string, unknown> };
    };
    expect(body.success).toBe(true);
    expect(body.data.markdown).toContain('Home');
    expect(body.data.metadata['title']).toBe('Quarterly report');
    expect(body.data.metadata['sourceURL']).toBe('page.html');
    expect(Array.isArray(body.data.links)).toBe(true);
  });

  it('reports bad options with the code on stderr and exit status 2 (a usage error)', async () => {
    const r = await cli(page, '--options', '{"timeout":0}');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^docmill: BAD_REQUEST: options\.timeout: must be at least 1/m);
    expect(r.stdout).toBe('');
  });

  it('reports unsupported files', async () => {
    const r = await cli(file('notes.txt', 'plain words'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/UNSUPPORTED_FILE_TYPE: .*\.pdf/);
  });

  it('reports usage errors with exit status 2', async () => {
    expect((await cli()).code).toBe(2);
    expect((await cli(page, '--options', '{not json')).code).toBe(2);
    expect((await cli(path.join(dir, 'missing.pdf'))).code).toBe(2);
    expect((await cli(page, '--bogus')).code).toBe(2);
  });
});

describe('docmill CLI compile cache', () => {
  it('keeps compiled code in the per-user cache directory, and works without one', async () => {
    const home = path.join(dir, 'home-a');
    const first = await cliWith({ XDG_CACHE_HOME: home }, page);
    expect(first.code).toBe(0);
    const cache = path.join(home, 'docmill', 'compile-cache');
    expect(readdirSync(cache).length).toBeGreaterThan(0);
    const again = await cliWith({ XDG_CACHE_HOME: home }, page);
    expect(again.stdout).toBe(first.stdout);

    // A cache home that cannot hold a directory (a file is in the way) costs the cache, not the conversion.
    const blocked = file('not-a-directory', 'x');
    const r = await cliWith({ XDG_CACHE_HOME: blocked }, page);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(first.stdout);

    const off = path.join(dir, 'home-off');
    const d = await cliWith({ XDG_CACHE_HOME: off, NODE_DISABLE_COMPILE_CACHE: '1' }, page);
    expect(d.code).toBe(0);
    expect(existsSync(off)).toBe(false);
  });
});

describe('docmill CLI node flags for PDF work', () => {
  it('knows which command lines do PDF work: serve, a .pdf, or a file that starts as a PDF', async () => {
    const { wantsNodeFlags } = await import('../src/cli/node-flags.js');
    expect(wantsNodeFlags(['serve'])).toBe(true);
    expect(wantsNodeFlags(['report.PDF', '--json'])).toBe(true);
    expect(wantsNodeFlags([file('scan.bin', '%PDF-1.7\n%binary')])).toBe(true);
    expect(wantsNodeFlags([file('page.html', '<p>no</p>'), '--mode', 'fast'])).toBe(false);
  });

  it('sets the flags in the running process: hot code stops at Maglev there and in threads started after', async () => {
    // V8 reports how a function was compiled under --allow-natives-syntax: TurboFan is bit 6, Maglev bit 5.
    const flags = pathToFileURL(path.join(REPO_ROOT, 'dist', 'src', 'cli', 'node-flags.js')).href;
    const hot =
      'function hot(a) { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * 2; return s; }' +
      'const a = Array.from({ length: 1000 }, (_, i) => i); for (let i = 0; i < 100000; i++) hot(a);';
    // A CommonJS script: the function is a plain top-level declaration, in the process and in a thread.
    const probe = `
      const tier = (st) => (st & 64 ? 'turbofan' : st & 32 ? 'maglev' : 'other');
      import(${JSON.stringify(flags)}).then(({ applyNodeFlags }) => {
        if (process.argv[1] === 'apply') applyNodeFlags();
        ${hot}
        const main = tier(%GetOptimizationStatus(hot));
        const { Worker } = require('node:worker_threads');
        const w = new Worker(${JSON.stringify(hot)} + 'require("node:worker_threads").parentPort.postMessage(%GetOptimizationStatus(hot));', { eval: true });
        w.once('message', (st) => { console.log(main, tier(st)); w.terminate(); });
      });`;
    const tiers = async (apply: boolean): Promise<string> =>
      (
        await run(process.execPath, [
          '--allow-natives-syntax',
          // Optimised code is in place when the loop ends, whatever the machine's load.
          '--no-concurrent-recompilation',
          '--no-concurrent-osr',
          '-e',
          probe,
          apply ? 'apply' : 'none',
        ])
      ).stdout.trim();
    expect(await tiers(false)).toBe('turbofan turbofan');
    expect(await tiers(true)).toBe('maglev maglev');
  });

  it.runIf(process.platform === 'linux')(
    'runs a PDF conversion in one process (no second node started for the flags)',
    async () => {
      const { PDFDocument, StandardFonts } = await import('pdf-lib');
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      for (let p = 1; p <= 150; p++) {
        const page = doc.addPage([612, 792]);
        // Body text that moves from page to page (text repeated in place would be a running header).
        for (let l = 0; l < 3; l++)
          page.drawText(`Line ${l + 1} of page ${p}, set ${p % 7} lines down.`, {
            x: 72,
            y: 700 - (p % 7) * 14 - l * 14,
            size: 12,
            font,
          });
      }
      const pdf = file('long.pdf', await doc.save());
      const child = execFile(process.execPath, [CLI, pdf, '--mode', 'fast'], {
        env: { ...inherited, XDG_CACHE_HOME: cacheHome },
        maxBuffer: 64 * 1024 * 1024,
      });
      let stdout = '';
      child.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      let exited = false;
      const done = new Promise<number>((resolve) =>
        child.on('close', (code) => {
          exited = true;
          resolve(code ?? -1);
        }),
      );
      // Every process whose parent is the command, looked for in /proc while it runs.
      const children = new Set<number>();
      const { readFileSync } = await import('node:fs');
      let looks = 0;
      while (!exited) {
        looks++;
        for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
          try {
            const ppid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
            if (ppid === child.pid) children.add(Number(pid));
          } catch {
            /* the process ended meanwhile */
          }
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(await done).toBe(0);
      expect(looks).toBeGreaterThan(1);
      expect([...children]).toEqual([]);
      expect(stdout).toContain('Line 3 of page 150');
    },
  );
});

/** A node older than the command needs, on the PATH or where systems install theirs, or none. */
async function olderNode(): Promise<string | undefined> {
  const dirs = [...(process.env['PATH'] ?? '').split(path.delimiter), '/usr/bin', '/usr/local/bin'];
  for (const candidate of new Set(dirs.filter(Boolean).map((d) => path.join(d, 'node')))) {
    if (!existsSync(candidate)) continue;
    try {
      const { stdout } = await run(candidate, ['-p', 'process.versions.node']);
      const [major = 0, minor = 0] = stdout.trim().split('.').map(Number);
      if (major < 22 || (major === 22 && minor < 13)) return candidate;
    } catch {
      /* not a runnable node */
    }
  }
  return undefined;
}

const older = await olderNode();
describe('on a Node older than it needs', () => {
  it.skipIf(older === undefined)(
    'says which Node it needs, exit status 2, instead of calling every PDF damaged',
    async () => {
      const pdf = path.join(REPO_ROOT, 'fixtures', 'pdf', 'single-page.pdf');
      const r = await run(older!, [CLI, pdf]).then(
        (x) => ({ code: 0, ...x }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^docmill: needs Node\.js 22\.13 or later \(this is \d+\.\d+\.\d+\)\n$/);
    },
  );
  if (older === undefined) it.skip('no Node older than 22.13 on this machine to run the command with', () => {});
});
