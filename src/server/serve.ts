/**
 * `docmill serve`: starts the HTTP service with configuration from the environment (see README).
 */
import { parseArgs } from 'node:util';
import { buildServer } from './app.js';
import { ConfigError, loadConfig } from './config.js';

const USAGE = `Usage: docmill serve [--host HOST] [--port PORT]
  --host, --port              listen address; override DOCMILL_HOST and DOCMILL_PORT
Configuration comes from the environment:
  DOCMILL_API_KEYS            id1:key1,id2:key2 (required; or DOCMILL_API_KEYS_FILE)
  DOCMILL_HOST, DOCMILL_PORT  listen address (default 127.0.0.1:3002)
  DOCMILL_DATABASE_URL        postgres:// URL (default: embedded database in DOCMILL_DATA_DIR)
  DOCMILL_DATA_DIR            directory of the embedded database (default ./docmill-data)
  DOCMILL_CONCURRENCY_PER_KEY parses one key runs at once (default 2)
  DOCMILL_QUEUE_LENGTH        parses one key may queue (default 8)
  DOCMILL_PAGE_QUOTA          pages per key per month, 0 = none (default 0)
  DOCMILL_LOG_LEVEL           info, warn, error, silent, ... (default info)
Monitors (see README, "Checks"):
  DOCMILL_WEBHOOK_SECRET      HMAC-SHA256 secret of X-Firecrawl-Signature (default: unsigned)
  DOCMILL_SMTP_URL            smtp://user:pass@host:587 for e-mail notification (default: e-mail refused)
  DOCMILL_ALLOW_PRIVATE_URLS  true lets checks and webhooks reach private addresses (default false)
  DOCMILL_RUN_MONITORS        false: this instance neither schedules nor runs checks (default true)
  DOCMILL_QUEUE_SCHEMA        PostgreSQL schema of the shared job queue (default pgboss)`;

/** Starts the HTTP service. */
export async function serve(argv: string[]): Promise<void> {
  let flags;
  try {
    flags = parseArgs({
      args: argv,
      options: { host: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }).values;
  } catch (err) {
    process.stderr.write(`docmill serve: ${(err as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (flags.port !== undefined && !/^\d{1,5}$/.test(flags.port)) {
    process.stderr.write(
      `docmill serve: --port: expected a port number 0 to 65535 (got ${JSON.stringify(flags.port)})\n`,
    );
    process.exit(2);
  }
  let config;
  try {
    // Flags win over the environment.
    config = loadConfig({
      ...process.env,
      ...(flags.host !== undefined ? { DOCMILL_HOST: flags.host } : {}),
      ...(flags.port !== undefined ? { DOCMILL_PORT: flags.port } : {}),
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`docmill serve: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const app = await buildServer({ config });
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  await app.listen({ host: config.host, port: config.port });
}
