/**
 * HTML and CSV benchmark: throughput (MB of input per CPU second) of docmill against anchors run in
 * the same process and the same run:
 *   - HTML: bare turndown (default options, on the decoded text: no cleaning, no main content, no
 *     metadata; the floor of what docmill's HTML path builds on) and pandoc (`-f html -t gfm`);
 *   - CSV: Firecrawl's @firecrawl/anydoc (Rust, in-process) and pandoc (`-f csv -t gfm`).
 *
 *   npm run build && node bench/html-csv.ts [--seconds N] [--write]
 *
 * Inputs: every .html/.htm/.csv of ../shared/corpus and fixtures/, plus two generated large inputs (a
 * 2 MB page of paragraphs, lists and a table; a 60,000-row CSV) to show how it scales. In-process
 * converters run in alternating rounds for at least N seconds each (default 2) after a warm-up pass;
 * pandoc runs each file once as a process (CPU time from /usr/bin/time). `--write` replaces the
 * "HTML and CSV" section of bench/README.md.
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

function filesOf(extensions: string[]): Input[] {
  const out: Input[] = [];
  const walk = (dir: string, label: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir).sort()) {
      const full = path.join(dir, e);
      if (statSync(full).isDirectory()) walk(full, `${label}/${e}`);
      else if (extensions.some((x) => e.toLowerCase().endsWith(x)))
        out.push({ name: `${label}/${e}`, bytes: readFileSync(full) });
    }
  };
  for (const d of ['markitdown', 'officeparser', 'unstructured']) walk(path.join(CORPUS, d), d);
  walk(path.join(ROOT, 'fixtures', extensions.includes('.csv') ? 'csv' : 'html'), 'fixtures');
  return out;
}

function largeHtml(): Input {
  let h =
    '<!DOCTYPE html><html><head><title>Large</title></head><body><header><nav><a href="/">Home</a></nav></header><main>';
  for (let i = 0; i < 12000; i++)
    h += `<p>Paragraph ${i} with <a href="/x/${i}">a link</a>, <b>bold</b> and <i>italic</i> text.</p>`;
  h += '<ul>';
  for (let i = 0; i < 4000; i++) h += `<li>item ${i}<ul><li>sub ${i}</li></ul></li>`;
  h += '</ul><table><tr><th>n</th><th>square</th><th>note</th></tr>';
  for (let i = 0; i < 4000; i++) h += `<tr><td>${i}</td><td>${i * i}</td><td>row ${i}</td></tr>`;
  h += '</table></main><footer>Footer</footer></body></html>';
  return { name: 'generated/large.html', bytes: Buffer.from(h) };
}

function largeCsv(): Input {
  const lines = ['id,name,amount,comment'];
  for (let i = 0; i < 60000; i++) lines.push(`${i},"Name ${i}, Jr.",${(i * 1.37).toFixed(2)},"line one\nline two"`);
  return { name: 'generated/large.csv', bytes: Buffer.from(lines.join('\n')) };
}

function measurePandoc(inputs: Input[], from: string): Result | undefined {
  if (spawnSync('pandoc', ['--version']).status !== 0 || !existsSync('/usr/bin/time')) return undefined;
  const failed: string[] = [];
  let ok = 0;
  let bytes = 0;
  let seconds = 0;
  const timeFile = path.join(os.tmpdir(), `docmill-bench-time-${process.pid}`);
  for (const i of inputs) {
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, 'pandoc', '-f', from, '-t', 'gfm'], {
      input: i.bytes,
      maxBuffer: 256 * 1024 * 1024,
      timeout: 120000,
    });
    if (r.status !== 0) {
      failed.push(`${i.name}: exit ${r.status}`);
      continue;
    }
    ok++;
    bytes += i.bytes.length;
    const [u, s] = readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
    seconds += (u ?? 0) + (s ?? 0);
  }
  return { mbps: ok && seconds > 0 ? bytes / 1e6 / seconds : null, ok, failed };
}

const fmt = (r: Result | undefined): string =>
  r?.mbps == null ? '—' : r.mbps >= 10 ? r.mbps.toFixed(1) : r.mbps.toFixed(2);
const ratio = (a: Result | undefined, b: Result | undefined): string =>
  a?.mbps != null && b?.mbps != null ? `${(a.mbps / b.mbps).toFixed(2)}×` : '—';
const mb = (inputs: Input[]): string => (inputs.reduce((a, i) => a + i.bytes.length, 0) / 1e6).toFixed(2);

async function main(): Promise<void> {
  const { createParser } = (await import(path.join(ROOT, 'dist/src/parser.js'))) as typeof import('../src/parser.js');
  const { decodeText } = (await import(
    path.join(ROOT, 'dist/src/html/charset.js')
  )) as typeof import('../src/html/charset.js');
  const TurndownService = (await import('turndown')).default;
  const anydoc = (await import('@firecrawl/anydoc')) as typeof import('@firecrawl/anydoc');
  const parser = createParser();
  const turndown = new TurndownService();
  const ours: Convert = (i) => parser.parseFile(i.bytes, undefined, { filename: path.basename(i.name) });
  const bareTurndown: Convert = async (i) => turndown.turndown(decodeText(i.bytes, { markup: true }).text);
  const anydocCsv: Convert = (i) => anydoc.toMarkdownBytes(i.bytes, 'csv' as import('@firecrawl/anydoc').Format);

  const rows: string[] = [];
  const notes: string[] = [];
  const sets: Array<[string, Input[], Convert, string, string]> = [
    ['HTML, corpus + fixtures', filesOf(['.html', '.htm', '.xhtml']), bareTurndown, 'bare turndown', 'html'],
    ['HTML, generated 2 MB page', [largeHtml()], bareTurndown, 'bare turndown', 'html'],
    ['CSV, corpus + fixtures', filesOf(['.csv']), anydocCsv, 'anydoc', 'csv'],
    ['CSV, generated 60,000 rows', [largeCsv()], anydocCsv, 'anydoc', 'csv'],
  ];
  for (const [label, inputs, anchor, anchorName, pandocFrom] of sets) {
    const [mine, theirs] = await (await benchMeasure()).measureAll(inputs, [ours, anchor], SECONDS);
    const pd = measurePandoc(inputs, pandocFrom);
    for (const [who, r] of [
      ['docmill', mine],
      [anchorName, theirs],
      ['pandoc', pd],
    ] as const) {
      if (r && r.failed.length) notes.push(`${label}, ${who} failed on: ${r.failed.join('; ')}`);
    }
    rows.push(
      `| ${label} | ${inputs.length} (${mb(inputs)} MB) | ${fmt(mine)} | ${anchorName}: ${fmt(theirs)} | ${fmt(pd)} | ${ratio(mine, theirs)} | ${ratio(mine, pd)} |`,
    );
    process.stdout.write(`${rows[rows.length - 1]}\n`);
  }
  await parser.close();

  const section = [
    '## HTML and CSV',
    '',
    `Throughput in MB of input per CPU second (user + system time, all threads), one file at a time (${os.cpus().length} cores: ${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    `Command: \`npm run build && node bench/html-csv.ts --seconds ${SECONDS} --write\`. docmill runs the whole parse (detection, decoding, cleaning, main content, links, metadata, markdown) with default options.`,
    "Anchors: bare turndown with default options on the decoded HTML (no cleaning or main-content step: the floor docmill's HTML path builds on); @firecrawl/anydoc in-process for CSV; pandoc `-t gfm` as a process per file, each once. Ratio > 1 means docmill is faster.",
    '',
    '| input | files | docmill MB/s | anchor MB/s | pandoc MB/s | docmill / anchor | docmill / pandoc |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...(notes.length ? ['Failures (left out of the throughput):', '', ...notes.map((n) => `- ${n}`), ''] : []),
  ].join('\n');
  process.stdout.write(`\n${section}\n`);
  if (WRITE) (await benchReadme()).writeReadmeSection('html-csv', section);
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
