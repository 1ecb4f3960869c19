/**
 * Monitors: create, list, read, change, delete. Each key sees only its own monitors. Their checks have
 * routes of their own (monitor-checks.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { badRequest, errorSchemas, notFound } from '../http-error.js';
import {
  applyUpdate,
  buildMonitor,
  createMonitorBody,
  listMonitorsQuery,
  monitorIdParams,
  monitorSchema,
  updateMonitorBody,
  type CreateMonitorInput,
  type Monitor,
  type UpdateMonitorInput,
} from '../monitors.js';
import { monitorCheckRoutes } from './monitor-checks.js';

const one = {
  type: 'object',
  required: ['success', 'data'],
  properties: { success: { type: 'boolean' }, data: monitorSchema },
};
const many = {
  type: 'object',
  required: ['success', 'data'],
  properties: { success: { type: 'boolean' }, data: { type: 'array', items: monitorSchema } },
};
const errors = {
  400: { ...errorSchemas.coded, description: 'Invalid request (code BAD_REQUEST)' },
  401: { ...errorSchemas.unauthorized, description: 'Missing or unknown API key' },
  500: { ...errorSchemas.coded, description: 'Unexpected failure (code UNKNOWN_ERROR)' },
};
const missing = {
  404: { ...errorSchemas.coded, description: 'No monitor with this id for this API key (code NOT_FOUND)' },
};

function stripOrigin<T extends { origin?: unknown }>(body: T): Omit<T, 'origin'> {
  const { origin: _origin, ...rest } = body;
  return rest;
}

export async function monitorRoutes(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  const { store } = ctx;
  const gone = (id: string) => notFound(`Monitor ${id} not found.`);
  /** E-mail notification needs a mail server: refused up front rather than failing at every check. */
  const mailable = (m: Monitor): Monitor => {
    if (m.notification?.email.enabled && !ctx.config.monitors.smtpUrl) {
      throw badRequest(
        'notification.email: e-mail notification is enabled but this service has no mail server (set DOCMILL_SMTP_URL, for example smtp://user:pass@host:587).',
      );
    }
    return m;
  };

  app.get<{ Querystring: { limit: number; offset: number } }>(
    '/v2/monitor',
    {
      schema: { summary: 'List monitors', querystring: listMonitorsQuery, response: { 200: many, ...errors } },
    },
    async (request) => {
      const { limit, offset } = request.query;
      return { success: true, data: await store.listMonitors(request.keyId, limit, offset) };
    },
  );

  app.post<{ Body: CreateMonitorInput & { origin?: string } }>(
    '/v2/monitor',
    {
      schema: { summary: 'Create a monitor', body: createMonitorBody, response: { 200: one, ...errors } },
    },
    async (request) => {
      const monitor = mailable(buildMonitor(stripOrigin(request.body), ctx.monitors.now()));
      return { success: true, data: await store.createMonitor(request.keyId, monitor) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/v2/monitor/:id',
    {
      schema: { summary: 'Get a monitor', params: monitorIdParams, response: { 200: one, ...errors, ...missing } },
    },
    async (request) => {
      const monitor = await store.getMonitor(request.keyId, request.params.id);
      if (!monitor) throw gone(request.params.id);
      return { success: true, data: monitor };
    },
  );

  app.patch<{ Params: { id: string }; Body: UpdateMonitorInput & { origin?: string } }>(
    '/v2/monitor/:id',
    {
      schema: {
        summary: 'Change a monitor',
        params: monitorIdParams,
        body: updateMonitorBody,
        response: { 200: one, ...errors, ...missing },
      },
    },
    async (request) => {
      const patch = stripOrigin(request.body);
      const monitor = await store.updateMonitor(request.keyId, request.params.id, (m) =>
        mailable(applyUpdate(m, patch, ctx.monitors.now())),
      );
      if (!monitor) throw gone(request.params.id);
      return { success: true, data: monitor };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/v2/monitor/:id',
    {
      schema: {
        summary: 'Delete a monitor',
        params: monitorIdParams,
        response: {
          200: { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } },
          ...errors,
          ...missing,
        },
      },
    },
    async (request) => {
      if (!(await store.deleteMonitor(request.keyId, request.params.id))) throw gone(request.params.id);
      return { success: true };
    },
  );

  await monitorCheckRoutes(app, ctx);
}
