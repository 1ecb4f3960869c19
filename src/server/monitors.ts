/**
 * Monitors: the wire shape of the specification's Monitor table, the JSON schemas that validate what
 * clients send, and the rules JSON Schema cannot express (cron syntax, IANA time zones, next run in the
 * monitor's zone, credit estimate).
 */
import { randomUUID } from 'node:crypto';
import { Cron } from 'croner';
import { badRequest } from './http-error.js';
import { WEBHOOK_EVENTS } from './monitors/events.js';

export type MonitorStatus = 'active' | 'paused';

export interface MonitorSummary {
  totalPages: number;
  same: number;
  changed: number;
  new: number;
  removed: number;
  error: number;
}

export interface MonitorTarget {
  id: string;
  type: 'scrape';
  urls: string[];
  scrapeOptions: Record<string, unknown>;
}

export interface MonitorWebhook {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, string>;
  events: string[];
}

export interface MonitorNotification {
  email: { enabled: boolean; recipients: string[]; includeDiffs: boolean };
}

/** A monitor as the API returns it: every field of the specification's Monitor table. */
export interface Monitor {
  id: string;
  name: string;
  status: MonitorStatus;
  schedule: { cron: string; timezone: string };
  nextRunAt: string | null;
  lastRunAt: string | null;
  currentCheckId: string | null;
  targets: MonitorTarget[];
  webhook: MonitorWebhook | null;
  notification: MonitorNotification | null;
  retentionDays: number;
  estimatedCreditsPerMonth: number;
  lastCheckSummary: MonitorSummary;
  goal: string | null;
  judgeEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export const DEFAULT_RETENTION_DAYS = 30;
export const ZERO_SUMMARY: MonitorSummary = { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
export const DEFAULT_WEBHOOK_EVENTS = ['monitor.page'];

// ---------------------------------------------------------------- JSON schemas (validation + OpenAPI)

const stringMap = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: 8192 },
  maxProperties: 100,
} as const;
const httpUrl = { type: 'string', format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', maxLength: 2048 } as const;

/** The specification's scrapeOptions members, each with its type. */
const scrapeOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    formats: { type: 'array', maxItems: 20 },
    onlyMainContent: { type: 'boolean' },
    onlyCleanContent: { type: 'boolean' },
    includeTags: { type: 'array', items: { type: 'string' }, maxItems: 200 },
    excludeTags: { type: 'array', items: { type: 'string' }, maxItems: 200 },
    maxAge: { type: 'integer', minimum: 0 },
    minAge: { type: 'integer', minimum: 0 },
    headers: stringMap,
    waitFor: { type: 'integer', minimum: 0, maximum: 300000 },
    mobile: { type: 'boolean' },
    skipTlsVerification: { type: 'boolean' },
    timeout: { type: 'integer', minimum: 1, maximum: 300000 },
    parsers: { type: 'array', maxItems: 10 },
    actions: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        required: ['type'],
        properties: { type: { type: 'string' }, milliseconds: { type: 'integer', minimum: 0 } },
      },
    },
    location: {
      type: 'object',
      additionalProperties: false,
      properties: { country: { type: 'string' }, languages: { type: 'array', items: { type: 'string' } } },
    },
    removeBase64Images: { type: 'boolean' },
    blockAds: { type: 'boolean' },
    proxy: { type: 'string' },
    storeInCache: { type: 'boolean' },
    lockdown: { type: 'boolean' },
    redactPII: { type: 'boolean' },
    profile: {
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string' }, saveChanges: { type: 'boolean' } },
    },
    threatProtection: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: { type: 'string' },
        riskScoreThreshold: { type: 'integer' },
        blacklist: { type: 'array', items: { type: 'string' } },
        whitelist: { type: 'array', items: { type: 'string' } },
        blockedTlds: { type: 'array', items: { type: 'string' } },
        failurePolicy: { type: 'string' },
      },
    },
    auditMetadata: {
      type: 'object',
      additionalProperties: false,
      required: ['username'],
      properties: { username: { type: 'string', maxLength: 1024 } },
    },
  },
} as const;

const targetSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'urls'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    type: { type: 'string', enum: ['scrape'] },
    urls: { type: 'array', minItems: 1, maxItems: 1000, items: httpUrl },
    scrapeOptions: scrapeOptionsSchema,
  },
} as const;

const scheduleSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    cron: { type: 'string', minLength: 1, maxLength: 200 },
    timezone: { type: 'string', minLength: 1, maxLength: 64 },
    text: { type: 'string', maxLength: 200 },
  },
} as const;

const webhookSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: httpUrl,
    headers: stringMap,
    metadata: stringMap,
    events: {
      type: 'array',
      maxItems: 20,
      uniqueItems: true,
      items: { type: 'string', enum: [...WEBHOOK_EVENTS] },
    },
  },
} as const;

const notificationSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    email: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        recipients: {
          type: 'array',
          maxItems: 50,
          uniqueItems: true,
          items: { type: 'string', format: 'email', maxLength: 320 },
        },
        includeDiffs: { type: 'boolean' },
      },
    },
  },
} as const;

const common = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  schedule: scheduleSchema,
  targets: { type: 'array', minItems: 1, maxItems: 50, items: targetSchema },
  retentionDays: { type: 'integer', minimum: 1, maximum: 3650 },
  judgeEnabled: { type: 'boolean' },
  /** The official SDK adds `origin` to every JSON body it sends. */
  origin: { type: 'string', maxLength: 200 },
} as const;

export const createMonitorBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'schedule', 'targets'],
  properties: {
    ...common,
    webhook: webhookSchema,
    notification: notificationSchema,
    goal: { type: 'string', maxLength: 4000 },
  },
} as const;

export const updateMonitorBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...common,
    status: { type: 'string', enum: ['active', 'paused'] },
    webhook: { anyOf: [webhookSchema, { type: 'null' }] },
    notification: { anyOf: [notificationSchema, { type: 'null' }] },
    goal: { anyOf: [{ type: 'string', maxLength: 4000 }, { type: 'null' }] },
  },
} as const;

export const listMonitorsQuery = {
  type: 'object',
  // Other query parameters are ignored so that a newer client's extra filters do not break listing.
  additionalProperties: true,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    offset: { type: 'integer', minimum: 0, maximum: 2147483647, default: 0 },
  },
} as const;

export const monitorIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid' } },
} as const;

const nullable = (s: Record<string, unknown>): Record<string, unknown> => ({ anyOf: [s, { type: 'null' }] });
const dateTime = { type: 'string', format: 'date-time' } as const;

export const monitorSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'status',
    'schedule',
    'nextRunAt',
    'lastRunAt',
    'currentCheckId',
    'targets',
    'webhook',
    'notification',
    'retentionDays',
    'estimatedCreditsPerMonth',
    'lastCheckSummary',
    'goal',
    'judgeEnabled',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['active', 'paused'] },
    schedule: {
      type: 'object',
      required: ['cron', 'timezone'],
      properties: { cron: { type: 'string' }, timezone: { type: 'string' } },
    },
    nextRunAt: nullable(dateTime),
    lastRunAt: nullable(dateTime),
    currentCheckId: nullable({ type: 'string', format: 'uuid' }),
    targets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'type', 'urls', 'scrapeOptions'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          type: { type: 'string' },
          urls: { type: 'array', items: { type: 'string' } },
          scrapeOptions: { type: 'object', additionalProperties: true },
        },
      },
    },
    webhook: nullable({
      type: 'object',
      properties: {
        url: { type: 'string' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        metadata: { type: 'object', additionalProperties: { type: 'string' } },
        events: { type: 'array', items: { type: 'string' } },
      },
    }),
    notification: nullable({
      type: 'object',
      properties: {
        email: {
          type: 'object',
          properties: {
            enabled: { type: 'boolean' },
            recipients: { type: 'array', items: { type: 'string' } },
            includeDiffs: { type: 'boolean' },
          },
        },
      },
    }),
    retentionDays: { type: 'integer' },
    estimatedCreditsPerMonth: { type: 'integer' },
    lastCheckSummary: {
      type: 'object',
      properties: Object.fromEntries(
        ['totalPages', 'same', 'changed', 'new', 'removed', 'error'].map((k) => [k, { type: 'integer' }]),
      ),
    },
    goal: nullable({ type: 'string' }),
    judgeEnabled: { type: 'boolean' },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
} as const;

// ---------------------------------------------------------------- rules beyond JSON Schema

const NICKNAMES = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Throws 400 unless `tz` is an IANA time zone name this runtime knows. */
export function checkTimezone(tz: string): string {
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
    if (!resolved) throw new Error('unknown');
  } catch {
    throw badRequest(`schedule.timezone: "${tz}" is not an IANA time zone name (for example "UTC" or "Europe/Paris").`);
  }
  return tz;
}

/** Throws 400 unless `cron` is a five-field cron expression (or a nickname such as @daily). */
export function checkCron(cron: string, timezone: string): Cron {
  const expr = cron.trim();
  if (!NICKNAMES.has(expr.toLowerCase()) && expr.split(/\s+/).length !== 5) {
    throw badRequest(
      `schedule.cron: "${cron}" must have five fields (minute hour day-of-month month day-of-week), for example "*/30 * * * *".`,
    );
  }
  let job: Cron;
  try {
    job = new Cron(expr, { timezone, paused: true });
  } catch (err) {
    throw badRequest(`schedule.cron: "${cron}" is not a valid cron expression: ${(err as Error).message}`);
  }
  if (!job.nextRun(new Date())) throw badRequest(`schedule.cron: "${cron}" never runs.`);
  return job;
}

export function nextRunAt(cron: string, timezone: string, from: Date): string | null {
  const next = checkCron(cron, timezone).nextRun(from);
  return next ? next.toISOString() : null;
}

/** Credits a month: one per URL per run, runs counted from the mean gap of the next runs. */
export function estimateCreditsPerMonth(cron: string, timezone: string, targets: MonitorTarget[], from: Date): number {
  const runs = checkCron(cron, timezone).nextRuns(50, from);
  if (runs.length === 0) return 0;
  const urls = targets.reduce((n, t) => n + t.urls.length, 0);
  let perMonth: number;
  if (runs.length < 2) perMonth = 1;
  else {
    const gap = (runs[runs.length - 1]!.getTime() - runs[0]!.getTime()) / (runs.length - 1);
    perMonth = (30 * 24 * 3600 * 1000) / gap;
  }
  return Math.max(0, Math.round(perMonth * urls));
}

interface ScheduleInput {
  cron?: string;
  timezone?: string;
  text?: string;
}

const DAYS: Record<string, number> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};
const TEXT_FORMS =
  '"every 30 minutes", "every 2 hours", "hourly", "daily", "weekly", "monthly", "daily at 9:00", "every day at 6pm", "weekdays at 08:30", "every monday at 9:15"';

/** Time of day "9", "9:15", "09:15", "6pm", "6:30 am" → [minute, hour]. */
function timeOfDay(text: string): [number, number] | undefined {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(text.trim());
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  if (m[3]) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (m[3] === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return undefined;
  return [minute, hour];
}

/**
 * The plain-words schedules the official SDK documents (`schedule.text`), turned into the cron expression
 * the monitor then carries. Anything else is refused with the forms that are understood.
 */
export function cronFromText(text: string): string {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const fixed: Record<string, string> = {
    hourly: '0 * * * *',
    'every hour': '0 * * * *',
    daily: '0 0 * * *',
    'every day': '0 0 * * *',
    weekly: '0 0 * * 0',
    'every week': '0 0 * * 0',
    monthly: '0 0 1 * *',
    'every month': '0 0 1 * *',
    'every minute': '* * * * *',
  };
  if (fixed[t]) return fixed[t]!;
  let m = /^every (\d{1,2}) minutes?$/.exec(t);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= 59) return `*/${Number(m[1])} * * * *`;
  m = /^every (\d{1,2}) hours?$/.exec(t);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= 23) return `0 */${Number(m[1])} * * *`;
  m =
    /^(?:daily|every day|weekdays|every weekday|every (sunday|monday|tuesday|wednesday|thursday|friday|saturday)) at (.+)$/.exec(
      t,
    );
  if (m) {
    const at = timeOfDay(m[2]!);
    if (at) {
      const dow = m[1] ? String(DAYS[m[1]]) : t.includes('weekday') ? '1-5' : '*';
      return `${at[0]} ${at[1]} * * ${dow}`;
    }
  }
  throw badRequest(
    `schedule.text: "${text}" is not a schedule this server understands; use one of ${TEXT_FORMS}, or give schedule.cron.`,
  );
}

/** Validates a schedule and returns it normalised (timezone defaults to UTC; text becomes cron). */
export function normalizeSchedule(input: ScheduleInput): { cron: string; timezone: string } {
  if (input.text !== undefined && input.cron !== undefined)
    throw badRequest('schedule: give either cron or text, not both.');
  if (input.text === undefined && input.cron === undefined)
    throw badRequest('schedule.cron: required (or schedule.text).');
  const timezone = checkTimezone(input.timezone ?? 'UTC');
  const cron = input.text !== undefined ? cronFromText(input.text) : input.cron!.trim().replace(/\s+/g, ' ');
  checkCron(cron, timezone);
  return { cron, timezone };
}

interface TargetInput {
  id?: string;
  type: 'scrape';
  urls: string[];
  scrapeOptions?: Record<string, unknown>;
}

export function normalizeTargets(input: TargetInput[]): MonitorTarget[] {
  const ids = new Set<string>();
  return input.map((t, i) => {
    const id = t.id ?? randomUUID();
    if (ids.has(id)) throw badRequest(`targets[${i}].id: "${id}" is used by two targets.`);
    ids.add(id);
    t.urls.forEach((u, j) => {
      try {
        const url = new URL(u);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
      } catch {
        throw badRequest(`targets[${i}].urls[${j}]: "${u}" is not an http(s) URL.`);
      }
    });
    return { id, type: 'scrape', urls: [...t.urls], scrapeOptions: t.scrapeOptions ?? {} };
  });
}

interface WebhookInput {
  url: string;
  headers?: Record<string, string>;
  metadata?: Record<string, string>;
  events?: string[];
}

export function normalizeWebhook(input: WebhookInput): MonitorWebhook {
  return {
    url: input.url,
    headers: input.headers ?? {},
    metadata: input.metadata ?? {},
    events: input.events && input.events.length > 0 ? [...input.events] : [...DEFAULT_WEBHOOK_EVENTS],
  };
}

interface NotificationInput {
  email?: { enabled?: boolean; recipients?: string[]; includeDiffs?: boolean };
}

export function normalizeNotification(input: NotificationInput): MonitorNotification {
  const email = input.email ?? {};
  const recipients = email.recipients ?? [];
  const enabled = email.enabled ?? recipients.length > 0;
  if (enabled && recipients.length === 0) {
    throw badRequest(
      'notification.email.recipients: at least one recipient is needed when e-mail notification is enabled.',
    );
  }
  return { email: { enabled, recipients: [...recipients], includeDiffs: email.includeDiffs ?? false } };
}

export interface CreateMonitorInput {
  name: string;
  schedule: ScheduleInput;
  targets: TargetInput[];
  webhook?: WebhookInput;
  notification?: NotificationInput;
  retentionDays?: number;
  goal?: string;
  judgeEnabled?: boolean;
}

export type UpdateMonitorInput = Partial<Omit<CreateMonitorInput, 'webhook' | 'notification' | 'goal'>> & {
  status?: MonitorStatus;
  webhook?: WebhookInput | null;
  notification?: NotificationInput | null;
  goal?: string | null;
};

export function buildMonitor(input: CreateMonitorInput, now: Date): Monitor {
  const schedule = normalizeSchedule(input.schedule);
  const targets = normalizeTargets(input.targets);
  const at = now.toISOString();
  return {
    id: randomUUID(),
    name: input.name.trim() || input.name,
    status: 'active',
    schedule,
    nextRunAt: nextRunAt(schedule.cron, schedule.timezone, now),
    lastRunAt: null,
    currentCheckId: null,
    targets,
    webhook: input.webhook ? normalizeWebhook(input.webhook) : null,
    notification: input.notification ? normalizeNotification(input.notification) : null,
    retentionDays: input.retentionDays ?? DEFAULT_RETENTION_DAYS,
    estimatedCreditsPerMonth: estimateCreditsPerMonth(schedule.cron, schedule.timezone, targets, now),
    lastCheckSummary: { ...ZERO_SUMMARY },
    goal: input.goal ?? null,
    judgeEnabled: input.judgeEnabled ?? false,
    createdAt: at,
    updatedAt: at,
  };
}

/** Applies a PATCH; schedule, status and targets changes recompute nextRunAt and the estimate. */
export function applyUpdate(current: Monitor, patch: UpdateMonitorInput, now: Date): Monitor {
  const next: Monitor = { ...current };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.schedule !== undefined) {
    const given = patch.schedule;
    // A change of time zone alone keeps the cron expression; text or cron replaces it.
    const cron = given.cron === undefined && given.text === undefined ? current.schedule.cron : given.cron;
    next.schedule = normalizeSchedule({
      timezone: given.timezone ?? current.schedule.timezone,
      cron,
      text: given.text,
    });
  }
  if (patch.targets !== undefined) next.targets = normalizeTargets(patch.targets);
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.webhook !== undefined) next.webhook = patch.webhook === null ? null : normalizeWebhook(patch.webhook);
  if (patch.notification !== undefined)
    next.notification = patch.notification === null ? null : normalizeNotification(patch.notification);
  if (patch.retentionDays !== undefined) next.retentionDays = patch.retentionDays;
  if (patch.goal !== undefined) next.goal = patch.goal;
  if (patch.judgeEnabled !== undefined) next.judgeEnabled = patch.judgeEnabled;
  next.nextRunAt = next.status === 'active' ? nextRunAt(next.schedule.cron, next.schedule.timezone, now) : null;
  next.estimatedCreditsPerMonth = estimateCreditsPerMonth(
    next.schedule.cron,
    next.schedule.timezone,
    next.targets,
    now,
  );
  next.updatedAt = now.toISOString();
  return next;
}
