/**
 * What changed between two snapshots of a page: a git-style unified diff of the markdown (with its
 * parsed form, as the official SDK's `MonitorPageDiff.json` carries for markdown monitors) and, for the
 * `json` format, a per-field `{previous, current}` map.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { structuredPatch } from 'diff';
import parseDiff from 'parse-diff';

export interface PageDiff {
  text?: string;
  json?: Record<string, { previous: unknown; current: unknown }> | { files: unknown[] };
}

/** Diffing two very different large pages is quadratic at worst; past this the diff says so instead. */
const DIFF_TIMEOUT_MS = 2000;

export function contentHash(markdown: string, json: unknown): string {
  const h = createHash('sha256').update(markdown);
  if (json !== undefined) h.update('\u0000').update(JSON.stringify(json) ?? 'null');
  return h.digest('hex');
}

/** A git-style unified diff (`diff --git`, `---`/`+++`, `@@` hunks with 3 lines of context). */
export function unifiedDiff(path: string, previous: string, current: string): string {
  const name = path.replace(/^[a-z]+:\/\//i, '');
  const patch = structuredPatch(`a/${name}`, `b/${name}`, previous, current, undefined, undefined, {
    context: 3,
    timeout: DIFF_TIMEOUT_MS,
  });
  const head = `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n`;
  if (!patch) return `${head}@@ the pages differ too much to diff within ${DIFF_TIMEOUT_MS} ms @@\n`;
  const hunks = patch.hunks.map((h) => {
    const range = (start: number, lines: number): string =>
      lines === 1 ? String(start) : `${lines === 0 ? start : start},${lines}`;
    return `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@\n${h.lines.join('\n')}\n`;
  });
  return head + hunks.join('');
}

/** The parsed form of a unified diff (files → chunks → changes). */
export function parsedDiff(text: string): { files: unknown[] } {
  return { files: parseDiff(text) };
}

function asRecord(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Top-level fields whose values differ, each with its previous and current value (null when absent). */
export function jsonFieldDiff(
  previous: unknown,
  current: unknown,
): Record<string, { previous: unknown; current: unknown }> {
  const a = asRecord(previous);
  const b = asRecord(current);
  const out: Record<string, { previous: unknown; current: unknown }> = {};
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!isDeepStrictEqual(a[key], b[key])) out[key] = { previous: a[key] ?? null, current: b[key] ?? null };
  }
  return out;
}

/** The diff a changed page carries: text (+ its parsed form) for markdown, fields for JSON. */
export function pageDiff(
  url: string,
  previous: { markdown: string; json: unknown },
  current: { markdown: string; json: unknown },
  wantsJson: boolean,
): PageDiff {
  const out: PageDiff = {};
  if (previous.markdown !== current.markdown) out.text = unifiedDiff(url, previous.markdown, current.markdown);
  if (wantsJson) out.json = jsonFieldDiff(previous.json, current.json);
  else if (out.text) out.json = parsedDiff(out.text);
  return out;
}
