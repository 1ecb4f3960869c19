/**
 * Webhook deliveries of a check. Each body is JSON, signed with HMAC-SHA256 over its exact bytes
 * (`X-Firecrawl-Signature: sha256=<hex>`, secret DOCMILL_WEBHOOK_SECRET), sent to an address the SSRF
 * guard allows, and retried with growing pauses on timeouts, network errors, 429 and 5xx, a bounded number
 * of times. Every attempt has its own timeout, so a receiver that never answers costs at most
 * attempts × timeout + pauses, and deliveries run side by side: it cannot stall the check.
 */
import { createHmac } from 'node:crypto';
import { FetchError, guardedRequest } from './fetcher.js';
import type { AddressGuard } from './ssrf.js';
import type { MonitorWebhook } from '../monitors.js';

export { CHECK_COMPLETED_EVENT, PAGE_EVENT, WEBHOOK_EVENTS } from './events.js';
export const SIGNATURE_HEADER = 'X-Firecrawl-Signature';

export interface WebhookSettings {
  /** HMAC secret; without one, deliveries go unsigned (and the service warns at start). */
  secret: string | undefined;
  timeoutMs: number;
  attempts: number;
  /** Pause before the second attempt; doubled before each further one. */
  backoffMs: number;
  guard: AddressGuard;
  /** Deliveries of one check in flight at once. */
  concurrency?: number;
}

export interface Delivery {
  event: string;
  /** The page a `monitor.page` delivery is about. */
  pageUrl?: string;
  status: 'delivered' | 'failed';
  attempts: number;
  httpStatus: number | null;
  error: string | null;
}

export function sign(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Sends one body, retrying as the settings allow; never throws. */
export async function deliver(
  webhook: MonitorWebhook,
  event: string,
  payload: Record<string, unknown>,
  settings: WebhookSettings,
): Promise<Omit<Delivery, 'pageUrl'>> {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    ...webhook.headers,
    'content-type': 'application/json',
    'x-firecrawl-event': event,
  };
  if (settings.secret) headers[SIGNATURE_HEADER.toLowerCase()] = sign(settings.secret, body);
  let last: { httpStatus: number | null; error: string | null } = { httpStatus: null, error: null };
  for (let attempt = 1; attempt <= settings.attempts; attempt++) {
    try {
      const res = await guardedRequest(webhook.url, {
        method: 'POST',
        headers,
        body,
        deadline: Date.now() + settings.timeoutMs,
        maxBytes: 64 * 1024,
        guard: settings.guard,
      });
      if (res.status >= 200 && res.status < 300) {
        return { event, status: 'delivered', attempts: attempt, httpStatus: res.status, error: null };
      }
      last = { httpStatus: res.status, error: `the receiver answered ${res.status}` };
      if (!retryable(res.status)) return { event, status: 'failed', attempts: attempt, ...last };
    } catch (err) {
      last = { httpStatus: null, error: (err as Error).message };
      // A refused address or a malformed URL will not get better by trying again.
      if (err instanceof FetchError && (err.code === 'SSRF_REFUSED' || err.code === 'BAD_URL')) {
        return { event, status: 'failed', attempts: attempt, ...last };
      }
    }
    if (attempt < settings.attempts) await sleep(settings.backoffMs * 2 ** (attempt - 1));
  }
  return { event, status: 'failed', attempts: settings.attempts, ...last };
}
