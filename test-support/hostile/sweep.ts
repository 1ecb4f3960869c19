/**
 * The big hostile-input sweep, run by hand (after `npm run build`):
 *
 *   node dist/test-support/hostile/sweep.js [--seed 1] [--mutations 40] [--filter REGEX] [--cli] [--hard-ms 35000] [--timeout 20000]
 *        [--mode fast|auto|ocr] [--no-corpus] [--json out.json]
 *
 * Library mode parses the variants in a watched child process (a hang or a crash is recorded and the
 * run goes on; --in-process parses here instead); --cli runs the built CLI per variant with a hard
 * kill, as a batch converter does, and also checks exit status, the error line, lingering and peak memory.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createParser } from '../../src/parser.js';
import { runIsolated } from './isolated.js';
import { runCli, runLibrary, type Outcome } from './run.js';
import { catalogue } from './variants.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    mutations: { type: 'string', default: '40' },
    filter: { type: 'string' },
    cli: { type: 'boolean', default: false },
    'in-process': { type: 'boolean', default: false },
    'hard-ms': { type: 'string', default: '35000' },
    mode: { type: 'string' },
    'no-corpus': { type: 'boolean', default: false },
    json: { type: 'string' },
    timeout: { type: 'string', default: '20000' },
    memory: { type: 'string', default: '3072' },
  },
});

const filter = values.filter ? new RegExp(values.filter) : undefined;
const variants = catalogue({
  seed: Number(values.seed),
  mutations: Number(values.mutations),
  corpus: !values['no-corpus'],
}).filter((v) => !filter || filter.test(v.id));
const hardMs = Number(values['hard-ms']);
const dir = mkdtempSync(path.join(tmpdir(), 'docmill-hostile-'));
const unhandled: string[] = [];
process.on('unhandledRejection', (e) => {
  unhandled.push(String((e as Error)?.stack ?? e));
});
process.on('uncaughtException', (e) => {
  unhandled.push(String(e.stack ?? e));
});

const options = {
  timeout: Number(values.timeout),
  ...(values.mode ? { parsers: [{ type: 'pdf', mode: values.mode }] } : {}),
};
const parser = createParser();
const outcomes: Outcome[] = [];
console.log(`${variants.length} variants, ${values.cli ? 'CLI' : 'library'} mode, seed ${values.seed}`);
const print = (o: Outcome): void => {
  console.log(
    `${o.id} … ${o.status}${o.code ? ` ${o.code}` : ''} ${o.ms} ms${o.peakMiB ? ` ${o.peakMiB} MiB` : ''}${o.defect ? `  DEFECT ${o.defect}: ${o.message ?? ''}` : ''}`,
  );
  if (o.defect && o.stack)
    console.log(
      o.stack
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n'),
    );
};
if (!values.cli && !values['in-process']) {
  outcomes.push(
    ...(await runIsolated(variants, {
      seed: Number(values.seed),
      mutations: Number(values.mutations),
      options,
      boundMs: options.timeout + 10000,
      onOutcome: print,
    })),
  );
} else {
  for (const v of variants) {
    const o = values.cli
      ? await runCli(v, {
          dir,
          hardMs,
          memoryMiB: Number(values.memory),
          args: values.mode ? ['--mode', values.mode] : [],
        })
      : await runLibrary(parser, v, { options: options as never, boundMs: options.timeout + 10000 });
    outcomes.push(o);
    print(o);
  }
}
await parser.close();
rmSync(dir, { recursive: true, force: true });

const defects = outcomes.filter((o) => o.defect);
const byStatus = new Map<string, number>();
for (const o of outcomes)
  byStatus.set(
    `${o.status}${o.code ? ` ${o.code}` : ''}`,
    (byStatus.get(`${o.status}${o.code ? ` ${o.code}` : ''}`) ?? 0) + 1,
  );
console.log('\nOutcomes:');
for (const [k, n] of [...byStatus].sort((a, b) => b[1] - a[1])) console.log(`  ${k}: ${n}`);
const slow = [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 10);
console.log('Slowest:');
for (const o of slow) console.log(`  ${o.ms} ms ${o.id} (${o.status}${o.code ? ` ${o.code}` : ''})`);
console.log(`Defects: ${defects.length}`);
for (const d of defects) console.log(`  ${d.defect} ${d.id}: ${d.message ?? ''}`);
if (unhandled.length)
  console.log(
    `Unhandled rejections/exceptions in this process: ${unhandled.length}\n${unhandled.slice(0, 5).join('\n---\n')}`,
  );
if (values.json) writeFileSync(values.json, JSON.stringify(outcomes, null, 2));
process.exitCode = defects.length || unhandled.length ? 1 : 0;
