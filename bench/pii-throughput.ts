/**
 * Throughput of PII detection per mode, in MB of text per second, on real prose that does not repeat:
 * the markdown files (READMEs, changelogs) of the installed dependencies, about 4 MB of English text
 * with names, e-mail addresses, URLs, numbers and code. Time is the CPU time of the detecting thread
 * (process.threadCpuUsage), best of three runs: other processes share the machine's cores, and wall
 * time would measure them. Before the timed runs, untimed passes of `fast` over the text let V8 compile
 * the detectors: the rate climbs over the first six or seven passes of a process (from about 40% of the
 * settled rate on the first), so a best of three taken right away measured the compiler more than the
 * code. The first pass is reported on a row of its own. Anchor: the same text scanned once by one simple
 * regular expression (e-mail shapes), so "× anchor" says how many plain regex passes a mode costs.
 *
 *   npm run build && node bench/pii-throughput.ts [--mb 4] [--write]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as BenchReadme from '../test-support/bench-readme.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const mbArg = args.indexOf('--mb');
const limit = (mbArg >= 0 ? Number(args[mbArg + 1]) : 4) * 1e6;
type Detect = (t: string, o: { mode: string; entities: string[] }) => unknown[];
const { detect } = (await import(join(root, 'dist', 'src', 'redact', 'detect.js'))) as { detect: Detect };
type Redact = (md: string, o: { mode: string; entities: string[] }, style: string) => { markdown: string };
const { redactMarkdown } = (await import(join(root, 'dist', 'src', 'redact', 'markdown.js'))) as {
  redactMarkdown: Redact;
};
const { clearWordCaches } = (await import(join(root, 'dist', 'src', 'redact', 'names.js'))) as {
  clearWordCaches: () => void;
};

function collect(dir: string, out: string[], size: { n: number }): void {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const e of entries) {
    if (size.n >= limit) return;
    const p = join(dir, e);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) collect(p, out, size);
    else if (/\.md$/i.test(e) && st.size < 400_000) {
      const t = readFileSync(p, 'utf8');
      out.push(t);
      size.n += t.length;
    }
  }
}
const parts: string[] = [];
collect(join(root, 'node_modules'), parts, { n: 0 });
const text = parts.join('\n\n').slice(0, limit);
const ALL = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'];
const SHAPES = ['EMAIL', 'PHONE', 'FINANCIAL', 'SECRET'];

/**
 * CPU seconds of this thread for one call of `f`: the best of `runs` samples, each timing `passes` calls
 * in a row. The thread's CPU counter moves in steps of about 4 ms, 5-6% of one pass of fast mode over the
 * text; a sample of three passes brings a step under 2%.
 */
function cpu(f: () => void, runs: number, passes = 1): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = process.threadCpuUsage();
    for (let k = 0; k < passes; k++) f();
    const d = process.threadCpuUsage(t0);
    best = Math.min(best, (d.user + d.system) / 1e6 / passes);
  }
  return best;
}
/** Passes per sample of the fast-mode rows. */
const PASSES = 3;

// Warm-up: word lists, tagger and compiled patterns load once per process; then passes of `fast` (the
// first one timed: what a process's first large text costs) until V8 has compiled the detectors.
const WARM_PASSES = 6;
for (const mode of ['fast', 'accurate']) detect(text.slice(0, 50_000), { mode, entities: ALL });
const firstPass = cpu(() => {
  detect(text, { mode: 'fast', entities: ALL });
}, 1);
for (let k = 1; k < WARM_PASSES; k++) detect(text, { mode: 'fast', entities: ALL });

const anchorRate =
  text.length /
  1e6 /
  cpu(() => {
    text.match(/[\w.+-]+@[\w-]+\.[\w.]+/g);
  }, 3);
const rows: string[] = [];
{
  const rate = text.length / 1e6 / firstPass;
  rows.push(
    `| fast, first pass of the process (V8 still compiling) | all entities | ${(text.length / 1e6).toFixed(2)} | ${rate.toFixed(1)} | ${(anchorRate / rate).toFixed(1)}× | |`,
  );
}
const cases: Array<[string, string, string[], number, number, number]> = [
  ['fast', 'all entities', ALL, text.length, 3, PASSES],
  ['fast', 'EMAIL, PHONE, FINANCIAL, SECRET', SHAPES, text.length, 3, PASSES],
  ['accurate', 'all entities', ALL, Math.min(text.length, 2_000_000), 1, 1],
  ['aggressive', 'all entities', ALL, Math.min(text.length, 2_000_000), 1, 1],
];
for (const [mode, label, entities, size, runs, passes] of cases) {
  const sub = text.slice(0, size);
  let n = 0;
  const s = cpu(
    () => {
      n = detect(sub, { mode, entities }).length;
    },
    runs,
    passes,
  );
  const rate = sub.length / 1e6 / s;
  rows.push(
    `| ${mode} | ${label} | ${(sub.length / 1e6).toFixed(2)} | ${rate.toFixed(1)} | ${(anchorRate / rate).toFixed(1)}× | ${n} |`,
  );
}

{
  // The rows above scan the same text three times, and the process keeps the word-list lookups of the
  // words it has seen: from the second pass on, every capitalised word of the text is known. Here the
  // caches are emptied before each pass, as for a text whose words the process has not seen.
  let n = 0;
  const s = cpu(
    () => {
      clearWordCaches();
      n = detect(text, { mode: 'fast', entities: ALL }).length;
    },
    3,
    PASSES,
  );
  const rate = text.length / 1e6 / s;
  rows.push(
    `| fast, word caches emptied before each pass | all entities | ${(text.length / 1e6).toFixed(2)} | ${rate.toFixed(1)} | ${(anchorRate / rate).toFixed(1)}× | ${n} |`,
  );
}

{
  // The whole markdown path: projection, detection, edits.
  const s = cpu(
    () => {
      redactMarkdown(text, { mode: 'fast', entities: ALL }, 'tag');
    },
    3,
    PASSES,
  );
  const rate = text.length / 1e6 / s;
  rows.push(
    `| fast, redactMarkdown (projection + detection + rewrite) | all entities | ${(text.length / 1e6).toFixed(2)} | ${rate.toFixed(1)} | ${(anchorRate / rate).toFixed(1)}× | |`,
  );
}

const report = [
  `\`npm run build && node bench/pii-throughput.ts --write\` — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}.`,
  `Text: ${(text.length / 1e6).toFixed(2)} MB from ${parts.length} markdown files of node_modules (not repeated). CPU time of the detecting thread per pass, best of 3 samples of ${PASSES} passes each (1 pass for the model modes) after ${WARM_PASSES} untimed passes of fast. Anchor: one e-mail regex pass, ${anchorRate.toFixed(0)} MB/s.`,
  '',
  '| mode | entities | MB | MB/s | time vs anchor | detections |',
  '|---|---|---:|---:|---:|---:|',
  ...rows,
].join('\n');
console.log(report);

if (args.includes('--write')) {
  (await benchReadme()).writeReadmeSection('pii-speed', report);
}

/** The section writer, from the build (bench scripts run as TypeScript, the shared code from dist/). */
async function benchReadme(): Promise<typeof BenchReadme> {
  return import(new URL('../dist/test-support/bench-readme.js', import.meta.url).href) as Promise<typeof BenchReadme>;
}
