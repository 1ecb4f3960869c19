/**
 * The command line as a person (and the evaluation) uses it: a path in, markdown on stdout.
 * Runs the built CLI (`npm test` builds first).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

  it.runIf(process.platform === 'linux')(
    'runs a PDF conversion in a child started with the flags, passing its output and status through',
    async () => {
      const { CLI_NODE_FLAGS } = await import('../src/cli/node-flags.js');
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
      const done = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
      // The child's command line, read from /proc while it runs.
      let seen: string[] | null = null;
      const { readFileSync } = await import('node:fs');
      for (let i = 0; i < 300 && !seen && child.exitCode === null; i++) {
        for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
          try {
            const ppid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
            // Right after the fork the child still shows this process's command line: wait for its own.
            const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
            if (ppid === child.pid && cmdline.includes(CLI_NODE_FLAGS[0]!)) {
              seen = cmdline;
              break;
            }
          } catch {
            /* the process ended meanwhile */
          }
        }
        if (!seen) await new Promise((r) => setTimeout(r, 10));
      }
      expect(await done).toBe(0);
      expect(seen).not.toBeNull();
      for (const f of CLI_NODE_FLAGS) expect(seen).toContain(f);
      expect(stdout).toContain('Line 3 of page 150');
    },
  );
});
