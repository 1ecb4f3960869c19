/**
 * One service instance in a process of its own, for the multi-instance monitor test (which kills it with
 * SIGKILL mid-check) and the monitor benchmark. Configuration from the environment, as `docmill serve`;
 * pg-boss looks for dead instances' jobs every second so the test does not wait long. The benchmark moves
 * the monitor clock by DOCMILL_TEST_CLOCK_OFFSET_MS (so a minute boundary comes soon after the start).
 * Prints "ready <port> <instance id>".
 */
import type { AddressInfo } from 'node:net';
import { buildServer } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';

const offset = Number(process.env['DOCMILL_TEST_CLOCK_OFFSET_MS'] ?? 0);
const app = await buildServer({
  config: loadConfig(process.env),
  monitors: {
    superviseIntervalSeconds: 1,
    pollingIntervalSeconds: 0.5,
    ...(offset ? { clock: { now: () => new Date(Date.now() + offset) } } : {}),
  },
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`ready ${(app.server.address() as AddressInfo).port} ${app.monitors.instanceId}\n`);
const stop = (): void => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
