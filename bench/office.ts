/**
 * Office benchmark: throughput (MB of input per second) of docmill per office format, against
 * Firecrawl's @firecrawl/anydoc (Rust, in-process) and pandoc (a process per file) in the same run.
 *
 *   npm run build && node bench/office.ts [--seconds N] [--write]
 *
 * Inputs: every file of the format in ../shared/corpus (markitdown, mammoth, unstructured,
 * officeparser) and in fixtures/. docmill and anydoc convert the whole set in alternating rounds, one
 * file at a time, for at least N seconds each (default 2) after a warm-up pass; MB/s = bytes of input
 * converted / CPU time. pandoc runs each file once (it is a process start per
 * file, which is how it is used). Throughput is per CPU second, the machine being shared. Files a
 * converter rejects are counted as failures and left out of its throughput. Formats whose docmill reader has not landed yet are reported as such. `--write`
 * replaces the "Office" section of bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as BenchMeasure from '../test-support/bench-measure.js';
import type { Convert, Input, Result } from '../test-support/bench-measure.js';
import type * as BenchReadme from '../test-support/bench-readme.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = process.env['DOCMILL_CORPUS'] ?? path.resolve(ROOT, '..', 'shared', 'corpus');
const args = process.argv.slice(2);
const SECONDS = args.includes('--seconds') ? Number(args[args.indexOf('--seconds') + 1]) || 2 : 2;
const WRITE = args.includes('--write');

const FORMATS = ['docx', 'doc', 'odt', 'rtf', 'epub', 'xlsx', 'xls', 'ods', 'pptx', 'ppt', 'odp'] as const;
type Format = (typeof FORMATS)[number];
const PANDOC_FORMATS: Partial<Record<Format, string>> = { docx: 'docx', odt: 'odt', rtf: 'rtf', epub: 'epub' };

function inputsOf(format: Format): Input[] {
  const out: Input[] = [];
  const dirs = ['markitdown', 'mammoth', 'unstructured', 'officeparser'].map((d) => path.join(CORPUS, d));
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir)) {
      const full = path.join(dir, e);
      if (statSync(full).isDirectory()) walk(full);
      else if (e.toLowerCase().endsWith(`.${format}`))
        out.push({ name: path.relative(ROOT, full), bytes: readFileSync(full) });
    }
  };
  for (const d of dirs)
    if (existsSync(d))
      for (const e of readdirSync(d))
        if (e.toLowerCase().endsWith(`.${format}`))
          out.push({ name: `${path.basename(d)}/${e}`, bytes: readFileSync(path.join(d, e)) });
  walk(path.join(ROOT, 'fixtures'));
  return out;
}

function pandocAvailable(): boolean {
  return spawnSync('pandoc', ['--version']).status === 0;
}

/** pandoc, a process per file, each once; CPU time of the child from /usr/bin/time when present. */
function measurePandoc(inputs: Input[], from: string): Result {
  const failed: string[] = [];
  let ok = 0;
  let bytes = 0;
  let seconds = 0;
  const timeFile = path.join(os.tmpdir(), `docmill-bench-time-${process.pid}`);
  const timed = existsSync('/usr/bin/time');
  for (const i of inputs) {
    const t0 = performance.now();
    const r = timed
      ? spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, 'pandoc', '-f', from, '-t', 'gfm'], {
          input: i.bytes,
          maxBuffer: 256 * 1024 * 1024,
          timeout: 120000,
        })
      : spawnSync('pandoc', ['-f', from, '-t', 'gfm'], {
          input: i.bytes,
          maxBuffer: 256 * 1024 * 1024,
          timeout: 120000,
        });
    const wall = (performance.now() - t0) / 1000;
    if (r.status !== 0) {
      failed.push(`${i.name}: exit ${r.status}`);
      continue;
    }
    ok++;
    bytes += i.bytes.length;
    if (timed) {
      const [u, sy] = readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
      seconds += (u ?? 0) + (sy ?? 0);
    } else seconds += wall;
  }
  return { mbps: ok && seconds > 0 ? bytes / 1e6 / seconds : null, ok, failed };
}

const fmt = (r: Result | undefined): string =>
  r?.mbps == null ? '—' : r.mbps >= 10 ? r.mbps.toFixed(1) : r.mbps.toFixed(2);
const ratio = (a: Result | undefined, b: Result | undefined): string =>
  a?.mbps != null && b?.mbps != null ? `${(a.mbps / b.mbps).toFixed(2)}×` : '—';

async function main(): Promise<void> {
  const { createParser } = (await import(path.join(ROOT, 'dist/src/parser.js'))) as typeof import('../src/parser.js');
  const anydoc = (await import('@firecrawl/anydoc')) as typeof import('@firecrawl/anydoc');
  const parser = createParser();
  const hasPandoc = pandocAvailable();
  const rows: string[] = [];
  const notes: string[] = [];
  for (const format of FORMATS) {
    const inputs = inputsOf(format);
    if (inputs.length === 0) {
      rows.push(`| ${format} | 0 | — | — | — | — | — | no input files |`);
      continue;
    }
    const mb = inputs.reduce((a, i) => a + i.bytes.length, 0) / 1e6;
    const anyFormat = (format === 'xls' ? null : format) as import('@firecrawl/anydoc').Format | null;
    const convertOurs: Convert = (i) => parser.parseFile(i.bytes, undefined, { filename: path.basename(i.name) });
    const convertTheirs: Convert = (i) =>
      anyFormat ? anydoc.toMarkdownBytes(i.bytes, anyFormat) : Promise.reject(new Error('anydoc has no .xls reader'));
    const [ours, theirs] = await (
      await benchMeasure()
    ).measureAll(inputs, [convertOurs, convertTheirs], SECONDS, { sameFiles: true });
    let note = '';
    if (ours!.ok === 0 && ours!.failed.every((f) => /UNSUPPORTED_FILE_TYPE/.test(f)))
      note = 'docmill reader not yet landed';
    const pandocFrom = PANDOC_FORMATS[format];
    const pd = hasPandoc && pandocFrom ? measurePandoc(inputs, pandocFrom) : undefined;
    for (const [who, r] of [
      ['docmill', ours!],
      ['anydoc', theirs!],
      ['pandoc', pd],
    ] as const) {
      if (r && r.failed.length && !(who === 'docmill' && note))
        notes.push(`${format}, ${who} failed on: ${r.failed.join('; ')}`);
    }
    rows.push(
      `| ${format} | ${inputs.length} (${mb.toFixed(2)} MB) | ${fmt(ours!)} | ${fmt(theirs!)} | ${pd ? fmt(pd) : '—'} | ${ratio(ours!, theirs!)} | ${pd ? ratio(ours!, pd) : '—'} | ${note} |`,
    );
    process.stdout.write(`${rows[rows.length - 1]}\n`);
  }
  await parser.close();

  const section = [
    '## Office',
    '',
    `Throughput in MB of input per CPU second (user + system time of the converter, all its threads), one file at a time (${os.cpus().length} cores: ${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    'CPU time rather than wall time because the machine is shared: other processes slow the wall clock of every converter unevenly.',
    `Command: \`npm run build && node bench/office.ts --seconds ${SECONDS} --write\`. Inputs: every file of the format in ../shared/corpus and fixtures/.`,
    'docmill and anydoc (in-process) convert the set in alternating rounds for at least the given seconds each after a warm-up pass; pandoc (a process per file, `-t gfm`, CPU time from /usr/bin/time) runs each file once.',
    'Both in-process converters are timed on the same files: those both accept (a file one of them rejects is listed below and left out of both). Ratio > 1 means docmill is faster.',
    'On a loaded machine the ratios move by up to about ±20% between runs: compare several runs before reading a smaller difference.',
    '',
    '| format | files | docmill MB/s | anydoc MB/s | pandoc MB/s | docmill / anydoc | docmill / pandoc | note |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...(notes.length ? ['Failures (left out of the throughput):', '', ...notes.map((n) => `- ${n}`), ''] : []),
  ].join('\n');
  process.stdout.write(`\n${section}\n`);
  if (WRITE) (await benchReadme()).writeReadmeSection('office', section);
}

await main();

/** The section writer, from the build (bench scripts run as TypeScript, the shared code from dist/). */
async function benchReadme(): Promise<typeof BenchReadme> {
  return import(new URL('../dist/test-support/bench-readme.js', import.meta.url).href) as Promise<typeof BenchReadme>;
}

/** The shared in-process measurement, from the build (bench scripts run as TypeScript, the shared code from dist/). */
async function benchMeasure(): Promise<typeof BenchMeasure> {
  return import(new URL('../dist/test-support/bench-measure.js', import.meta.url).href) as Promise<typeof BenchMeasure>;
}
