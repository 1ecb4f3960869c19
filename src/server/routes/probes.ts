/**
 * Probes for load balancers and orchestrators, answered without an API key and saying nothing about keys,
 * data or configuration:
 *   GET /health → 200 while the process serves requests (liveness);
 *   GET /ready  → 200 when the database answers a trivial query within READY_TIMEOUT_MS, else 503 (readiness).
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/store.js';

export const PROBE_PATHS: ReadonlySet<string> = new Set(['/health', '/ready']);

/** A database that takes longer than this to answer `SELECT 1` is not ready for traffic. */
export const READY_TIMEOUT_MS = 2000;

async function databaseAnswers(store: Store): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([store.sql.query('SELECT 1').then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function probeRoutes(app: FastifyInstance, store: Store): Promise<void> {
  const hide = { schema: { hide: true } };
  app.get('/health', hide, async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
  app.get('/ready', hide, async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    if (await databaseAnswers(store)) return reply.code(200).send({ status: 'ready' });
    return reply.code(503).send({ status: 'unavailable' });
  });
}
