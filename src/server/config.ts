/**
 * Service configuration, read once from the environment. Every value has a default except the API keys:
 * a service that would answer anyone is never started by accident.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface ApiKeyEntry {
  /** Public identifier: appears in logs, audit lines and as the owner of monitors. Never the secret. */
  id: string;
  /** The secret the client sends as `Authorization: Bearer <key>`. */
  key: string;
}

export interface ServerConfig {
  host: string;
  port: number;
  apiKeys: ApiKeyEntry[];
  /** PostgreSQL connection URL; when absent monitors live in an embedded SQLite file under `dataDir`. */
  databaseUrl: string | undefined;
  /** Directory of the embedded database. `:memory:` keeps it in memory (tests). */
  dataDir: string;
  /** Parses one key may run at the same time. */
  concurrencyPerKey: number;
  /** Parses of one key that may wait for a slot; one more gets 429. */
  queueLength: number;
  /** Pages one key may parse per calendar month (UTC); 0 means no quota. Spent → 402. */
  pageQuota: number;
  /** Largest upload, in bytes. */
  maxFileBytes: number;
  /** Log level of the service log (fatal, error, warn, info, debug, trace, silent). */
  logLevel: string;
  /** Worker threads of the PDF text pool (undefined: one per core). */
  textThreads: number | undefined;
  /** Worker threads of the OCR pool (undefined: what memory allows). */
  ocrThreads: number | undefined;
  /** Monitor checks: scheduling, fetching, notifications (see MonitorConfig). */
  monitors: MonitorConfig;
}

export interface MonitorConfig {
  /** Schedule and run checks in this instance (false: an API-only instance; checks wait for another). */
  run: boolean;
  /** Fetch loopback, private, link-local and metadata addresses too (tests, private deployments). */
  allowPrivateUrls: boolean;
  /** HMAC-SHA256 secret of the X-Firecrawl-Signature header; unset: deliveries are not signed. */
  webhookSecret: string | undefined;
  webhookTimeoutMs: number;
  webhookAttempts: number;
  /** smtp:// or smtps:// URL of the mail server; unset: monitors with e-mail notification are refused. */
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** Checks one instance runs at the same time. */
  checkConcurrency: number;
  /** Pages one check fetches and converts at the same time. */
  pageConcurrency: number;
  /** How often the scheduler looks for monitors whose fire time has come. */
  schedulerTickMs: number;
  /** PostgreSQL schema of the job queue (pg-boss) shared by the instances. */
  queueSchema: string;
  /** Seconds without a heartbeat after which a running check's instance is taken for dead (at least 10). */
  queueHeartbeatSeconds: number;
}

export const MONITOR_DEFAULTS: MonitorConfig = {
  run: true,
  allowPrivateUrls: false,
  webhookSecret: undefined,
  webhookTimeoutMs: 10_000,
  webhookAttempts: 3,
  smtpUrl: undefined,
  smtpFrom: 'docmill <docmill@localhost>',
  checkConcurrency: 4,
  pageConcurrency: 4,
  schedulerTickMs: 1000,
  queueSchema: 'pgboss',
  queueHeartbeatSeconds: 30,
};

export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Parses `id1:key1,id2:key2` (commas or newlines between entries). */
export function parseApiKeys(text: string): ApiKeyEntry[] {
  const out: ApiKeyEntry[] = [];
  const ids = new Set<string>();
  const keys = new Set<string>();
  for (const raw of text.split(/[,\n]/)) {
    const entry = raw.trim();
    if (!entry || entry.startsWith('#')) continue;
    const colon = entry.indexOf(':');
    if (colon <= 0)
      throw new ConfigError(
        'DOCMILL_API_KEYS: each entry must be "id:key" (the id is what logs show; the key stays secret).',
      );
    const id = entry.slice(0, colon).trim();
    const key = entry.slice(colon + 1).trim();
    if (!KEY_ID.test(id))
      throw new ConfigError(`DOCMILL_API_KEYS: key id "${id}" must be 1-64 characters of A-Z a-z 0-9 . _ -`);
    if (key.length < 16)
      throw new ConfigError(
        `DOCMILL_API_KEYS: the key of "${id}" is shorter than 16 characters; use a long random secret.`,
      );
    if (/\s/.test(key)) throw new ConfigError(`DOCMILL_API_KEYS: the key of "${id}" contains white space.`);
    if (ids.has(id)) throw new ConfigError(`DOCMILL_API_KEYS: key id "${id}" is listed twice.`);
    if (keys.has(key)) throw new ConfigError(`DOCMILL_API_KEYS: two ids share one key.`);
    ids.add(id);
    keys.add(key);
    out.push({ id, key });
  }
  return out;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name}: expected a whole number, got "${raw}".`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name}: must be between ${min} and ${max}, got ${n}.`);
  return n;
}

function optionalInt(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  return int(env, name, 0, min, max);
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name}: expected true or false, got "${env[name]}".`);
}

function loadMonitorConfig(env: NodeJS.ProcessEnv): MonitorConfig {
  const d = MONITOR_DEFAULTS;
  const smtpUrl = env['DOCMILL_SMTP_URL']?.trim() || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError(
      'DOCMILL_SMTP_URL: expected an smtp:// or smtps:// URL, for example smtp://user:pass@host:587.',
    );
  }
  const queueSchema = env['DOCMILL_QUEUE_SCHEMA']?.trim() || d.queueSchema;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(queueSchema)) {
    throw new ConfigError('DOCMILL_QUEUE_SCHEMA: expected a lower-case SQL identifier (letters, digits, _).');
  }
  return {
    run: bool(env, 'DOCMILL_RUN_MONITORS', d.run),
    allowPrivateUrls: bool(env, 'DOCMILL_ALLOW_PRIVATE_URLS', d.allowPrivateUrls),
    webhookSecret: env['DOCMILL_WEBHOOK_SECRET'] || undefined,
    webhookTimeoutMs: int(env, 'DOCMILL_WEBHOOK_TIMEOUT_MS', d.webhookTimeoutMs, 100, 300_000),
    webhookAttempts: int(env, 'DOCMILL_WEBHOOK_ATTEMPTS', d.webhookAttempts, 1, 10),
    smtpUrl,
    smtpFrom: env['DOCMILL_SMTP_FROM']?.trim() || d.smtpFrom,
    checkConcurrency: int(env, 'DOCMILL_CHECK_CONCURRENCY', d.checkConcurrency, 1, 256),
    pageConcurrency: int(env, 'DOCMILL_CHECK_PAGE_CONCURRENCY', d.pageConcurrency, 1, 256),
    schedulerTickMs: int(env, 'DOCMILL_SCHEDULER_TICK_MS', d.schedulerTickMs, 10, 60_000),
    queueSchema,
    queueHeartbeatSeconds: int(env, 'DOCMILL_QUEUE_HEARTBEAT_SECONDS', d.queueHeartbeatSeconds, 10, 3600),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  let keysText = env['DOCMILL_API_KEYS'] ?? '';
  const keysFile = env['DOCMILL_API_KEYS_FILE'];
  if (keysFile) {
    try {
      keysText = `${keysText}\n${readFileSync(keysFile, 'utf8')}`;
    } catch (err) {
      throw new ConfigError(`DOCMILL_API_KEYS_FILE: cannot read ${keysFile}: ${(err as Error).message}`);
    }
  }
  const apiKeys = parseApiKeys(keysText);
  if (apiKeys.length === 0) {
    throw new ConfigError(
      'No API keys configured: set DOCMILL_API_KEYS="id1:key1,id2:key2" (or DOCMILL_API_KEYS_FILE). Every route requires one.',
    );
  }
  const databaseUrl = env['DOCMILL_DATABASE_URL']?.trim() || env['DATABASE_URL']?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DOCMILL_DATABASE_URL: expected a postgres:// or postgresql:// URL.');
  }
  return {
    host: env['DOCMILL_HOST']?.trim() || env['HOST']?.trim() || '127.0.0.1',
    port: int(env, env['DOCMILL_PORT'] !== undefined ? 'DOCMILL_PORT' : 'PORT', 3002, 0, 65535),
    apiKeys,
    databaseUrl,
    dataDir: env['DOCMILL_DATA_DIR']?.trim() || path.resolve('docmill-data'),
    concurrencyPerKey: int(env, 'DOCMILL_CONCURRENCY_PER_KEY', 2, 1, 1024),
    queueLength: int(env, 'DOCMILL_QUEUE_LENGTH', 8, 0, 100000),
    pageQuota: int(env, 'DOCMILL_PAGE_QUOTA', 0, 0, Number.MAX_SAFE_INTEGER),
    maxFileBytes: int(env, 'DOCMILL_MAX_FILE_BYTES', DEFAULT_MAX_FILE_BYTES, 1, DEFAULT_MAX_FILE_BYTES),
    logLevel: env['DOCMILL_LOG_LEVEL']?.trim() || 'info',
    textThreads: optionalInt(env, 'DOCMILL_TEXT_THREADS', 1, 256),
    ocrThreads: optionalInt(env, 'DOCMILL_OCR_THREADS', 1, 256),
    monitors: loadMonitorConfig(env),
  };
}
