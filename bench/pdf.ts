/**
 * PDF fast mode as users see it: docmill against `@firecrawl/pdf-inspector` on the bench set that
 * bench/make-pdfs.ts builds (producer families × 1, 10, 100 and 1,000+ pages), in the same run.
 *
 *   npm run build && node bench/make-pdfs.ts && node bench/pdf.ts [--runs N] [--big-runs N] [--write]
 *       [--families groff,word] [--bands 1,10] [--no-command] [--no-library] [--reuse-command] [--reuse-library] [--lib-bands 1,10,100]
 *
 * (a) The command, as a whole process, start to exit: `node dist/src/cli/main.js FILE --mode fast` exactly
 *     as the package's bin runs it (it sets the V8 flags of src/cli/node-flags.ts in its own process,
 *     then parses in a worker thread, which starts the text pool), against `node` running a script that
 *     calls pdf-inspector's `extractPagesMarkdown` on the same file and prints the markdown. Each under
 *     `/usr/bin/time`, alternating docmill / pdf-inspector, N pairs, medians of wall time, CPU (user +
 *     system of the process and every process it waited for) and peak RSS (the largest resident set of
 *     any one process of the tree, as wait4 reports it). No warm-up in a timed process. The command's compile cache
 *     (src/cli/main.ts) lives in bench/.cache/xdg and is filled by one untimed run first: a user's
 *     second and later runs.
 * (b) The library in a running process: one process per tool parses every document of the set in turn,
 *     1 + N rounds; the first round is not counted (the JIT has seen every path, the pool is started),
 *     each document's time is its median over the counted rounds. docmill runs under plain `node`, as an
 *     application embedding the library does (createParser() with its defaults); CPU is the process's
 *     (all threads) during the parse. Peak RSS is the process's, over all documents.
 *
 * Ratios: speed = pdf-inspector's time ÷ docmill's (above 1: docmill is faster); CPU and RSS = docmill's
 * ÷ pdf-inspector's (below 1: docmill uses less). `--write` replaces the "PDF" section of bench/README.md.
 * Each run saves its numbers in bench/.cache/pdf-results.json; `--reuse-command` / `--reuse-library` take that
 * part from there instead of measuring it (to report a command run and a library run made apart).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, 'bench', '.cache');
const PDFS = path.join(CACHE, 'pdfs');
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const WRITE = args.includes('--write');
const RUNS = Number(opt('--runs')) || 3;
/** Runs of the 1,000+ page documents (command pairs and counted library rounds); default RUNS. */
const BIG_RUNS = Number(opt('--big-runs')) || RUNS;
const runsOf = (d: Doc): number => (d.band >= 1000 ? BIG_RUNS : RUNS);
const FAMILIES = opt('--families')?.split(',');
const BANDS = opt('--bands')?.split(',').map(Number);
const COMMAND = !args.includes('--no-command');
/** Size bands the library part measures (default: all of --bands). */
const LIB_BANDS = opt('--lib-bands')?.split(',').map(Number);
/** Take the command's numbers from the last run's bench/.cache/pdf-results.json instead of measuring them again. */
const REUSE_COMMAND = args.includes('--reuse-command');
/** The same for the library part (with its processes' peak RSS). */
const REUSE_LIBRARY = args.includes('--reuse-library');
const LIBRARY = !args.includes('--no-library');
const MAIN_JS = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
/** Long enough for the largest document (the CLI's default is 20 s). */
const CLI_OPTIONS = JSON.stringify({ timeout: 300_000 });

interface Doc {
  family: string;
  band: number;
  pages: number;
  file: string;
  heldOut: boolean;
  producer: string;
}

interface Measure {
  wallMs: number;
  cpuMs: number;
  rssMb: number;
  chars: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function medianOf(ms: Measure[]): Measure {
  return {
    wallMs: median(ms.map((m) => m.wallMs)),
    cpuMs: median(ms.map((m) => m.cpuMs)),
    rssMb: median(ms.map((m) => m.rssMb)),
    chars: median(ms.map((m) => m.chars)),
  };
}

const requireUrl = pathToFileURL(path.join(ROOT, 'package.json')).href;

/** pdf-inspector as a command: the file's pages as markdown on standard output. */
const INSPECTOR_COMMAND = `
const { createRequire } = await import('node:module');
const pi = createRequire(${JSON.stringify(requireUrl)})('@firecrawl/pdf-inspector');
const fs = await import('node:fs');
const r = pi.extractPagesMarkdown(fs.readFileSync(process.argv[process.argv.length - 1]));
process.stdout.write(r.pages.map((p) => p.markdown).join('\\n\\n'));
`;

/** Runs argv under /usr/bin/time, standard output to a file; wall from here, CPU and peak RSS from wait4. */
function timed(argv: string[], env: NodeJS.ProcessEnv): Promise<Measure> {
  const tmp = path.join(CACHE, `run-${process.pid}`);
  const out = `${tmp}.out`;
  const times = `${tmp}.time`;
  return new Promise((resolve, reject) => {
    const fd = openSync(out, 'w');
    const t = performance.now();
    const p = spawn('/usr/bin/time', ['-f', '%U %S %M', '-o', times, ...argv], {
      stdio: ['ignore', fd, 'pipe'],
      env,
    });
    let err = '';
    p.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    p.on('error', reject);
    p.on('exit', (code) => {
      const wallMs = performance.now() - t;
      closeSync(fd);
      const chars = statSync(out).size;
      const line = readFileSync(times, 'utf8').trim().split('\n').pop()!;
      rmSync(out, { force: true });
      rmSync(times, { force: true });
      if (code !== 0) {
        reject(new Error(`${argv.slice(0, 3).join(' ')} exited ${code}: ${err.slice(0, 400)}`));
        return;
      }
      const [user, sys, rssKb] = line.split(' ').map(Number) as [number, number, number];
      resolve({ wallMs, cpuMs: (user + sys) * 1000, rssMb: rssKb / 1024, chars });
    });
  });
}

const commandEnv: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(CACHE, 'xdg') };
delete commandEnv['NODE_COMPILE_CACHE'];
delete commandEnv['DOCMILL_NODE_FLAGS'];
delete commandEnv['NODE_OPTIONS'];

const docmillCommand = (file: string): Promise<Measure> =>
  timed([process.execPath, MAIN_JS, file, '--mode', 'fast', '--options', CLI_OPTIONS], commandEnv);
const inspectorCommand = (file: string): Promise<Measure> =>
  timed([process.execPath, '--input-type=module', '-e', INSPECTOR_COMMAND, '--', file], commandEnv);

/** One process per tool: every document in turn, 1 + RUNS rounds; prints [{ file, runs: Measure[] }] and the peak RSS. */
const DOCMILL_LIBRARY = `
const files = process.argv.slice(1);
const rounds = Number(files.shift());
const { createParser } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist', 'src', 'index.js')).href)});
const fs = await import('node:fs');
const parser = createParser();
const opts = { timeout: 300000, parsers: [{ type: 'pdf', mode: 'fast' }] };
const runs = new Map(files.map((f) => [f, []]));
for (let r = 0; r < rounds; r++)
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    const c = process.cpuUsage();
    const t = performance.now();
    const doc = await parser.parseFile(bytes, opts);
    const wallMs = performance.now() - t;
    const cpu = process.cpuUsage(c);
    if (r > 0) runs.get(file).push({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, rssMb: 0, chars: doc.markdown.length });
  }
await parser.close();
console.log(JSON.stringify({ rssMb: process.resourceUsage().maxRSS / 1024, files: [...runs].map(([file, runs]) => ({ file, runs })) }));
`;

const INSPECTOR_LIBRARY = `
const files = process.argv.slice(1);
const rounds = Number(files.shift());
const { createRequire } = await import('node:module');
const pi = createRequire(${JSON.stringify(requireUrl)})('@firecrawl/pdf-inspector');
const fs = await import('node:fs');
const runs = new Map(files.map((f) => [f, []]));
for (let r = 0; r < rounds; r++)
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    const c = process.cpuUsage();
    const t = performance.now();
    const res = pi.extractPagesMarkdown(bytes);
    const md = res.pages.map((p) => p.markdown).join('\\n\\n');
    const wallMs = performance.now() - t;
    const cpu = process.cpuUsage(c);
    if (r > 0) runs.get(file).push({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, rssMb: 0, chars: md.length });
  }
console.log(JSON.stringify({ rssMb: process.resourceUsage().maxRSS / 1024, files: [...runs].map(([file, runs]) => ({ file, runs })) }));
`;

function library(
  script: string,
  files: string[],
  runs: number,
): Promise<{ rssMb: number; byFile: Map<string, Measure> }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', script, '--', String(runs + 1), ...files], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '',
      err = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    p.on('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`library process failed (${code}): ${err.slice(0, 500)}`));
        return;
      }
      const r = JSON.parse(out.trim().split('\n').pop()!) as {
        rssMb: number;
        files: Array<{ file: string; runs: Measure[] }>;
      };
      resolve({ rssMb: r.rssMb, byFile: new Map(r.files.map((f) => [f.file, medianOf(f.runs)])) });
    });
  });
}

interface Saved {
  rows: Array<{ family: string; band: number; cmd?: Row['cmd']; lib?: Row['lib'] }>;
  libRss: LibRss[];
}

interface LibRss {
  set: string;
  docmill: number;
  inspector: number;
}

interface Row {
  doc: Doc;
  cmd?: { docmill: Measure; inspector: Measure };
  lib?: { docmill: Measure; inspector: Measure };
}

const f1 = (x: number): string => x.toFixed(1);
const f2 = (x: number): string => x.toFixed(2);
const s2 = (ms: number): string => (ms / 1000).toFixed(2);
const speed = (p: { docmill: Measure; inspector: Measure }): number => p.inspector.wallMs / p.docmill.wallMs;
const bandName = (b: number): string => (b >= 1000 ? '1000+' : String(b));

function familyTable(rows: Row[], pick: (r: Row) => number | undefined, families: string[], bands: number[]): string[] {
  const lines = [
    `| family | ${bands.map((b) => `${bandName(b)} p`).join(' | ')} |`,
    `|---|${bands.map(() => '---:').join('|')}|`,
  ];
  for (const fam of families) {
    const cells = bands.map((b) => {
      const r = rows.find((x) => x.doc.family === fam && x.doc.band === b);
      const v = r ? pick(r) : undefined;
      return v === undefined ? '—' : `${f2(v)}×`;
    });
    lines.push(`| ${fam} | ${cells.join(' | ')} |`);
  }
  return lines;
}

function worst(rows: Row[], pick: (r: Row) => number | undefined): string {
  let w: Row | undefined;
  let wv = Infinity;
  for (const r of rows) {
    const v = pick(r);
    if (v !== undefined && v < wv) [w, wv] = [r, v];
  }
  return w ? `${w.doc.family} ${bandName(w.doc.band)} p (${f2(wv)}×)` : '—';
}

function report(rows: Row[], docs: Doc[], libRss: LibRss[]): string {
  const families = [...new Set(docs.map((d) => d.family))];
  const tuned = families.filter((f) => !docs.find((d) => d.family === f)!.heldOut);
  const held = families.filter((f) => docs.find((d) => d.family === f)!.heldOut);
  const bands = [...new Set(docs.map((d) => d.band))].sort((a, b) => a - b);
  const cmdSpeed = (r: Row): number | undefined => (r.cmd ? speed(r.cmd) : undefined);
  const libSpeed = (r: Row): number | undefined => (r.lib ? speed(r.lib) : undefined);
  const cmdRss = (r: Row): number | undefined => (r.cmd ? r.cmd.docmill.rssMb / r.cmd.inspector.rssMb : undefined);
  const load = os.loadavg();
  const HELD = held.join(', ') || 'none';
  const date = new Date().toISOString().slice(0, 10);
  const lines = [
    '## PDF',
    '',
    `\`npm run build && node bench/make-pdfs.ts && node bench/pdf.ts ${args.join(' ')}\` — ${date}, Node ${process.version},`,
    `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), load average ${load.map(f1).join(' / ')} at the end. The machine is shared`,
    'with other work: the load moves the numbers, two-thread docmill more than one-thread pdf-inspector.',
    '',
    'Fast mode (text layer, layout, markdown) against `@firecrawl/pdf-inspector` `extractPagesMarkdown`, on documents',
    'bench/make-pdfs.ts makes into bench/.cache/pdfs (outside git) from Debian tools and the corpus: 1, 10, 100 and',
    '1,000+ pages of each family (the first pages of a ~100-page document; 1,000+ by qpdf concatenation). Debian',
    'packages: `groff ghostscript man-db manpages manpages-dev qpdf libreoffice-writer-nogui chromium texlive-latex-base',
    "pandoc fonts-dejavu-core fonts-liberation`. pandoc's LaTeX template needs more than texlive-latex-base, so the pdfTeX",
    'family is typeset from plain LaTeX (article class); pandoc has no other PDF engine here and makes no family of its own.',
    `The held-out family (${HELD}) is never tuned on and is reported apart.`,
    '',
    `- **command**: \`node dist/src/cli/main.js FILE --mode fast\` as the bin runs it (one process: it sets what`,
    '  `--max-opt=2` sets, parses in a worker thread, which starts the text pool) against a `node` process calling',
    `  pdf-inspector and printing the markdown; whole processes, start to exit, alternating, median of ${RUNS} pairs`,
    `  (${BIG_RUNS} at 1,000+ pages);`,
    "  CPU = user + system of the tree; peak RSS = the largest process of the tree (wait4's maxrss);",
    '  compile cache filled by one untimed run.',
    `- **library**: one process per tool parses every document in turn, ${RUNS + 1} rounds (${BIG_RUNS + 1} for the 1,000+ page`,
    '  documents, in processes of their own), the first not counted, median per document; docmill under plain `node`',
    '  with `createParser()` defaults.',
    '',
    'Speed ratio = pdf-inspector time ÷ docmill time (above 1: docmill faster). Targets (#23): command ≥ 1.0× at 100+',
    'pages and ≥ 0.7× at one page; library ≥ 1.2× everywhere; peak RSS ≤ 2× pdf-inspector, flat as pages grow.',
    '',
  ];
  const groups: Array<[string, string[]]> = [['Families tuned on', tuned]];
  if (held.length) groups.push([`Held out (never tuned on: ${held.join(', ')})`, held]);
  for (const [title, fams] of groups) {
    const rs = rows.filter((r) => fams.includes(r.doc.family));
    lines.push(`### ${title}`, '');
    if (rs.some((r) => r.cmd)) {
      lines.push('Command, speed ratio:', '', ...familyTable(rs, cmdSpeed, fams, bands), '');
      lines.push('Command, peak RSS ratio (docmill ÷ pdf-inspector):', '', ...familyTable(rs, cmdRss, fams, bands), '');
    }
    if (rs.some((r) => r.lib)) lines.push('Library, speed ratio:', '', ...familyTable(rs, libSpeed, fams, bands), '');
    lines.push(`Worst: command ${worst(rs, cmdSpeed)}; library ${worst(rs, libSpeed)}.`, '');
  }
  lines.push(
    '### Every document',
    '',
    '| family | pages | command wall s docmill / pdf-inspector | speed | CPU s docmill / pdf-inspector | CPU ratio | peak RSS MiB docmill / pdf-inspector | library ms docmill / pdf-inspector | library speed | library CPU ratio |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of rows) {
    const c = r.cmd;
    const l = r.lib;
    lines.push(
      `| ${r.doc.family}${r.doc.heldOut ? ' (held out)' : ''} | ${r.doc.pages} | ` +
        (c
          ? `${s2(c.docmill.wallMs)} / ${s2(c.inspector.wallMs)} | ${f2(speed(c))}× | ${s2(c.docmill.cpuMs)} / ${s2(c.inspector.cpuMs)} | ${f2(c.docmill.cpuMs / c.inspector.cpuMs)}× | ${c.docmill.rssMb.toFixed(0)} / ${c.inspector.rssMb.toFixed(0)} | `
          : '— | — | — | — | — | ') +
        (l
          ? `${f1(l.docmill.wallMs)} / ${f1(l.inspector.wallMs)} | ${f2(speed(l))}× | ${f2(l.docmill.cpuMs / l.inspector.cpuMs)}× |`
          : '— | — | — |'),
    );
  }
  lines.push('');
  for (const r of libRss)
    lines.push(
      `Library processes' peak RSS over the ${r.set}: docmill ${r.docmill.toFixed(0)} MiB, pdf-inspector ${r.inspector.toFixed(0)} MiB.`,
      '',
    );
  lines.push('Producers:', '');
  for (const fam of families) lines.push(`- ${fam}: ${docs.find((d) => d.family === fam)!.producer}`);
  lines.push('');
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (!existsSync(MAIN_JS)) throw new Error('run npm run build first');
  const manifest = path.join(PDFS, 'manifest.json');
  if (!existsSync(manifest)) throw new Error(`no bench set: run node bench/make-pdfs.ts first (${manifest})`);
  const docs = (JSON.parse(readFileSync(manifest, 'utf8')) as Doc[])
    .map((d) => ({ ...d, file: path.join(PDFS, d.file) }))
    .filter((d) => (!FAMILIES || FAMILIES.includes(d.family)) && (!BANDS || BANDS.includes(d.band)));
  mkdirSync(path.join(CACHE, 'xdg'), { recursive: true });
  const rows: Row[] = docs.map((doc) => ({ doc }));

  const saved = path.join(CACHE, 'pdf-results.json');
  const last = (): Saved => {
    if (!existsSync(saved)) return { rows: [], libRss: [] };
    const got = JSON.parse(readFileSync(saved, 'utf8')) as Saved | Saved['rows'];
    // Runs before 2026-11-28 saved the rows alone (and no library RSS).
    return Array.isArray(got) ? { rows: got, libRss: [] } : got;
  };
  if (REUSE_COMMAND) {
    const prev = last().rows;
    for (const row of rows) {
      const cmd = prev.find((r) => r.family === row.doc.family && r.band === row.doc.band)?.cmd;
      if (cmd) row.cmd = cmd;
    }
  } else if (COMMAND) {
    // The compile cache of a user's second run (and a check that the command works at all).
    await docmillCommand(docs[0]!.file);
    for (const row of rows) {
      const d: Measure[] = [];
      const p: Measure[] = [];
      for (let i = 0; i < runsOf(row.doc); i++) {
        d.push(await docmillCommand(row.doc.file));
        p.push(await inspectorCommand(row.doc.file));
      }
      row.cmd = { docmill: medianOf(d), inspector: medianOf(p) };
      const c = row.cmd;
      console.log(
        `command ${row.doc.family} ${row.doc.pages}p: docmill ${s2(c.docmill.wallMs)} s ${s2(c.docmill.cpuMs)} cpu ${c.docmill.rssMb.toFixed(0)} MiB; pdf-inspector ${s2(c.inspector.wallMs)} s ${s2(c.inspector.cpuMs)} cpu ${c.inspector.rssMb.toFixed(0)} MiB; speed ${f2(speed(c))}×`,
      );
    }
  }
  const libRss: LibRss[] = [];
  if (REUSE_LIBRARY) {
    const prev = last();
    libRss.push(...prev.libRss);
    for (const row of rows) {
      const lib = prev.rows.find((r) => r.family === row.doc.family && r.band === row.doc.band)?.lib;
      if (lib) row.lib = lib;
    }
  } else if (LIBRARY) {
    // Documents up to 100 pages in one pair of processes, the 1,000+ page ones in another (their peak RSS apart).
    const byFile = new Map<string, { docmill: Measure; inspector: Measure }>();
    for (const big of [false, true]) {
      const set = docs.filter((d) => d.band >= 1000 === big && (!LIB_BANDS || LIB_BANDS.includes(d.band)));
      if (set.length === 0) continue;
      const files = set.map((d) => d.file);
      const runs = big ? BIG_RUNS : RUNS;
      const dm = await library(DOCMILL_LIBRARY, files, runs);
      const pi = await library(INSPECTOR_LIBRARY, files, runs);
      libRss.push({
        set: big ? '1,000+ page documents' : 'documents of 1-100 pages',
        docmill: dm.rssMb,
        inspector: pi.rssMb,
      });
      for (const f of files) byFile.set(f, { docmill: dm.byFile.get(f)!, inspector: pi.byFile.get(f)! });
    }
    for (const row of rows) {
      const lib = byFile.get(row.doc.file);
      if (!lib) continue;
      row.lib = lib;
      console.log(
        `library ${row.doc.family} ${row.doc.pages}p: docmill ${f1(row.lib.docmill.wallMs)} ms; pdf-inspector ${f1(row.lib.inspector.wallMs)} ms; speed ${f2(speed(row.lib))}×`,
      );
    }
  }
  writeFileSync(
    saved,
    JSON.stringify({
      rows: rows.map((r) => ({ family: r.doc.family, band: r.doc.band, cmd: r.cmd, lib: r.lib })),
      libRss,
    } satisfies Saved),
  );
  const section = report(rows, docs, libRss);
  console.log(`\n${section}`);
  if (WRITE) {
    const readme = path.join(ROOT, 'bench', 'README.md');
    let text = readFileSync(readme, 'utf8');
    const re = /## PDF\n[\s\S]*?(?=\n## |$)/;
    text = re.test(text) ? text.replace(re, section.trimEnd() + '\n') : `${text.trimEnd()}\n\n${section}`;
    writeFileSync(readme, text);
    console.log(`written to ${readme}`);
  }
}

await main();
