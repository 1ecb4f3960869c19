/**
 * Real parts on loopback for the monitor tests: a page server whose pages the test changes, a webhook
 * receiver that verifies signatures, an SMTP server that keeps what it receives.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Page {
  status?: number;
  type?: string;
  body?: string | Uint8Array;
  /** Location of a redirect (status 302 unless given). */
  location?: string;
  /** Never answer (the socket stays open until the server closes). */
  hang?: boolean;
}

export class PageServer {
  readonly pages = new Map<string, Page>();
  readonly hits: string[] = [];
  private readonly server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    this.hits.push(path);
    const page = this.pages.get(path);
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (page.hang) return;
    if (page.location) {
      res.writeHead(page.status ?? 302, { location: page.location }).end();
      return;
    }
    res.writeHead(page.status ?? 200, { 'content-type': page.type ?? 'text/html; charset=utf-8' }).end(page.body ?? '');
  });
  port = 0;

  async start(host = '127.0.0.1'): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, host, r));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  html(path: string, title: string, body: string): void {
    this.pages.set(path, {
      body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

export interface Received {
  event: string;
  body: Record<string, any>;
  headers: http.IncomingHttpHeaders;
  signatureValid: boolean;
}

/** A webhook receiver as the README tells users to write one: HMAC of the raw body, compared in constant time. */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Answer with this status (e.g. 500 to make the sender retry); `hang` never answers. */
  mode: { status: number } | 'hang' = { status: 200 };
  private readonly server: http.Server;
  port = 0;

  constructor(private readonly secret: string) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const expected = `sha256=${createHmac('sha256', this.secret).update(raw).digest('hex')}`;
        const given = String(req.headers['x-firecrawl-signature'] ?? '');
        const signatureValid =
          given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
        const body = JSON.parse(raw.toString('utf8')) as Record<string, any>;
        this.received.push({ event: String(body['event']), body, headers: req.headers, signatureValid });
        if (this.mode === 'hang') return;
        res.writeHead(this.mode.status).end();
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

export interface Mail {
  from: string;
  to: string[];
  raw: string;
}

/** An SMTP server on loopback that accepts every message and keeps it. */
export class SmtpSink {
  readonly mails: Mail[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        this.mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Decodes a quoted-printable mail body enough to search it. */
export function mailText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
