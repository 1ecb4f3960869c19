/**
 * E-mail notification of a check that found changes: one message to the monitor's recipients through
 * the SMTP server of DOCMILL_SMTP_URL (nodemailer), listing the pages that are new, changed, removed or in
 * error, with their diffs when `includeDiffs` is true.
 */
import nodemailer from 'nodemailer';
import type { Monitor, MonitorSummary } from '../monitors.js';
import type { PageDiff } from './diff.js';

export interface EmailSettings {
  smtpUrl: string;
  from: string;
  /** Connection, greeting and socket timeout: a dead SMTP server cannot hold a check. */
  timeoutMs: number;
}

export interface EmailPage {
  url: string;
  status: string;
  error: string | null;
  diff: PageDiff | null;
}

export interface EmailOutcome {
  status: 'sent' | 'failed' | 'not_needed';
  recipients: string[];
  messageId?: string;
  error?: string;
}

/** A change worth a message: anything but `same` (errors too: a page that stops loading is news). */
export function hasChanges(summary: MonitorSummary): boolean {
  return summary.changed + summary.new + summary.removed > 0;
}

export function composeMessage(
  monitor: Monitor,
  checkId: string,
  summary: MonitorSummary,
  pages: EmailPage[],
  includeDiffs: boolean,
): { subject: string; text: string } {
  const counts = `${summary.changed} changed, ${summary.new} new, ${summary.removed} removed, ${summary.error} in error`;
  const subject = `[docmill] ${monitor.name}: ${counts}`;
  const lines = [
    `Monitor "${monitor.name}" (${monitor.id}), check ${checkId}: ${counts} of ${summary.totalPages} pages.`,
    '',
  ];
  for (const p of pages) {
    lines.push(`${p.status.toUpperCase()}  ${p.url}${p.error ? `  (${p.error})` : ''}`);
    if (includeDiffs && p.diff?.text) lines.push('', p.diff.text.trimEnd(), '');
    else if (includeDiffs && p.diff?.json) lines.push('', JSON.stringify(p.diff.json, null, 2), '');
  }
  return { subject, text: `${lines.join('\n')}\n` };
}

export async function sendCheckEmail(
  settings: EmailSettings,
  monitor: Monitor,
  checkId: string,
  summary: MonitorSummary,
  pages: EmailPage[],
): Promise<EmailOutcome> {
  const email = monitor.notification?.email;
  const recipients = email?.recipients ?? [];
  if (!email?.enabled || recipients.length === 0 || !hasChanges(summary)) return { status: 'not_needed', recipients };
  const { subject, text } = composeMessage(monitor, checkId, summary, pages, email.includeDiffs);
  const transport = nodemailer.createTransport({
    url: settings.smtpUrl,
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  try {
    const info = (await transport.sendMail({ from: settings.from, to: recipients, subject, text })) as {
      messageId?: string;
    };
    return { status: 'sent', recipients, ...(info.messageId ? { messageId: info.messageId } : {}) };
  } catch (err) {
    return { status: 'failed', recipients, error: (err as Error).message };
  } finally {
    transport.close();
  }
}
