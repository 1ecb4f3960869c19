/**
 * Checks of a monitor, as the official SDK calls them: run one now, list them, read one with its pages
 * (paginated with `limit`/`skip`, filtered by page `status`, `next` pointing at the following page).
 * Another key's monitor, or a check of another monitor, is 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.js';
import { errorSchemas, notFound } from '../http-error.js';
import { monitorIdParams } from '../monitors.js';

const summarySchema = {
  type: 'object',
  properties: Object.fromEntries(
    ['totalPages', 'same', 'changed', 'new', 'removed', 'error'].map((k) => [k, { type: 'integer' }]),
  ),
};
const nullableString = { anyOf: [{ type: 'string' }, { type: 'null' }] };
const nullableInt = { anyOf: [{ type: 'integer' }, { type: 'null' }] };

const checkProperties = {
  id: { type: 'string', format: 'uuid' },
  monitorId: { type: 'string', format: 'uuid' },
  status: {
    type: 'string',
    enum: ['queued', 'running', 'completed', 'failed', 'partial', 'skipped_overlap', 'skipped_no_credits'],
  },
  trigger: { type: 'string', enum: ['scheduled', 'manual'] },
  scheduledFor: nullableString,
  startedAt: nullableString,
  finishedAt: nullableString,
  estimatedCredits: nullableInt,
  reservedCredits: nullableInt,
  actualCredits: nullableInt,
  billingStatus: { type: 'string' },
  summary: summarySchema,
  targetResults: { type: 'array', items: { type: 'object', additionalProperties: true } },
  notificationStatus: {},
  error: nullableString,
  createdAt: { type: 'string' },
  updatedAt: { type: 'string' },
};
const checkSchema = {
  type: 'object',
  required: ['id', 'monitorId', 'status', 'trigger', 'summary'],
  properties: checkProperties,
};
const pageSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    targetId: { type: 'string' },
    url: { type: 'string' },
    status: { type: 'string', enum: ['same', 'new', 'changed', 'removed', 'error'] },
    previousScrapeId: nullableString,
    currentScrapeId: nullableString,
    statusCode: nullableInt,
    error: nullableString,
    metadata: {},
    diff: {},
    snapshot: {},
    judgment: {},
    createdAt: { type: 'string' },
  },
};

const envelope = (data: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['success', 'data'],
  properties: { success: { type: 'boolean' }, data, ...extra },
});
const errors = {
  400: { ...errorSchemas.coded, description: 'Invalid request (code BAD_REQUEST)' },
  401: { ...errorSchemas.unauthorized, description: 'Missing or unknown API key' },
  404: { ...errorSchemas.coded, description: 'No such monitor or check for this API key (code NOT_FOUND)' },
  500: { ...errorSchemas.coded, description: 'Unexpected failure (code UNKNOWN_ERROR)' },
};

const checkParams = {
  type: 'object',
  required: ['id', 'checkId'],
  properties: { id: { type: 'string', format: 'uuid' }, checkId: { type: 'string', format: 'uuid' } },
};
const listQuery = {
  type: 'object',
  additionalProperties: true,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    offset: { type: 'integer', minimum: 0, maximum: 2147483647, default: 0 },
  },
};
const pagesQuery = {
  type: 'object',
  additionalProperties: true,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    skip: { type: 'integer', minimum: 0, maximum: 2147483647, default: 0 },
    status: { type: 'string', enum: ['same', 'new', 'changed', 'removed', 'error'] },
  },
};

/** The absolute URL of the next page of a check's pages (the SDK follows it as given). */
function nextUrl(request: FastifyRequest, skip: number, limit: number, status: string | undefined): string {
  const path = request.url.split('?')[0]!;
  const q = new URLSearchParams({ skip: String(skip), limit: String(limit) });
  if (status) q.set('status', status);
  return `${request.protocol}://${request.host}${path}?${q.toString()}`;
}

export async function monitorCheckRoutes(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  const { store, monitors } = ctx;

  const ownMonitor = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const monitor = await store.getMonitor(request.keyId, request.params.id);
    if (!monitor) throw notFound(`Monitor ${request.params.id} not found.`);
    return monitor;
  };

  app.post<{ Params: { id: string } }>(
    '/v2/monitor/:id/run',
    {
      schema: {
        summary: 'Run a check of the monitor now (trigger "manual")',
        params: monitorIdParams,
        response: { 200: envelope(checkSchema), ...errors },
      },
    },
    async (request) => ({ success: true, data: await monitors.runNow(await ownMonitor(request)) }),
  );

  app.get<{ Params: { id: string }; Querystring: { limit: number; offset: number } }>(
    '/v2/monitor/:id/checks',
    {
      schema: {
        summary: "List the monitor's checks, newest first",
        params: monitorIdParams,
        querystring: listQuery,
        response: { 200: envelope({ type: 'array', items: checkSchema }), ...errors },
      },
    },
    async (request) => {
      const monitor = await ownMonitor(request);
      return {
        success: true,
        data: await monitors.checks.listChecks(monitor, request.query.limit, request.query.offset),
      };
    },
  );

  app.get<{
    Params: { id: string; checkId: string };
    Querystring: { limit: number; skip: number; status?: 'same' | 'new' | 'changed' | 'removed' | 'error' };
  }>(
    '/v2/monitor/:id/checks/:checkId',
    {
      schema: {
        summary: 'Get a check with its pages and their diffs',
        params: checkParams,
        querystring: pagesQuery,
        response: {
          200: envelope(
            {
              type: 'object',
              properties: {
                ...checkProperties,
                pages: { type: 'array', items: pageSchema },
                next: nullableString,
              },
            },
            { next: nullableString },
          ),
          ...errors,
        },
      },
    },
    async (request) => {
      const monitor = await ownMonitor(request);
      const check = await monitors.checks.check(request.params.checkId, monitor);
      if (!check || check.monitorId !== monitor.id) throw notFound(`Check ${request.params.checkId} not found.`);
      const { limit, skip, status } = request.query;
      const { pages, total } = await monitors.checks.pages(check.id, limit, skip, status);
      const next = skip + pages.length < total ? nextUrl(request, skip + pages.length, limit, status) : null;
      return { success: true, data: { ...check, pages, next }, next };
    },
  );
}
