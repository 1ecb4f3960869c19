/**
 * One check of one monitor: fetch every URL of every target, convert it with docmill under the target's
 * scrapeOptions, compare it with the URL's last snapshot, store the pages, the new snapshots and the
 * outcome, then notify (webhook events, e-mail) and apply the retention period.
 *
 * A check may be run again after the instance running it died: starting it drops the pages of the earlier
 * attempt, and a check already finished is left alone, so a check's outcome is written once.
 */
import { randomUUID } from 'node:crypto';
import type { Parser } from '../../parser.js';
import type { Monitor, MonitorSummary, MonitorTarget } from '../monitors.js';
import { ZERO_SUMMARY } from '../monitors.js';
import type { CheckStore, MonitorCheck, NewPage, PageStatus, Snapshot } from './check-store.js';
import { inBatches } from './concurrency.js';
import { filenameOf, planParse } from './convert.js';
import { contentHash, pageDiff } from './diff.js';
import { sendCheckEmail, type EmailOutcome, type EmailSettings } from './email.js';
import { fetchPage, FetchError } from './fetcher.js';
import type { AddressGuard } from './ssrf.js';
import { CHECK_COMPLETED_EVENT, deliver, PAGE_EVENT, type Delivery, type WebhookSettings } from './webhooks.js';

export interface RunnerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunnerDeps {
  checks: CheckStore;
  parser: Parser;
  guard: AddressGuard;
  webhook: WebhookSettings;
  email: EmailSettings | undefined;
  /** Pages of one check fetched and converted at once. */
  pageConcurrency: number;
  instanceId: string;
  now: () => Date;
  log: RunnerLog;
}

const FINISHED = new Set(['completed', 'partial', 'failed', 'skipped_overlap', 'skipped_no_credits']);
/** Snapshot hash of a URL that answered 404/410: the next 404 is `same`, content again is `new`. */
const GONE = 'gone:';

interface PageOutcome {
  page: NewPage;
  snapshot?: Snapshot;
  dropSnapshot?: boolean;
}

function errorPage(base: Omit<NewPage, 'status' | 'error'>, error: string): PageOutcome {
  return { page: { ...base, status: 'error', error } };
}

async function checkPage(
  deps: RunnerDeps,
  monitor: Monitor,
  checkId: string,
  target: MonitorTarget,
  url: string,
  previous: Snapshot | undefined,
): Promise<PageOutcome> {
  const plan = planParse(target.scrapeOptions);
  const at = deps.now().toISOString();
  const id = randomUUID();
  const prevId = previous && !previous.contentHash.startsWith(GONE) ? previous.pageId : null;
  const base: Omit<NewPage, 'status' | 'error'> = {
    id,
    checkId,
    monitorId: monitor.id,
    targetId: target.id,
    url,
    statusCode: null,
    contentHash: null,
    diff: null,
    metadata: plan.ignored.length > 0 ? { sourceURL: url, ignoredOptions: plan.ignored } : { sourceURL: url },
    snapshot: null,
    previousPageId: prevId,
    createdAt: at,
  };
  let fetched;
  try {
    fetched = await fetchPage(url, {
      timeoutMs: plan.timeoutMs,
      headers: plan.headers,
      guard: deps.guard,
      skipTlsVerification: plan.skipTlsVerification,
    });
  } catch (err) {
    const reason = err instanceof FetchError ? `${err.code}: ${err.message}` : (err as Error).message;
    return errorPage(base, reason);
  }
  const metadata: Record<string, unknown> = {
    ...base.metadata,
    url: fetched.finalUrl,
    statusCode: fetched.status,
    ...(fetched.contentType ? { contentType: fetched.contentType } : {}),
    ...(fetched.redirects.length > 0 ? { redirects: fetched.redirects } : {}),
  };
  const withStatus = { ...base, statusCode: fetched.status, metadata };
  if (fetched.status === 404 || fetched.status === 410) {
    const gone = `${GONE}${fetched.status}`;
    const status: PageStatus = previous?.contentHash.startsWith(GONE) ? 'same' : 'removed';
    const tombstone: Snapshot = {
      url,
      targetId: target.id,
      contentHash: gone,
      markdown: '',
      json: undefined,
      pageId: id,
      updatedAt: at,
    };
    return { page: { ...withStatus, status, error: null, contentHash: gone }, snapshot: tombstone };
  }
  if (fetched.status >= 400 || fetched.status < 200) return errorPage(withStatus, `HTTP ${fetched.status}`);

  let doc;
  try {
    doc = await deps.parser.parseFile(fetched.body, plan.options, {
      filename: filenameOf(fetched.finalUrl),
      ...(fetched.contentType ? { contentType: fetched.contentType.split(';')[0]!.trim() } : {}),
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    return errorPage(withStatus, `${code ? `${code}: ` : ''}${(err as Error).message}`);
  }
  const markdown = doc.markdown ?? '';
  const json = plan.wantsJson ? (doc.json ?? null) : undefined;
  const hash = contentHash(markdown, json);
  if (typeof doc.metadata.title === 'string') metadata['title'] = doc.metadata.title;
  if (doc.warning) metadata['warning'] = doc.warning;
  const snapshotJson = plan.wantsJson ? { json: (json ?? {}) as Record<string, unknown> } : null;
  const snapshot: Snapshot = { url, targetId: target.id, contentHash: hash, markdown, json, pageId: id, updatedAt: at };
  const page: NewPage = { ...withStatus, status: 'new', error: null, contentHash: hash, snapshot: snapshotJson };
  if (!previous || previous.contentHash.startsWith(GONE)) return { page, snapshot };
  if (previous.contentHash === hash) {
    // Same content: the snapshot keeps its page id (the diff base) but counts as seen for retention.
    return { page: { ...page, status: 'same' }, snapshot: { ...previous, targetId: target.id, updatedAt: at } };
  }
  const diff = pageDiff(url, { markdown: previous.markdown, json: previous.json }, { markdown, json }, plan.wantsJson);
  return { page: { ...page, status: 'changed', diff }, snapshot };
}

function summarize(pages: NewPage[]): MonitorSummary {
  const s: MonitorSummary = { ...ZERO_SUMMARY, totalPages: pages.length };
  for (const p of pages) s[p.status]++;
  return s;
}

function outcomeStatus(s: MonitorSummary): 'completed' | 'partial' | 'failed' {
  if (s.error === 0) return 'completed';
  return s.error === s.totalPages ? 'failed' : 'partial';
}

/** Runs the check with this id; a check already finished (or whose monitor is gone) is left alone. */
export async function runCheck(deps: RunnerDeps, checkId: string): Promise<void> {
  const first = await deps.checks.check(checkId);
  if (!first || FINISHED.has(first.status)) return;
  const monitor = await deps.checks.monitorById(first.monitorId);
  if (!monitor) return;
  const startedAt = deps.now().toISOString();
  await deps.checks.startCheck(checkId, monitor.id, startedAt, deps.instanceId);

  let pages: NewPage[] = [];
  let summary: MonitorSummary = { ...ZERO_SUMMARY };
  try {
    const snapshots = await deps.checks.snapshots(monitor.id);
    const seen = new Set<string>();
    const items: Array<{ target: MonitorTarget; url: string }> = [];
    for (const target of monitor.targets) {
      for (const url of target.urls) {
        if (seen.has(url)) continue;
        seen.add(url);
        items.push({ target, url });
      }
    }
    const outcomes = await inBatches(items, deps.pageConcurrency, (i) =>
      checkPage(deps, monitor, checkId, i.target, i.url, snapshots.get(i.url)),
    );
    // A URL that left every target is removed once; its snapshot goes with it.
    const left = [...snapshots.values()].filter((s) => !seen.has(s.url));
    const at = deps.now().toISOString();
    for (const s of left) {
      if (s.contentHash.startsWith(GONE)) continue;
      outcomes.push({
        page: {
          id: randomUUID(),
          checkId,
          monitorId: monitor.id,
          targetId: s.targetId,
          url: s.url,
          status: 'removed',
          statusCode: null,
          contentHash: null,
          error: null,
          diff: null,
          metadata: { sourceURL: s.url, reason: 'no longer a URL of any target' },
          snapshot: null,
          previousPageId: s.pageId,
          createdAt: at,
        },
      });
    }
    pages = outcomes.map((o) => o.page);
    summary = summarize(pages);
    await deps.checks.savePages(
      pages,
      outcomes.flatMap((o) => (o.snapshot ? [{ monitorId: monitor.id, snapshot: o.snapshot }] : [])),
      left.map((s) => ({ monitorId: monitor.id, url: s.url })),
    );
    const status = outcomeStatus(summary);
    const error =
      status === 'completed' ? null : `${summary.error} of ${summary.totalPages} pages could not be checked.`;
    await deps.checks.finishCheck(checkId, monitor.id, {
      status,
      summary,
      error,
      at: deps.now().toISOString(),
      credits: items.length,
    });
  } catch (err) {
    deps.log.error({ err, checkId, monitorId: monitor.id }, 'monitor check failed');
    await deps.checks.finishCheck(checkId, monitor.id, {
      status: 'failed',
      summary,
      error: (err as Error).message,
      at: deps.now().toISOString(),
      credits: 0,
    });
    pages = [];
  }
  const finished = await deps.checks.check(checkId, monitor);
  if (finished) await notify(deps, monitor, finished, pages);
  const cutoff = new Date(deps.now().getTime() - monitor.retentionDays * 86400_000).toISOString();
  await deps.checks.applyRetention(monitor.id, cutoff);
}

async function notify(deps: RunnerDeps, monitor: Monitor, check: MonitorCheck, pages: NewPage[]): Promise<void> {
  const webhook = monitor.webhook;
  const emailWanted = monitor.notification?.email.enabled === true;
  if (!webhook && !emailWanted) return;
  const timestamp = deps.now().toISOString();
  const common = { monitorId: monitor.id, monitorName: monitor.name, checkId: check.id, timestamp };

  const webhookWork = async (): Promise<{
    url: string;
    delivered: number;
    failed: number;
    deliveries: Delivery[];
  } | null> => {
    if (!webhook) return null;
    const jobs: Array<{ event: string; pageUrl?: string; payload: Record<string, unknown> }> = [];
    if (webhook.events.includes(PAGE_EVENT)) {
      for (const p of pages) {
        if (p.status === 'same') continue;
        const page = {
          url: p.url,
          targetId: p.targetId,
          status: p.status,
          statusCode: p.statusCode,
          error: p.error,
          diff: p.diff,
        };
        jobs.push({
          event: PAGE_EVENT,
          pageUrl: p.url,
          payload: { event: PAGE_EVENT, ...common, page, metadata: webhook.metadata },
        });
      }
    }
    if (webhook.events.includes(CHECK_COMPLETED_EVENT)) {
      const { id: _id, monitorId: _m, notificationStatus: _n, targetResults: _t, ...rest } = check;
      jobs.push({
        event: CHECK_COMPLETED_EVENT,
        payload: { event: CHECK_COMPLETED_EVENT, ...common, check: rest, metadata: webhook.metadata },
      });
    }
    const deliveries = await inBatches(jobs, deps.webhook.concurrency ?? 8, async (j) => {
      const d = await deliver(webhook, j.event, j.payload, deps.webhook);
      return j.pageUrl ? { ...d, pageUrl: j.pageUrl } : d;
    });
    const delivered = deliveries.filter((d) => d.status === 'delivered').length;
    return { url: webhook.url, delivered, failed: deliveries.length - delivered, deliveries };
  };
  const emailWork = async (): Promise<EmailOutcome | { status: 'failed'; error: string } | null> => {
    if (!emailWanted) return null;
    if (!deps.email) return { status: 'failed', error: 'DOCMILL_SMTP_URL is not set on this instance.' };
    const changed = pages.filter((p) => p.status !== 'same');
    return sendCheckEmail(deps.email, monitor, check.id, check.summary, changed);
  };
  const [webhookStatus, emailStatus] = await Promise.all([webhookWork(), emailWork()]);
  await deps.checks.setNotificationStatus(check.id, { webhook: webhookStatus, email: emailStatus });
}
