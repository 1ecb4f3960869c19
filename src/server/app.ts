/**
 * The HTTP service as a Fastify instance: built by `buildServer` (used by `serve` and by in-process tests
 * through `inject`), configured only by its arguments.
 */
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { createParser, type Parser } from '../parser.js';
import { KeyRing } from './auth.js';
import type { ServerConfig } from './config.js';
import { toHttpError } from './error-map.js';
import { notFound, unauthorized } from './http-error.js';
import { KeyLimiter } from './limiter.js';
import { MonitorService, type MonitorRuntimeOptions } from './monitors/service.js';
import { documentParseRoute } from './openapi.js';
import { monitorRoutes } from './routes/monitors.js';
import { parseRoutes } from './routes/parse.js';
import { PROBE_PATHS, probeRoutes } from './routes/probes.js';
import { Store } from './store/store.js';
import { MULTIPART, validatorCompiler } from './validation.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The monitor runtime of this instance (its scheduler, queue and checks). */
    monitors: MonitorService;
  }
  interface FastifyRequest {
    /** Id of the API key that authenticated the request. */
    keyId: string;
    /** Set when the request asked for zero data retention: error logging then leaves messages out. */
    zeroDataRetention: boolean;
  }
}

import type { ServiceContext } from './context.js';

export type { ServiceContext } from './context.js';

export interface BuildOptions {
  config: ServerConfig;
  /** Defaults to a store opened from config (embedded database or PostgreSQL). */
  store?: Store;
  /** Defaults to `createParser` with the configured thread counts. */
  parser?: Parser;
  /** Where log lines go (default standard output); tests pass a stream to read them. */
  logStream?: NodeJS.WritableStream;
  /** Seams of the monitor runtime that only tests and benchmarks set (clock, DNS, ...). */
  monitors?: MonitorRuntimeOptions;
}

export const SERVICE_VERSION = '0.1.0';

function pathOnly(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

export async function buildServer(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const ownsStore = !options.store;
  const ownsParser = !options.parser;
  const store = options.store ?? (await Store.open({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const parser = options.parser ?? createParser({ textThreads: config.textThreads, ocrThreads: config.ocrThreads });
  const keys = new KeyRing(config.apiKeys);

  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      // Paths only: a query string is never logged, whatever a client put in it.
      serializers: {
        req: (req: { method: string; url: string; id: string }) => ({
          method: req.method,
          url: pathOnly(req.url),
          id: req.id,
        }),
      },
      redact: ['req.headers.authorization', 'headers.authorization'],
    },
    bodyLimit: 1024 * 1024,
    // A request (upload + parse) may take the longest parse timeout and then some; a stalled client does not hold a socket forever.
    requestTimeout: 360_000,
    requestIdHeader: false,
    ajv: { customOptions: { removeAdditional: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  const ctx: ServiceContext = {
    config,
    store,
    parser,
    limiter: new KeyLimiter(config.concurrencyPerKey, config.queueLength),
    monitors: new MonitorService(
      config.monitors,
      store,
      parser,
      config.databaseUrl,
      app.log.child({ component: 'monitors' }),
      options.monitors,
    ),
  };
  app.decorateRequest('keyId', '');
  app.decorateRequest('zeroDataRetention', false);

  await app.register(multipart, {
    limits: { fileSize: config.maxFileBytes, files: 2, fields: 4, fieldSize: 1024 * 1024, parts: 6, headerPairs: 200 },
    throwFileSizeLimit: true,
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'docmill',
        version: SERVICE_VERSION,
        description: 'Document parsing (POST /v2/parse) and monitors, wire-compatible with the Firecrawl v2 API.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearerAuth: [] }],
    },
    // The multipart marker only tells the validator to leave the body to the handler; the document does not need it.
    // The parse route gets its options part and response document spelled out (openapi.ts).
    transform: ({ schema, url }) => {
      const documented = (
        url === '/v2/parse' && schema ? documentParseRoute(schema as Record<string, unknown>) : schema
      ) as typeof schema;
      const body = (documented as { body?: Record<string, unknown> } | undefined)?.body;
      if (!body || !(MULTIPART in body)) return { schema: documented, url };
      const { [MULTIPART]: _marker, ...rest } = body;
      return { schema: { ...documented, body: rest } as typeof schema, url };
    },
  });

  // Authentication before anything else, on every route (unknown ones too) but the probes. Only the header counts.
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.url !== undefined && PROBE_PATHS.has(request.routeOptions.url)) return;
    const id = keys.identify(request.headers.authorization);
    if (!id) {
      throw unauthorized(
        request.headers.authorization === undefined
          ? 'Unauthorized: send the API key as "Authorization: Bearer <key>".'
          : 'Unauthorized: invalid API key.',
      );
    }
    request.keyId = id;
  });

  app.setNotFoundHandler((request, reply) => {
    const e = notFound(`No route ${request.method} ${pathOnly(request.url)}.`);
    void reply.code(e.status).send(e.body());
  });

  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    const e = toHttpError(err);
    if (e.status >= 500) {
      request.log.error(request.zeroDataRetention ? { code: e.code } : { err }, 'request failed');
    }
    if (e.status === 401) void reply.header('www-authenticate', 'Bearer');
    if (e.retryAfterSeconds !== undefined) void reply.header('retry-after', String(e.retryAfterSeconds));
    void reply.code(e.status).send(e.body());
  });

  await probeRoutes(app, store);
  await app.register(async (scoped) => {
    await parseRoutes(scoped, ctx);
    await monitorRoutes(scoped, ctx);
    scoped.get('/v2/openapi.json', { schema: { hide: true } }, async () => scoped.swagger());
  });

  app.decorate('monitors', ctx.monitors);
  // Checks start with the service: a process that only builds the app (tests using inject) runs them too.
  await ctx.monitors.start();
  app.addHook('onClose', async () => {
    await ctx.monitors.stop();
    if (ownsParser) await parser.close();
    if (ownsStore) await store.close();
  });
  return app;
}
