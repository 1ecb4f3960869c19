/**
 * OCR must never reach the network: traineddata and the recognition core ship in npm packages. The
 * OCR threads install this guard before anything else loads, so a library that would quietly fall back
 * to a CDN (tesseract.js does when `langPath` is missing) fails loudly instead, and the attempt is
 * counted so tests can assert there were none.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

export class NetworkBlockedError extends Error {
  constructor(target: string) {
    super(`docmill OCR is offline by design; refused a network request to ${target}`);
    this.name = 'NetworkBlockedError';
  }
}

let attempts = 0;
let installed = false;

/** Network requests refused in this thread since the guard was installed. */
export function networkAttempts(): number {
  return attempts;
}

function refuse(target: string): never {
  attempts++;
  throw new NetworkBlockedError(target);
}

function describe(args: unknown[]): string {
  const first = args[0];
  if (typeof first === 'string') return first;
  if (first instanceof URL) return first.href;
  if (first && typeof first === 'object') {
    const o = first as { href?: string; host?: string; hostname?: string; port?: unknown; path?: string };
    return o.href ?? `${o.hostname ?? o.host ?? '?'}:${String(o.port ?? '')}${o.path ?? ''}`;
  }
  return String(first);
}

/** Replaces fetch and the http, https, net and tls client entry points of this thread. Idempotent. */
export function installNetworkGuard(): void {
  if (installed) return;
  installed = true;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    // Local data may still be read through fetch.
    if (/^(data|blob|file):/i.test(url)) return realFetch(input, init);
    return refuse(url);
  }) as typeof fetch;
  // The default export of a builtin is the object CommonJS `require` returns, so node-fetch and
  // tesseract.js see these replacements too.
  const patch = (mod: Record<string, unknown>, names: string[]) => {
    for (const name of names) {
      try {
        Object.defineProperty(mod, name, {
          configurable: true,
          writable: true,
          value: (...args: unknown[]) => refuse(describe(args)),
        });
      } catch {
        // A frozen export cannot be replaced; fetch above still covers the common path.
      }
    }
  };
  patch(http as unknown as Record<string, unknown>, ['request', 'get']);
  patch(https as unknown as Record<string, unknown>, ['request', 'get']);
  patch(net as unknown as Record<string, unknown>, ['connect', 'createConnection']);
  patch(tls as unknown as Record<string, unknown>, ['connect']);
}
