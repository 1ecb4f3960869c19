/**
 * Child process of `runIsolated`: parses the variants named on stdin (a JSON request) one after the
 * other and reports each as a JSON line on stdout. Runs apart from the caller so that a parse that
 * blocks the event loop or kills the process is observed from outside instead of stalling the run.
 */
import { createParser } from '../../src/parser.js';
import { runLibrary } from './run.js';
import { catalogue } from './variants.js';

export interface ChildRequest {
  seed: number;
  mutations: number;
  ids: string[];
  options: Record<string, unknown>;
  boundMs: number;
}

function emit(msg: unknown): void {
  process.stdout.write(`${JSON.stringify(msg)}\n`);
}

let current: string | undefined;
process.on('unhandledRejection', (e) =>
  emit({ unhandled: current, error: String((e as Error)?.stack ?? e).slice(0, 1500) }),
);
process.on('uncaughtException', (e) => emit({ unhandled: current, error: String(e.stack ?? e).slice(0, 1500) }));

const chunks: Buffer[] = [];
for await (const c of process.stdin) chunks.push(c as Buffer);
const req = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChildRequest;
const wanted = new Set(req.ids);
const byId = new Map(
  catalogue({ seed: req.seed, mutations: req.mutations })
    .filter((v) => wanted.has(v.id))
    .map((v) => [v.id, v]),
);
const parser = createParser();
for (const id of req.ids) {
  const v = byId.get(id);
  if (!v) {
    emit({ missing: id });
    continue;
  }
  current = id;
  emit({ start: id });
  const outcome = await runLibrary(parser, v, { options: req.options as never, boundMs: req.boundMs });
  emit({ outcome });
}
current = undefined;
await parser.close();
emit({ done: true });
process.exit(0);
