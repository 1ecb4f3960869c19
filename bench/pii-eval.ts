/**
 * Precision, recall and F1 of PII detection per bucket and mode on the labelled PII corpus
 * (../shared/corpus/pii/synth_dataset_v2.dev.json, presidio-research synthetic set v2).
 *
 *   npm run build && node bench/pii-eval.ts [--split all|even|odd] [--mode fast|accurate|aggressive] [--errors BUCKET] [--write]
 *
 * --write puts one compact table per mode (every split) into the PII section of bench/README.md.
 *
 * Span matching is overlap-based: a predicted span counts as a true positive when it overlaps a gold
 * span of the same bucket (else it is a false positive, including when it overlaps a gold span of a
 * label that is not scored, such as ORGANIZATION); a gold span counts as found when a predicted span of
 * its bucket overlaps it. Precision is over predictions, recall over gold spans. One predicted address
 * covering a street, a city and a postal code is one correct prediction and finds three gold spans.
 * "even" and "odd" are the halves of the file by index: detection rules were tuned on the even half.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as BenchReadme from '../test-support/bench-readme.js';

type Bucket = 'PERSON' | 'EMAIL' | 'PHONE' | 'LOCATION' | 'FINANCIAL';
const BUCKETS: Bucket[] = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL'];
const LABELS: Record<string, Bucket> = {
  PERSON: 'PERSON',
  EMAIL_ADDRESS: 'EMAIL',
  PHONE_NUMBER: 'PHONE',
  STREET_ADDRESS: 'LOCATION',
  GPE: 'LOCATION',
  ZIP_CODE: 'LOCATION',
  CREDIT_CARD: 'FINANCIAL',
  IBAN_CODE: 'FINANCIAL',
  US_SSN: 'FINANCIAL',
};

interface Sample {
  full_text: string;
  spans: Array<{ entity_type: string; entity_value: string; start_position: number; end_position: number }>;
}
interface Det {
  start: number;
  end: number;
  entity: string;
  kind: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const corpus = join(root, '..', 'shared', 'corpus', 'pii', 'synth_dataset_v2.dev.json');
const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const { detect } = (await import(join(root, 'dist', 'src', 'redact', 'detect.js'))) as {
  detect: (t: string, o: { mode: string; entities: string[] }) => Det[];
};
const data = JSON.parse(readFileSync(corpus, 'utf8')) as Sample[];

const modes = arg('--mode') ? [arg('--mode')!] : ['fast', 'accurate', 'aggressive'];
const splits = arg('--split') ? [arg('--split')!] : ['even', 'odd', 'all'];
const errorsFor = arg('--errors');
// Scored entities only: SECRET has no labels in this corpus.
const entities = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL'];

interface Counts {
  tp: number;
  fp: number;
  found: number;
  gold: number;
}
const f = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '  -  ');

const results: string[] = [];
/** mode → bucket → split → "P / R / F1" for the compact README tables. */
const compact = new Map<string, Map<string, Map<string, string>>>();
const timing = new Map<string, number>();
for (const mode of modes) {
  // Detect once per sample per mode, then score the requested splits.
  const t0 = performance.now();
  const preds = data.map((s) => detect(s.full_text, { mode, entities }));
  const ms = performance.now() - t0;
  timing.set(mode, ms / data.length);
  for (const split of splits) {
    const counts = new Map<string, Counts>();
    for (const b of [...BUCKETS, 'ALL']) counts.set(b, { tp: 0, fp: 0, found: 0, gold: 0 });
    const errors: string[] = [];
    data.forEach((sample, idx) => {
      if (split === 'even' && idx % 2 !== 0) return;
      if (split === 'odd' && idx % 2 !== 1) return;
      const gold = sample.spans.map((g) => ({
        s: g.start_position,
        e: g.end_position,
        b: LABELS[g.entity_type],
        label: g.entity_type,
        v: g.entity_value,
      }));
      const pred = preds[idx]!;
      for (const p of pred) {
        const c = counts.get(p.entity)!;
        const all = counts.get('ALL')!;
        const same = gold.some((g) => g.b === p.entity && g.s < p.end && p.start < g.e);
        const anyScored = gold.some((g) => g.b !== undefined && g.s < p.end && p.start < g.e);
        if (same) c.tp++;
        else c.fp++;
        if (anyScored) all.tp++;
        else all.fp++;
        if (!same && errorsFor === p.entity)
          errors.push(
            `FP ${p.kind} ${JSON.stringify(sample.full_text.slice(p.start, p.end))} in ${JSON.stringify(sample.full_text.slice(Math.max(0, p.start - 40), p.end + 30))} gold=${gold.map((g) => g.label + ':' + g.v).join('|')}`,
          );
      }
      for (const g of gold) {
        if (!g.b) continue;
        const c = counts.get(g.b)!;
        const all = counts.get('ALL')!;
        c.gold++;
        all.gold++;
        if (pred.some((p) => p.entity === g.b && p.start < g.e && g.s < p.end)) c.found++;
        else if (errorsFor === g.b)
          errors.push(
            `FN ${g.label} ${JSON.stringify(g.v)} in ${JSON.stringify(sample.full_text.slice(Math.max(0, g.s - 40), g.e + 30))} pred=${pred.map((p) => p.entity + ':' + sample.full_text.slice(p.start, p.end)).join('|')}`,
          );
        if (pred.some((p) => p.start < g.e && g.s < p.end)) all.found++;
      }
    });
    results.push(
      `\n### mode ${mode}, split ${split} (${split === 'all' ? data.length : Math.ceil(data.length / 2)} texts; detection ${(ms / data.length).toFixed(2)} ms/text)\n`,
    );
    results.push('| bucket | gold | predicted | precision | recall | F1 |');
    results.push('|---|---:|---:|---:|---:|---:|');
    const micro = { tp: 0, fp: 0, found: 0, gold: 0 };
    for (const b of BUCKETS) {
      const c = counts.get(b)!;
      micro.tp += c.tp;
      micro.fp += c.fp;
      micro.found += c.found;
      micro.gold += c.gold;
    }
    counts.set('MICRO', micro);
    for (const b of [...BUCKETS, 'MICRO', 'ALL']) {
      const c = counts.get(b)!;
      const p = c.tp / (c.tp + c.fp);
      const r = c.found / c.gold;
      const f1 = (2 * p * r) / (p + r);
      const name = b === 'ALL' ? 'any PII (bucket ignored)' : b === 'MICRO' ? '**micro (bucket must match)**' : b;
      results.push(`| ${name} | ${c.gold} | ${c.tp + c.fp} | ${f(p)} | ${f(r)} | ${f(f1)} |`);
      const byMode = compact.get(mode) ?? new Map<string, Map<string, string>>();
      const byBucket = byMode.get(name) ?? new Map<string, string>();
      byBucket.set(split, `${f(p)} / ${f(r)} / ${f(f1)}`);
      byMode.set(name, byBucket);
      compact.set(mode, byMode);
    }
    if (errorsFor) console.log(errors.join('\n'));
  }
}
console.log(results.join('\n'));

if (args.includes('--write')) {
  const lines: string[] = [];
  for (const [mode, byMode] of compact) {
    lines.push('', `**${mode}** (${timing.get(mode)!.toFixed(2)} ms per text) — precision / recall / F1`, '');
    lines.push(`| bucket | ${splits.map((x) => `${x} half`.replace('all half', 'all 750')).join(' | ')} |`);
    lines.push(`|---|${splits.map(() => '---').join('|')}|`);
    for (const [bucket, bySplit] of byMode)
      lines.push(`| ${bucket} | ${splits.map((x) => bySplit.get(x) ?? '').join(' | ')} |`);
  }
  (await benchReadme()).writeReadmeSection(
    'pii-eval',
    `\`npm run build && node bench/pii-eval.ts --write\` — ${new Date().toISOString().slice(0, 10)}, ${data.length} labelled texts.\n${lines.join('\n')}`,
  );
}

/** The section writer, from the build (bench scripts run as TypeScript, the shared code from dist/). */
async function benchReadme(): Promise<typeof BenchReadme> {
  return import(new URL('../dist/test-support/bench-readme.js', import.meta.url).href) as Promise<typeof BenchReadme>;
}
