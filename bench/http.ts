/**
 * HTTP benchmark of `docmill serve` on loopback: requests/s and latency (p50, p99) of POST /v2/parse for
 * a small HTML page and a one-page PDF at rising client concurrency, then the behaviour at twice the
 * service's capacity (concurrency + queue of one key): how many 429s, that no 5xx appear, and the
 * server's peak memory. Anchor in the same run: the library's own parseFile on the same file in one
 * process without HTTP (calls/s), so the ratio shows what the HTTP layer costs.
 *
 *   npm run build && node bench/http.ts [--seconds N] [--write]
 *
 * The server runs as a child process (`node --max-opt=2 dist/src/cli/main.js serve`, the flags the command runs PDF work under) with 2 parses per key and a queue
 * of 2, so capacity is 4 requests in flight; its resident memory is sampled from /proc every 50 ms. The
 * clients are fetch (undici) loops in this process, one request at a time each. `--write` replaces the
 * "HTTP" section of bench/README.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as BenchReadme from '../test-support/bench-readme.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const SECONDS =
  Number(args[args.indexOf('--seconds') + 1]) > 0 && args.includes('--seconds')
    ? Number(args[args.indexOf('--seconds') + 1])
    : 5;
const WRITE = args.includes('--write');
const KEY = 'bench-key-0123456789abcdef0123';
const PER_KEY = 2;
const QUEUE = 2;
const CAPACITY = PER_KEY + QUEUE;

// ---------------------------------------------------------------- inputs

const HTML = `<!doctype html><html><head><title>Release notes</title><meta name="description" content="What changed"></head><body>
<nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
<main><h1>Release notes</h1><p>This release makes parsing faster and adds <b>layout blocks</b> for every page.</p>
<h2>Changes</h2><ul><li>Tables keep merged cells.</li><li>Headings follow the font sizes of the page.</li><li>Links are made absolute.</li></ul>
<table><tr><th>Format</th><th>Status</th></tr><tr><td>PDF</td><td>stable</td></tr><tr><td>DOCX</td><td>stable</td></tr></table>
<p>${'Each paragraph of body text adds a little weight to the page. '.repeat(12)}</p></main>
<footer>© docmill</footer></body></html>`;

/** A valid one-page PDF with a title and a few lines of text (Helvetica), built by hand with its xref table. */
function onePagePdf(): Buffer {
  const lines = [
    'Quarterly report',
    '',
    ...Array.from({ length: 24 }, (_, i) => `Line ${i + 1}: revenue, costs and margins moved as planned this quarter.`),
  ];
  const ops = ['BT', '/F1 18 Tf', '72 740 Td', `(${lines[0]}) Tj`, '/F1 11 Tf', '0 -28 Td'];
  for (const l of lines.slice(2)) ops.push(`(${l}) Tj`, '0 -16 Td');
  ops.push('ET');
  const stream = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

interface Input {
  label: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}
const INPUTS: Input[] = [
  {
    label: `HTML page (${(Buffer.byteLength(HTML) / 1024).toFixed(1)} KB)`,
    filename: 'notes.html',
    contentType: 'text/html',
    bytes: Buffer.from(HTML),
  },
  { label: 'one-page PDF', filename: 'report.pdf', contentType: 'application/pdf', bytes: onePagePdf() },
];

// ---------------------------------------------------------------- server process

function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The server's store, removed after the run. */
const DATA_DIR = path.join(os.tmpdir(), `docmill-bench-http-${process.pid}`);

async function startServer(): Promise<{ proc: ChildProcess; base: string }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  // Started as `docmill serve` runs: with the node flags of src/cli/node-flags.ts.
  const { cliNodeFlags } = (await import(
    new URL('../dist/test-support/cli-flags.js', import.meta.url).href
  )) as typeof import('../test-support/cli-flags.js');
  const proc = spawn(process.execPath, [...cliNodeFlags(), path.join(ROOT, 'dist/src/cli/main.js'), 'serve'], {
    env: {
      ...process.env,
      DOCMILL_API_KEYS: `bench:${KEY}`,
      DOCMILL_HOST: '127.0.0.1',
      DOCMILL_PORT: String(port),
      DOCMILL_DATA_DIR: DATA_DIR,
      DOCMILL_CONCURRENCY_PER_KEY: String(PER_KEY),
      DOCMILL_QUEUE_LENGTH: String(QUEUE),
      DOCMILL_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(`${base}/v2/monitor`, { headers: { authorization: `Bearer ${KEY}` } });
      if (res.ok) return { proc, base };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill();
  throw new Error('the server did not start');
}

// ---------------------------------------------------------------- load

interface Result {
  clients: number;
  seconds: number;
  ok: number;
  limited: number;
  clientErrors: number;
  serverErrors: number;
  failures: number;
  latencies: number[];
  flagged: number;
  peakRss: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function load(base: string, input: Input, clients: number, seconds: number, pid: number): Promise<Result> {
  const r: Result = {
    clients,
    seconds,
    ok: 0,
    limited: 0,
    clientErrors: 0,
    serverErrors: 0,
    failures: 0,
    latencies: [],
    flagged: 0,
    peakRss: 0,
  };
  const sampler = setInterval(() => {
    r.peakRss = Math.max(r.peakRss, rssOf(pid));
  }, 50);
  const end = performance.now() + seconds * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      const form = new FormData();
      form.append('options', JSON.stringify({ formats: ['markdown'] }));
      form.append('file', new Blob([input.bytes], { type: input.contentType }), input.filename);
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}/v2/parse`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}` },
          body: form,
        });
        const body = (await res.json()) as { data?: { metadata?: { concurrencyLimited?: boolean } } };
        const ms = performance.now() - t0;
        if (res.status === 200) {
          r.ok++;
          r.latencies.push(ms);
          if (body.data?.metadata?.concurrencyLimited) r.flagged++;
        } else if (res.status === 429) {
          r.limited++;
          // A client that is told to retry later waits a little; 25 ms keeps the pressure high without spinning.
          await new Promise((res2) => setTimeout(res2, 25));
        } else if (res.status >= 500) r.serverErrors++;
        else r.clientErrors++;
      } catch {
        r.failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  clearInterval(sampler);
  r.latencies.sort((a, b) => a - b);
  return r;
}

async function libraryAnchor(input: Input, seconds: number): Promise<number> {
  const { createParser } = (await import(path.join(ROOT, 'dist/src/parser.js'))) as typeof import('../src/parser.js');
  const parser = createParser();
  try {
    await parser.parseFile(input.bytes, { formats: ['markdown'] }, { filename: input.filename });
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < seconds * 1000) {
      await parser.parseFile(input.bytes, { formats: ['markdown'] }, { filename: input.filename });
      n++;
    }
    return n / ((performance.now() - t0) / 1000);
  } finally {
    await parser.close();
  }
}

// ---------------------------------------------------------------- run

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, 'dist/src/cli/main.js'))) throw new Error('run `npm run build` first');
  const { proc, base } = await startServer();
  const pid = proc.pid!;
  const rows: string[] = [];
  const overload: string[] = [];
  let verdict = true;
  try {
    for (const input of INPUTS) {
      // Warm-up: load the reader and start its workers.
      await load(base, input, 1, 1, pid);
      const idleRss = rssOf(pid);
      const anchor = await libraryAnchor(input, Math.min(3, SECONDS));
      for (const clients of [1, 2, CAPACITY]) {
        const r = await load(base, input, clients, SECONDS, pid);
        const rps = r.ok / r.seconds;
        rows.push(
          `| ${input.label} | ${clients} | ${rps.toFixed(1)} | ${percentile(r.latencies, 50).toFixed(1)} | ${percentile(r.latencies, 99).toFixed(1)} | ${r.limited} | ${r.serverErrors + r.failures} | ${r.flagged} | ${(r.peakRss / 2 ** 20).toFixed(0)} | ${clients === 1 ? `${anchor.toFixed(1)} (HTTP/library ${(rps / anchor).toFixed(2)})` : ''} |`,
        );
        process.stderr.write(`${rows[rows.length - 1]}\n`);
        if (r.serverErrors + r.failures > 0) verdict = false;
      }
      const clients = 2 * CAPACITY;
      const r = await load(base, input, clients, SECONDS * 2, pid);
      const total = r.ok + r.limited + r.clientErrors + r.serverErrors + r.failures;
      overload.push(
        `| ${input.label} | ${clients} | ${total} | ${r.ok} (${(r.ok / r.seconds).toFixed(1)}/s) | ${r.limited} (${((100 * r.limited) / Math.max(1, total)).toFixed(0)}%) | ${r.serverErrors} | ${r.failures} | ${percentile(r.latencies, 50).toFixed(1)} / ${percentile(r.latencies, 99).toFixed(1)} | ${(idleRss / 2 ** 20).toFixed(0)} → ${(r.peakRss / 2 ** 20).toFixed(0)} |`,
      );
      process.stderr.write(`${overload[overload.length - 1]}\n`);
      if (r.serverErrors + r.failures > 0) verdict = false;
    }
  } finally {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    }
    rmSync(DATA_DIR, { recursive: true, force: true });
  }

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const section = [
    '## HTTP',
    '',
    `\`npm run build && node bench/http.ts --seconds ${SECONDS} --write\` — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.availableParallelism()} cores (${cpu}).`,
    `Server: \`docmill serve\` in its own process on 127.0.0.1, ${PER_KEY} parses per key and a queue of ${QUEUE} (capacity ${CAPACITY} in flight), embedded database, log level warn. Clients: fetch loops in the bench process (sharing the same ${os.availableParallelism()} cores), one key, each client sends its next request when the previous one is answered (25 ms after a 429).`,
    '',
    `Rising concurrency, ${SECONDS} s per row (latency of 200 responses; "flagged" = answers with metadata.concurrencyLimited; anchor = the library's parseFile in one process without HTTP, calls/s):`,
    '',
    '| input | clients | req/s | p50 ms | p99 ms | 429 | 5xx + failed | flagged | server peak RSS MB | library anchor calls/s |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Twice capacity (${2 * CAPACITY} clients, ${SECONDS * 2} s):`,
    '',
    '| input | clients | requests | 200 | 429 | 5xx | connection failures | p50 / p99 ms of 200s | server RSS MB idle → peak |',
    '|---|---|---|---|---|---|---|---|---|',
    ...overload,
    '',
    verdict
      ? 'No request failed with a 5xx or a broken connection. Where the clients outrun the server, the surplus is refused with 429 before the upload is read (admission comes before buffering, so at most capacity × file size is held per key) and memory stays bounded; where the server answers faster than the clients can ask (small HTML), fewer than capacity requests are ever in flight and nothing is refused.'
      : '**Check failed**: a 5xx or a broken connection appeared — see the tables.',
    '',
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (WRITE) (await benchReadme()).writeReadmeSection('http', section);
  if (!verdict) process.exitCode = 1;
}

await main();

/** The section writer, from the build (bench scripts run as TypeScript, the shared code from dist/). */
async function benchReadme(): Promise<typeof BenchReadme> {
  return import(new URL('../dist/test-support/bench-readme.js', import.meta.url).href) as Promise<typeof BenchReadme>;
}
