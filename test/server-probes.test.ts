/**
 * GET /health and GET /ready: answered without a key, revealing nothing; /ready follows the database.
 */
import { describe, expect, it } from 'vitest';
import { Store } from '../src/server/store/store.js';
import { KEY_A, makeServer } from './server-helpers.js';

describe('probes', () => {
  it('/health answers 200 without a key and says nothing but that', async () => {
    const { app } = await makeServer();
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    await app.close();
  });

  it('/ready answers 200 while the database answers, 503 once it does not', async () => {
    const store = await Store.open({ databaseUrl: undefined, dataDir: ':memory:' });
    const { app } = await makeServer({}, { store });
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });

    await store.close();
    const down = await app.inject({ method: 'GET', url: '/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable' });
    expect(down.body).not.toMatch(/sqlite|postgres|closed|database|key/i);
    // Liveness does not depend on the database.
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    await app.close();
  });

  it('a key is still required everywhere else, and the probes never echo one', async () => {
    const { app } = await makeServer();
    expect((await app.inject({ method: 'GET', url: '/v2/monitor' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(401);
    const res = await app.inject({ method: 'GET', url: '/ready', headers: { authorization: `Bearer ${KEY_A}` } });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(KEY_A);
    expect(res.body).not.toMatch(/alpha|bravo/);
    await app.close();
  });
});
