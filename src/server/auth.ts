/**
 * Bearer-key authentication. Keys are compared as SHA-256 digests with `timingSafeEqual`, against every
 * configured key without stopping at the first match, so neither the key's length nor its position in the
 * list shows in the response time. Only the key's id ever leaves this module.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyEntry } from './config.js';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export class KeyRing {
  private readonly entries: { id: string; hash: Buffer }[];

  constructor(keys: ApiKeyEntry[]) {
    this.entries = keys.map((k) => ({ id: k.id, hash: digest(k.key) }));
  }

  /** The id of the key in an `Authorization` header value, or undefined. */
  identify(header: string | undefined): string | undefined {
    if (typeof header !== 'string') return undefined;
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    if (!match) return undefined;
    const presented = digest(match[1]!);
    let found: string | undefined;
    for (const e of this.entries) {
      if (timingSafeEqual(presented, e.hash) && found === undefined) found = e.id;
    }
    return found;
  }
}
