/**
 * Server-side request forgery: a check refuses loopback, private, link-local (cloud metadata) and
 * unique-local addresses, judged after DNS resolution and again on every redirect hop, and connects to
 * the address it judged. A fake DNS stands in for the internet: "public.example" resolves to the loopback
 * page server, which this test alone declares public (the `trustAddress` seam); every other private answer
 * is refused as in production.
 */
import type { AddressInfo } from 'node:net';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONITOR_DEFAULTS } from '../src/server/config.js';
import { forbiddenReason, type ResolvedAddress } from '../src/server/monitors/ssrf.js';
import { KEY_A, makeServer } from './server-helpers.js';
import { PageServer, waitFor } from './monitor-helpers.js';

describe('forbiddenReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.20.30.40', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.100.100.200', 'shared (carrier-grade NAT)'],
    ['0.0.0.0', '"this network"'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00:ec2::254', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local (cloud metadata)'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
  ])('%s is %s', (ip, reason) => expect(forbiddenReason(ip)).toBe(reason));

  it.each(['8.8.8.8', '172.32.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) =>
    expect(forbiddenReason(ip)).toBeUndefined(),
  );
});

describe('checks refuse private addresses, after DNS and on every redirect hop', () => {
  const pages = new PageServer();
  const lookups: string[] = [];
  let app: Awaited<ReturnType<typeof makeServer>>['app'];
  let client: Firecrawl;

  const dns: Record<string, ResolvedAddress[]> = {
    'public.example': [{ address: '127.0.0.1', family: 4 }],
    'intranet.example': [{ address: '10.1.2.3', family: 4 }],
    'metadata.example': [{ address: '169.254.169.254', family: 4 }],
    // One public and one private answer: refused, since the connection could go to either.
    'split.example': [
      { address: '127.0.0.1', family: 4 },
      { address: '192.168.7.7', family: 4 },
    ],
  };

  beforeAll(async () => {
    await pages.start();
    ({ app } = await makeServer(
      { monitors: { ...MONITOR_DEFAULTS, run: true, schedulerTickMs: 20, webhookAttempts: 1 } },
      {
        monitors: {
          resolver: async (host) => {
            lookups.push(host);
            const answer = dns[host];
            if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
            return answer;
          },
          trustAddress: (ip) => ip === '127.0.0.1',
        },
      },
    ));
    await app.listen({ host: '127.0.0.1', port: 0 });
    client = new Firecrawl({
      apiKey: KEY_A,
      apiUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      maxRetries: 1,
    });
    const p = pages.port;
    pages.html('/ok.html', 'Fine', '<p>public page</p>');
    pages.pages.set('/to-intranet', { location: 'http://intranet.example/admin' });
    pages.pages.set('/to-metadata', { location: 'http://metadata.example/latest/meta-data/' });
    pages.pages.set('/to-loopback', { location: `http://127.0.0.2:${p}/ok.html` });
    pages.pages.set('/hop1', { location: `http://public.example:${p}/hop2` });
    pages.pages.set('/hop2', { location: 'http://intranet.example/deep' });
  });
  afterAll(async () => {
    await app?.close();
    await pages.close();
  });

  it('refuses loopback, private and metadata addresses, directly or through redirects; never connects to them', async () => {
    const p = pages.port;
    const m = await client.createMonitor({
      name: 'ssrf',
      schedule: { cron: '0 0 1 1 *' },
      targets: [
        {
          type: 'scrape',
          urls: [
            `http://public.example:${p}/ok.html`,
            `http://127.0.0.2:${p}/ok.html`,
            `http://[::1]:${p}/ok.html`,
            `http://intranet.example:${p}/ok.html`,
            `http://split.example:${p}/ok.html`,
            `http://public.example:${p}/to-intranet`,
            `http://public.example:${p}/to-metadata`,
            `http://public.example:${p}/to-loopback`,
            `http://public.example:${p}/hop1`,
          ],
        },
      ],
      webhook: { url: 'http://intranet.example/hook', events: ['monitor.check.completed'] },
    });
    const run = await client.runMonitor(m.id);
    const c = await waitFor('the check', async () => {
      const got = await client.getMonitorCheck(m.id, run.id);
      return got.notificationStatus ? got : undefined;
    });
    const byUrl = Object.fromEntries(c.pages.map((pg) => [pg.url.replace(`:${p}`, ''), pg]));
    expect(byUrl['http://public.example/ok.html']!.status).toBe('new');
    const refused: Array<[string, RegExp]> = [
      ['http://127.0.0.2/ok.html', /^SSRF_REFUSED: Refused to connect to 127\.0\.0\.2: loopback/],
      ['http://[::1]/ok.html', /^SSRF_REFUSED: Refused to connect to ::1: loopback/],
      ['http://intranet.example/ok.html', /intranet\.example \(10\.1\.2\.3\): private/],
      ['http://split.example/ok.html', /split\.example \(192\.168\.7\.7\): private/],
      ['http://public.example/to-intranet', /intranet\.example \(10\.1\.2\.3\): private/],
      ['http://public.example/to-metadata', /metadata\.example \(169\.254\.169\.254\): link-local \(cloud metadata\)/],
      ['http://public.example/to-loopback', /127\.0\.0\.2: loopback/],
      ['http://public.example/hop1', /intranet\.example \(10\.1\.2\.3\): private/],
    ];
    for (const [url, reason] of refused) {
      expect(byUrl[url], url).toMatchObject({ status: 'error' });
      expect(byUrl[url]!.error, url).toMatch(reason);
      expect(byUrl[url]!.error, url).toMatch(/DOCMILL_ALLOW_PRIVATE_URLS/);
    }
    expect(c.status).toBe('partial');
    // The page server saw the allowed page once and the redirecting pages, never a refused address's request.
    expect(pages.hits.filter((h) => h === '/ok.html')).toHaveLength(1);
    expect(pages.hits.filter((h) => h === '/hop2')).toHaveLength(1);
    // Each hop resolved once, by the check: the socket connected to that answer (the system DNS knows none of these names).
    // public.example: five URLs of the target plus the /hop2 redirect hop.
    expect(lookups.filter((h) => h === 'public.example')).toHaveLength(6);
    const hook = (c.notificationStatus as { webhook: { deliveries: Array<{ status: string; error: string }> } })
      .webhook;
    expect(hook.deliveries[0]!.status).toBe('failed');
    expect(hook.deliveries[0]!.error).toMatch(/intranet\.example \(10\.1\.2\.3\): private/);
  });
});
