/**
 * One service instance in a process of its own, for the multi-instance monitor test (which kills it with
 * SIGKILL mid-check). Configuration from the environment, as `docmill serve`; pg-boss looks for dead
 * instances' jobs every second so the test does not wait long. Prints "ready <port> <instance id>".
 */
import type { AddressInfo } from 'node:net';
import { buildServer } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';

const app = await buildServer({
  config: loadConfig(process.env),
  monitors: { superviseIntervalSeconds: 1, pollingIntervalSeconds: 0.5 },
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`ready ${(app.server.address() as AddressInfo).port} ${app.monitors.instanceId}\n`);
