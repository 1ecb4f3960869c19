/**
 * Broken and hostile inputs: every variant must settle with a document or a ParseError with a code
 * that says what is wrong with the input (never UNKNOWN_ERROR), within a bound, without crashing or
 * blocking the process. Variants come from test-support/hostile (hand-written attacks plus seeded
 * mutations of corpus documents); `node dist/test-support/hostile/sweep.js` runs the larger sweep.
 *
 * Library parses run in a watched child process (test-support/hostile/isolated.ts) so that a parse
 * that blocks its event loop or kills its process is recorded against its variant instead of stalling
 * this file; a sample also goes through the built CLI with a hard kill, as a batch converter runs it.
 * Needs `npm run build` (dist/) first, like test/cli.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusAvailable, CORPUS_SKIP_MESSAGE } from '../test-support/corpus.js';
import { runIsolated } from '../test-support/hostile/isolated.js';
import { runCli, type Outcome } from '../test-support/hostile/run.js';
import { rng } from '../test-support/hostile/util.js';
import { mutated, synthetic, type Variant } from '../test-support/hostile/variants.js';

const SEED = Number(process.env['DOCMILL_HOSTILE_SEED'] ?? 20261122);
/** Random mutations per corpus source before sampling (structural mutations come on top). */
const MUTATIONS = 4;
/** Corpus mutations sampled into this run. */
const SAMPLE = 100;
/** The parse timeout given to every library parse: heavy attacks should end with TIMEOUT at the latest. */
const TIMEOUT_MS = 10000;
/**
 * A parse must settle within this bound (the child is killed at bound + 15 s). It is a hang detector,
 * not a speed check: generous over the timeout, because other work may share the machine.
 */
const BOUND_MS = TIMEOUT_MS + 30000;

/**
 * Variants that fail today, each with the defect and where it lies. They run as `it.fails`, so the
 * suite stays green while they fail and turns red when one is fixed: then remove its entry.
 */
const KNOWN_DEFECTS: Record<string, string> = {};

/** Mutations that found defects in sweeps: always part of the run, whatever the sample draws. */
const ALWAYS = [
  'ole2/mutated/unstructured_tests_example_xls/minifat-loop',
  'ole2/mutated/unstructured_fake_doc/dir-sibling-cycle',
  'ole2/mutated/unstructured_tests_example_xls/dir-sibling-cycle',
  'ole2/mutated/unstructured_fake_power_point_ppt/dir-sibling-cycle',
];

function sample<T>(items: T[], n: number, seed: number): T[] {
  const r = rng(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

const syntheticVariants = synthetic();
const allMutated = mutated(SEED, MUTATIONS);
const mutatedVariants = [
  ...allMutated.filter((v) => ALWAYS.includes(v.id)),
  ...sample(
    allMutated.filter((v) => !ALWAYS.includes(v.id)),
    SAMPLE,
    SEED,
  ),
];

/** What the outcome must be: a document, or a coded error about the input. */
function check(o: Outcome | undefined): void {
  expect(o, 'no outcome recorded').toBeDefined();
  const report = `${o!.id}: ${o!.status}${o!.code ? ` ${o!.code}` : ''} after ${o!.ms} ms${o!.defect ? ` — ${o!.defect}: ${o!.message ?? ''}\n${o!.stack ?? ''}` : ''}`;
  expect(o!.defect, report).toBeUndefined();
  expect(['document', 'error'], report).toContain(o!.status);
  if (o!.status === 'error')
    expect(['MALFORMED', 'ENCRYPTED', 'RESOURCE_LIMIT', 'UNSUPPORTED_FILE_TYPE', 'TIMEOUT'], report).toContain(o!.code);
  expect(o!.ms, report).toBeLessThan(BOUND_MS);
}

function suite(name: string, variants: Variant[], mutations: number): void {
  describe(name, () => {
    const outcomes = new Map<string, Outcome>();
    beforeAll(
      async () => {
        // Two watched children share the list: heavy variants wait on their timeouts, not on the CPU.
        const halves = [variants.filter((_, i) => i % 2 === 0), variants.filter((_, i) => i % 2 === 1)];
        const lists = await Promise.all(
          halves.map((h) =>
            runIsolated(h, { seed: SEED, mutations, options: { timeout: TIMEOUT_MS }, boundMs: BOUND_MS }),
          ),
        );
        for (const o of lists.flat()) outcomes.set(o.id, o);
      },
      60 * 60 * 1000,
    );
    const ok = variants.filter((v) => !KNOWN_DEFECTS[v.id]);
    const known = variants.filter((v) => KNOWN_DEFECTS[v.id]);
    it.each(ok.map((v) => [v.id, v.recipe] as const))('%s (%s)', (id) => check(outcomes.get(id)));
    if (known.length)
      it.fails.each(known.map((v) => [v.id, KNOWN_DEFECTS[v.id]!] as const))('known defect: %s (%s)', (id) =>
        check(outcomes.get(id)),
      );
  });
}

suite('hostile inputs, hand-written attacks (library)', syntheticVariants, MUTATIONS);

describe.skipIf(!corpusAvailable)('hostile inputs, mutated corpus documents (library)', () => {
  if (!corpusAvailable) console.warn(CORPUS_SKIP_MESSAGE);
  suite(`seed ${SEED}, ${mutatedVariants.length} of ${allMutated.length} mutations`, mutatedVariants, MUTATIONS);
});

/**
 * Through the CLI exactly as a batch converter calls it (default options, default CLI timeout): exit
 * 0 with markdown or 1 with `docmill: CODE: message`, within 30 s, without lingering after its output.
 */
const CLI_IDS = [
  'pdf/synthetic/baseline',
  'pdf/synthetic/header-then-html',
  'pdf/synthetic/kids-cycle',
  'pdf/synthetic/count-billions',
  'pdf/synthetic/bomb-zeros-1GB',
  'pdf/synthetic/image-huge-dimensions',
  'pdf/synthetic/encrypt-unknown-handler',
  'pdf/synthetic/deep-dict',
  'zip/synthetic/docx-bomb-lying-size',
  'zip/synthetic/docx-billion-laughs',
  'zip/synthetic/epub-xxe',
  'ole2/synthetic/signature-random',
  'html/synthetic/nul-bytes',
  'csv/synthetic/unbalanced-quote',
  'rtf/synthetic/deep-groups',
  'other/synthetic/empty',
];

describe('hostile inputs through the CLI', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docmill-hostile-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const byId = new Map(syntheticVariants.map((v) => [v.id, v]));
  it.each(CLI_IDS)(
    '%s',
    async (id) => {
      const v = byId.get(id);
      expect(v, `unknown variant ${id}`).toBeDefined();
      const o = await runCli(v!, { dir, hardMs: 30000, lingerMs: 3000 });
      const report = `${o.id}: ${o.status}${o.code ? ` ${o.code}` : ''} after ${o.ms} ms, peak ${o.peakMiB ?? '?'} MiB${o.defect ? ` — ${o.defect}: ${o.message ?? ''}\n${o.stack ?? ''}` : ''}`;
      expect(o.defect, report).toBeUndefined();
      expect(['document', 'error'], report).toContain(o.status);
      expect(o.ms, report).toBeLessThan(30000);
    },
    40000,
  );
});
