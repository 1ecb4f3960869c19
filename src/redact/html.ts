/**
 * Redaction of the html and rawHtml formats: text nodes and the attributes people read or follow
 * (href, src, alt, title, content, value) are searched; tags, scripts and styles keep their bytes.
 * Replacements are written as HTML text (`&lt;EMAIL&gt;`), so a tag placeholder never becomes markup.
 */
import type { ReplaceStyle } from '../options/schema.js';
import type { DetectOptions } from './detect.js';
import { detect } from './detect.js';
import { applyEdits, replacement, type Edit } from './markdown.js';

const TAG = /<!--[\s\S]*?-->|<(script|style|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>|<\/?[A-Za-z][^>]*>|<![^>]*>/gi;
const ATTR = /\b(href|src|alt|title|content|value|placeholder|aria-label)\s*=\s*("([^"]*)"|'([^']*)')/gi;

export function redactHtml(html: string, options: DetectOptions, style: ReplaceStyle): string {
  const chars: string[] = [];
  const map: number[] = [];
  const text = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      chars.push(html[i]!);
      map.push(i);
    }
  };
  const sep = (ch: string): void => {
    chars.push(ch);
    map.push(-1);
  };
  let at = 0;
  TAG.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TAG.exec(html)) !== null) {
    text(at, m.index);
    sep('\n');
    if (!m[1]) {
      ATTR.lastIndex = 0;
      let a: RegExpExecArray | null;
      while ((a = ATTR.exec(m[0])) !== null) {
        const value = a[3] ?? a[4] ?? '';
        const start = m.index + a.index + a[0].length - value.length - 1;
        text(start, start + value.length);
        sep('\n');
      }
    }
    at = m.index + m[0].length;
  }
  text(at, html.length);
  const projected = chars.join('');
  const edits: Edit[] = [];
  for (const d of detect(projected, options)) {
    let first = true;
    let runStart = -1;
    let runEnd = -1;
    const flush = (): void => {
      if (runStart < 0) return;
      const original = html.slice(runStart, runEnd);
      const rep = replacement(d.entity, original, style, first).replace(/</g, '&lt;').replace(/>/g, '&gt;');
      edits.push({ start: runStart, end: runEnd, text: rep });
      first = false;
      runStart = -1;
    };
    for (let p = d.start; p < d.end; p++) {
      const i = map[p]!;
      if (i < 0) {
        flush();
        continue;
      }
      if (runStart >= 0 && i === runEnd) runEnd++;
      else {
        flush();
        runStart = i;
        runEnd = i + 1;
      }
    }
    flush();
  }
  edits.sort((x, y) => x.start - y.start);
  const clean: Edit[] = [];
  for (const e of edits) if (!clean.length || e.start >= clean[clean.length - 1]!.end) clean.push(e);
  return applyEdits(html, clean);
}
