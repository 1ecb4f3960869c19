/**
 * The in-process throughput measurement the HTML/CSV and Office benchmarks share: each converter's
 * accepted inputs converted in alternating rounds, MB per CPU second.
 */
export interface Input {
  name: string;
  bytes: Buffer;
}

export interface Result {
  /** MB per CPU second over the accepted inputs; null when none was accepted. */
  mbps: number | null;
  ok: number;
  failed: string[];
}

export type Convert = (i: Input) => Promise<unknown>;

/** CPU milliseconds (user + system, all threads of this process) spent in `f`. */
export async function cpuMs(f: () => Promise<void>): Promise<number> {
  const c = process.cpuUsage();
  await f();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
}

/** Keeps the inputs a converter accepts (the warm-up pass); the others are reported as failures. */
export async function accepted(inputs: Input[], convert: Convert): Promise<{ good: Input[]; failed: string[] }> {
  const good: Input[] = [];
  const failed: string[] = [];
  for (const i of inputs) {
    try {
      await convert(i);
      good.push(i);
    } catch (err) {
      failed.push(`${i.name}: ${(err as { code?: string }).code ?? (err as Error).message.slice(0, 60)}`);
    }
  }
  return { good, failed };
}

/**
 * Converts the sets of several converters in alternating rounds for at least `seconds` each, so that
 * load from other processes on the machine falls on all of them alike. With `sameFiles`, every
 * converter is timed on the inputs all of them accept (when there are any).
 */
export async function measureAll(
  inputs: Input[],
  converters: Convert[],
  seconds: number,
  opts: { sameFiles?: boolean } = {},
): Promise<Result[]> {
  const sets: { good: Input[]; failed: string[] }[] = [];
  for (const c of converters) sets.push(await accepted(inputs, c));
  if (opts.sameFiles) {
    const common = inputs.filter((i) => sets.every((s) => s.good.includes(i)));
    if (common.length) for (const s of sets) s.good = common;
  }
  const bytes = sets.map(() => 0);
  const ms = sets.map(() => 0);
  const t0 = performance.now();
  do {
    for (let k = 0; k < converters.length; k++) {
      const set = sets[k]!;
      if (!set.good.length) continue;
      ms[k]! += await cpuMs(async () => {
        for (const i of set.good) await converters[k]!(i);
      });
      bytes[k]! += set.good.reduce((a, i) => a + i.bytes.length, 0);
    }
  } while (performance.now() - t0 < seconds * 1000 * converters.length);
  return sets.map((set, k) => ({
    mbps: set.good.length ? bytes[k]! / 1e6 / (ms[k]! / 1000) : null,
    ok: set.good.length,
    failed: set.failed,
  }));
}
