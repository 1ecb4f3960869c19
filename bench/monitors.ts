/**
 * Monitor benchmark: 1,000 monitors of 10 URLs each on a one-minute schedule (`* * * * *`) against a local
 * page server, on one instance (embedded database) and on two instances sharing one PostgreSQL (pg-boss).
 * Over one schedule period (first fire time to the next, a minute later): checks and pages finished per
 * second, scheduler lag (fire time to check start, p50/p99), what the next fire time records for monitors
 * still busy (skipped_overlap), and the instances' peak resident memory.
 * Anchor in the same run: docmill's parseFile on the same page in this process (pages/s), so the ratio
 * shows what fetching, comparing and storing add to converting.
 *
 *   npm run build && node bench/monitors.ts [--monitors 1000] [--urls 10] [--write]
 *
 * Instances run as child processes (dist/test-support/monitor-instance.js) whose monitor clock is moved so
 * that a minute boundary comes ~30 s after they start; each configuration takes about 100 s. PostgreSQL comes from
 * DOCMILL_BENCH_PG_URL or DOCMILL_TEST_PG_URL (test-support/postgres.sh starts one); without it the
 * two-instance run is skipped, saying so. `--write` replaces the "Monitors" section of bench/README.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as BenchReadme from '../test-support/bench-readme.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  return i >= 0 && Number(args[i + 1]) > 0 ? Number(args[i + 1]) : fallback;
};
const MONITORS = arg('--monitors', 1000);
const URLS = arg('--urls', 10);
const WRITE = args.includes('--write');
const KEY = 'bench-key-0123456789abcdef0123';
const PG_URL = process.env['DOCMILL_BENCH_PG_URL'] ?? process.env['DOCMILL_TEST_PG_URL'];
const INSTANCE = path.join(ROOT, 'dist/test-support/monitor-instance.js');

function page(m: number, u: number): string {
  return `<!doctype html><html><head><title>Product ${m}-${u}</title></head><body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a></nav>
<main><h1>Product ${m}-${u}</h1><p>Price: ${(m * 7 + u) % 90} EUR</p><p>Stock: in stock</p>
<h2>Details</h2><ul><li>Weight 1.2 kg</li><li>Colour blue</li><li>Ships in 2 days</li></ul>
<p>${'A paragraph of product description that makes the page weigh what a real one does. '.repeat(10)}</p></main>
<footer>© shop</footer></body></html>`;
}

function startPageServer(): Promise<{ server: http.Server; port: number; hits: () => number }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    const m = /^\/m(\d+)\/p(\d+)\.html$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(Number(m[1]), Number(m[2])));
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () => r({ server, port: (server.address() as AddressInfo).port, hits: () => hits })),
  );
}

interface Instance {
  proc: ChildProcess;
  port: number;
  peakRssMb: number;
  sampler: NodeJS.Timeout;
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const proc = spawn(process.execPath, [INSTANCE], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    proc.on('exit', (code) => reject(new Error(`instance exited (${code})`)));
  });
  const inst: Instance = { proc, port, peakRssMb: 0, sampler: setInterval(() => undefined, 1000) };
  clearInterval(inst.sampler);
  inst.sampler = setInterval(() => (inst.peakRssMb = Math.max(inst.peakRssMb, rssMb(proc.pid!))), 200);
  return inst;
}

async function stopInstance(i: Instance): Promise<void> {
  clearInterval(i.sampler);
  const exited = new Promise((r) => i.proc.once('exit', r));
  i.proc.kill('SIGTERM');
  await exited;
}

const pct = (sorted: number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface FireResult {
  /** Checks the schedulers recorded for the first fire time within the minute, and when the last was. */
  recorded: number;
  recordedBy: number;
  /** Checks of the first fire time finished within the minute, and their pages. */
  checks: number;
  pages: number;
  /** Checks of the first fire time started within the minute. */
  started: number;
  /** Seconds from the fire time to check start; Infinity for checks not started within the minute. */
  lagP50: number;
  lagP99: number;
  /** What the second fire time recorded, by check status, five seconds after it. */
  secondFire: string;
}

async function runConfig(
  label: string,
  instances: number,
  pagesPort: number,
  db: { databaseUrl?: string; dataDir?: string; queueSchema?: string },
): Promise<{ label: string; result: FireResult; rss: number[] }> {
  const { Store } = (await import(
    path.join(ROOT, 'dist/src/server/store/store.js')
  )) as typeof import('../src/server/store/store.js');
  // Monitors are written straight to the database before the instances start (as POST /v2/monitor would
  // write them): creating 1,000 of them on a busy machine takes a while, and must not run into the fire time.
  const { buildMonitor } = (await import(
    path.join(ROOT, 'dist/src/server/monitors.js')
  )) as typeof import('../src/server/monitors.js');
  const store = await Store.open(db.databaseUrl ? { databaseUrl: db.databaseUrl } : { dataDir: db.dataDir! });
  const created = Date.now();
  await store.sql.transaction(async (tx) => {
    for (let m = 0; m < MONITORS; m++) {
      const urls = Array.from({ length: URLS }, (_, u) => `http://127.0.0.1:${pagesPort}/m${m}/p${u}.html`);
      const monitor = buildMonitor(
        { name: `bench ${m}`, schedule: { cron: '* * * * *' }, targets: [{ type: 'scrape', urls }] },
        new Date(),
      );
      await tx.query(
        `INSERT INTO monitors (id, owner_key_id, name, status, cron, timezone, next_run_at, targets, retention_days,
           estimated_credits_per_month, last_check_summary, judge_enabled, created_at, updated_at)
         VALUES ($1, 'bench', $2, 'active', $3, 'UTC', $4, $5, 30, 0, $6, 0, $7, $7)`,
        [
          monitor.id,
          monitor.name,
          monitor.schedule.cron,
          monitor.nextRunAt,
          JSON.stringify(monitor.targets),
          JSON.stringify(monitor.lastCheckSummary),
          monitor.createdAt,
        ],
      );
    }
  });
  process.stderr.write(`${label}: ${MONITORS} monitors created in ${((Date.now() - created) / 1000).toFixed(1)} s\n`);
  // The instances' monitor clock reaches a minute boundary 30 s from now: every monitor's first fire time.
  const target = Date.now() + 30_000;
  const first = Math.ceil(target / 60_000) * 60_000;
  const offset = first - target;
  await store.sql.query('UPDATE monitors SET next_run_at = $1', [new Date(first).toISOString()]);
  const env: Record<string, string> = {
    DOCMILL_API_KEYS: `bench:${KEY}`,
    DOCMILL_ALLOW_PRIVATE_URLS: 'true',
    DOCMILL_LOG_LEVEL: 'error',
    DOCMILL_TEST_CLOCK_OFFSET_MS: String(offset),
    DOCMILL_TEXT_THREADS: '1',
    DOCMILL_OCR_THREADS: '1',
    ...(db.databaseUrl ? { DOCMILL_DATABASE_URL: db.databaseUrl, DOCMILL_QUEUE_SCHEMA: db.queueSchema! } : {}),
    ...(db.dataDir ? { DOCMILL_DATA_DIR: db.dataDir } : {}),
  };
  const list: Instance[] = [];
  for (let i = 0; i < instances; i++) list.push(await startInstance(env));
  if (Date.now() + offset > first) process.stderr.write(`${label}: the instances started after the fire time\n`);
  // Observe one schedule period: from the first fire time to the second (a minute later), then a few
  // seconds more to see what the second fire time made of monitors whose first check was not done yet.
  const fire = new Date(first).toISOString();
  const second = new Date(first + 60_000).toISOString();
  const waitUntil = async (ms: number): Promise<void> => {
    const clockNow = Date.now() + offset;
    if (ms > clockNow) await new Promise((r) => setTimeout(r, ms - clockNow));
  };
  await waitUntil(first + 60_000);
  const rows = await store.sql.query(
    'SELECT status, created_at, started_at, finished_at, summary FROM monitor_checks WHERE scheduled_for = $1',
    [fire],
  );
  await waitUntil(first + 65_000);
  const next = await store.sql.query('SELECT status FROM monitor_checks WHERE scheduled_for = $1', [second]);
  const period = first + 60_000;
  const done = rows.filter((r) => r['finished_at'] != null && new Date(String(r['finished_at'])).getTime() <= period);
  const lags = rows
    .map((r) => (r['started_at'] == null ? Infinity : (new Date(String(r['started_at'])).getTime() - first) / 1000))
    .concat(new Array<number>(Math.max(0, MONITORS - rows.length)).fill(Infinity))
    .sort((a, b) => a - b);
  const pages = done.reduce((n, r) => {
    const s = typeof r['summary'] === 'string' ? JSON.parse(String(r['summary'])) : r['summary'];
    return n + Number((s as { totalPages: number }).totalPages);
  }, 0);
  const byStatus = new Map<string, number>();
  for (const r of next) byStatus.set(String(r['status']), (byStatus.get(String(r['status'])) ?? 0) + 1);
  const recorded = rows.map((r) => (new Date(String(r['created_at'])).getTime() - first) / 1000).sort((a, b) => a - b);
  const result: FireResult = {
    recorded: rows.length,
    recordedBy: recorded.length > 0 ? recorded[recorded.length - 1]! : NaN,
    checks: done.length,
    pages,
    started: lags.filter((l) => l !== Infinity).length,
    lagP50: pct(lags, 50),
    lagP99: pct(lags, 99),
    secondFire: [...byStatus].map(([st, n]) => `${n} ${st}`).join(', '),
  };
  process.stderr.write(`${label}: ${JSON.stringify(result)}\n`);
  await store.close();
  for (const i of list) await stopInstance(i);
  return { label, result, rss: list.map((i) => i.peakRssMb) };
}

async function anchor(): Promise<number> {
  const { createParser } = (await import(path.join(ROOT, 'dist/src/parser.js'))) as typeof import('../src/parser.js');
  const parser = createParser({ textThreads: 1, ocrThreads: 1 });
  const bytes = Buffer.from(page(3, 4));
  for (let i = 0; i < 50; i++) await parser.parseFile(bytes, {}, { filename: 'p.html' });
  const n = 1000;
  const t = performance.now();
  for (let i = 0; i < n; i++) await parser.parseFile(bytes, {}, { filename: 'p.html' });
  const rate = n / ((performance.now() - t) / 1000);
  await parser.close();
  return rate;
}

async function main(): Promise<void> {
  if (!existsSync(INSTANCE)) throw new Error('run `npm run build` first');
  const parseRate = await anchor();
  const pagesServer = await startPageServer();
  const results = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docmill-bench-mon-'));
  try {
    if (!args.includes('--only-pg')) {
      results.push(await runConfig('one instance, embedded database', 1, pagesServer.port, { dataDir: dir }));
    }
    if (PG_URL) {
      const { Store } = (await import(
        path.join(ROOT, 'dist/src/server/store/store.js')
      )) as typeof import('../src/server/store/store.js');
      const admin = await Store.open({ databaseUrl: PG_URL });
      const schema = `bench_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
      await admin.sql.query(`CREATE SCHEMA ${schema}`);
      const scoped = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      try {
        results.push(
          await runConfig('two instances, PostgreSQL + pg-boss', 2, pagesServer.port, {
            databaseUrl: scoped,
            queueSchema: `${schema}_q`,
          }),
        );
      } finally {
        await admin.sql.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.sql.query(`DROP SCHEMA IF EXISTS ${schema}_q CASCADE`);
        await admin.close();
      }
    } else {
      process.stderr.write('DOCMILL_BENCH_PG_URL / DOCMILL_TEST_PG_URL not set: the two-instance run is skipped\n');
    }
  } finally {
    pagesServer.server.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const lag = (v: number): string => (v === Infinity ? '> 60' : v.toFixed(2));
  const rows = results.map(({ label, result: f, rss }) =>
    [
      label,
      `${f.recorded} in ${f.recordedBy.toFixed(1)} s`,
      `${f.started} / ${f.checks}`,
      f.pages,
      (f.checks / 60).toFixed(1),
      (f.pages / 60).toFixed(0),
      (f.pages / 60 / parseRate).toFixed(2),
      `${lag(f.lagP50)} / ${lag(f.lagP99)}`,
      f.secondFire,
      rss.map((m) => m.toFixed(0)).join(' + '),
    ].join(' | '),
  );
  const section = [
    '## Monitors',
    '',
    `\`npm run build && node bench/monitors.ts --write\` — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? '?'}); PostgreSQL ${PG_URL ? 'from test-support/postgres.sh on the same machine' : 'not available'}.`,
    '',
    `${MONITORS} monitors × ${URLS} URLs (small HTML product pages from a page server in the benchmark process), schedule \`* * * * *\`, default settings (4 checks per instance at once, 4 pages per check at once), every page new (first check of each monitor). Measured over one schedule period, from the first fire time to the next one a minute later: checks the schedulers recorded (and how long after the fire time the last one was), checks started / finished within it, pages of the finished checks, checks/s and pages/s over the 60 s, scheduler lag (fire time to check start; "> 60" where the check had not started within the minute), what the next fire time recorded five seconds after it (a monitor whose check is still queued or running gets \`skipped_overlap\`), and each instance's peak resident memory. Anchor: docmill's parseFile on the same page in one process, ${parseRate.toFixed(0)} pages/s; "× parse" is the monitors' pages/s over it.`,
    '',
    '| instances | checks recorded by the schedulers | checks started / finished | pages | checks/s | pages/s | × parse | lag p50 / p99 s | next fire time | peak RSS MB |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
    '',
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (WRITE) (await benchReadme()).writeReadmeSection('monitors', section);
}

await main();

/** The section writer, from the build (bench scripts run as TypeScript, the shared code from dist/). */
async function benchReadme(): Promise<typeof BenchReadme> {
  return import(new URL('../dist/test-support/bench-readme.js', import.meta.url).href) as Promise<typeof BenchReadme>;
}
