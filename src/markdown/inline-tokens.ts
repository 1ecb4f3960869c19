/**
 * Inline content as markdown tokens: text runs, literal markdown (code spans, links, images, breaks) and
 * the emphasis markers placed around spans of text with a stack over the runs, moved off white space.
 */
import { BASE64_IMAGE_PLACEHOLDER } from '../formats/base64-images.js';
import type { Inline, TextInline } from '../model/document.js';
import { escapeLabel } from './escape.js';
import { type Mark, MARKS, type Tok, type Item, type Span } from './tokens.js';

export function codeSpan(s: string, inTable: boolean): string {
  const longest = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  // GFM splits table cells on unescaped pipes even inside code spans.
  return `${fence}${pad}${inTable ? s.replace(/\|/g, '\\|') : s}${pad}${fence}`;
}

export function linkDestination(url: string): string {
  // Written as the HTML path writes it (a pointy-bracket destination already).
  if (url === BASE64_IMAGE_PLACEHOLDER) return url;
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}

/** GFM footnote labels may not hold white space or brackets. */
export function noteLabel(label: string): string {
  return label.replace(/[\s\[\]^]+/g, '-') || 'note';
}

export function runToks(run: TextInline, inTable: boolean, label: boolean): Tok[] {
  let toks: Tok[] = run.code
    ? [{ t: 'raw', s: codeSpan(run.text.replace(/\n/g, ' '), inTable) }]
    : [{ t: 'text', s: run.text, label }];
  if (run.superscript) toks = [{ t: 'raw', s: '<sup>' }, ...toks, { t: 'raw', s: '</sup>' }];
  if (run.subscript) toks = [{ t: 'raw', s: '<sub>' }, ...toks, { t: 'raw', s: '</sub>' }];
  return toks;
}

export const runMarks = (run: TextInline): Set<Mark> => new Set(MARKS.filter((m) => run[m]));
export const isSpace = (run: TextInline): boolean =>
  !run.code && !run.superscript && !run.subscript && !/\S/.test(run.text);

export function runItem(run: TextInline, inTable: boolean, label: boolean): Item {
  return { marks: runMarks(run), flexible: isSpace(run), toks: runToks(run, inTable, label) };
}

/** A flexible item takes the marks its nearest fixed neighbours share. */
export function resolveFlexible(items: Item[]): void {
  const fixed = items.map((it) => (it.flexible ? null : it.marks));
  let before: Set<Mark> | null = null;
  const prev: (Set<Mark> | null)[] = fixed.map((m) => {
    const b = before;
    if (m) before = m;
    return b;
  });
  let after: Set<Mark> | null = null;
  for (let i = items.length - 1; i >= 0; i--) {
    if (fixed[i]) after = fixed[i]!;
    else {
      const p = prev[i];
      items[i]!.marks = new Set(p && after ? [...p].filter((m) => after!.has(m)) : []);
    }
  }
}

/** Opens and closes only the marks that change between items, the longest-lasting outermost. */
export function stackRender(items: readonly Item[], out: Tok[], spans: Map<number, Span>): void {
  const stack: { m: Mark; id: number }[] = [];
  const close = (): void => {
    const e = stack.pop()!;
    out.push({ t: 'mark', m: e.m, open: false, id: e.id });
  };
  items.forEach((item, i) => {
    const k = stack.findIndex((e) => !item.marks.has(e.m));
    if (k >= 0) while (stack.length > k) close();
    const lasts = (m: Mark): number => {
      let j = i;
      while (j < items.length && items[j]!.marks.has(m)) j++;
      return j - i;
    };
    const opening = MARKS.filter((m) => item.marks.has(m) && !stack.some((e) => e.m === m)).sort(
      (a, b) => lasts(b) - lasts(a),
    );
    for (const m of opening) {
      const e = { m, id: spans.size };
      spans.set(e.id, { m, items: [] });
      stack.push(e);
      out.push({ t: 'mark', m, open: true, id: e.id });
    }
    for (const e of stack) spans.get(e.id)!.items.push(item);
    out.push(...(item.link ? linkToks(item.link, spans) : item.toks));
  });
  while (stack.length) close();
}

export function linkToks(link: NonNullable<Item['link']>, spans: Map<number, Span>): Tok[] {
  const label: Tok[] = [];
  stackRender(link.label, label, spans);
  return [
    { t: 'raw', s: '[', link: 'open' },
    ...label,
    { t: 'raw', s: `](${linkDestination(link.href)})`, link: 'close' },
  ];
}

/** CommonMark's autolinks: an absolute URI, or an e-mail address (which links to mailto:). */
export const AUTOLINK_URI = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\x00-\x1f]*$/;
export const AUTOLINK_EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * A link whose label is its own address written out (a URL, or an e-mail address linked to itself)
 * as an autolink, `<https://example.org/a>`, rather than the address twice over. A label that drops
 * the slash of a bare host stands for the address with it. Null for any other link, and in a table
 * for an address with a pipe (which would end the cell: autolinks take no escapes).
 */
export function autolink(run: TextInline, href: string, inTable: boolean): Tok[] | null {
  if (run.code || run.superscript || run.subscript) return null;
  const label = run.text;
  const shown =
    AUTOLINK_URI.test(href) && (label === href || `${label}/` === href)
      ? href
      : href === `mailto:${label}` && AUTOLINK_EMAIL.test(label)
        ? label
        : null;
  if (!shown || (inTable && shown.includes('|'))) return null;
  // The address as read back is plain text; the brackets are syntax.
  return [
    { t: 'raw', s: '<' },
    { t: 'raw', s: shown, literal: true },
    { t: 'raw', s: '>' },
  ];
}

export function buildItems(inlines: readonly Inline[], inTable: boolean): Item[] {
  // Runs with the same marks are one run.
  const runs: Inline[] = [];
  for (const inline of inlines) {
    if (inline.type === 'text') {
      if (!inline.text) continue;
      const last = runs[runs.length - 1];
      if (last?.type === 'text' && sameMarks(last, inline))
        runs[runs.length - 1] = { ...last, text: last.text + inline.text };
      else runs.push(inline);
    } else runs.push(inline);
  }
  const items: Item[] = [];
  const space = (s: string): Item => ({ marks: new Set(), flexible: true, toks: [{ t: 'text', s, label: false }] });
  for (let i = 0; i < runs.length; i++) {
    const inline = runs[i]!;
    if (inline.type === 'text' && inline.href) {
      const group: TextInline[] = [inline];
      while (i + 1 < runs.length) {
        const next = runs[i + 1]!;
        if (next.type !== 'text' || next.href !== inline.href) break;
        group.push(next);
        i++;
      }
      if (group.every(isSpace)) {
        items.push(space(group.map((r) => r.text).join('')));
        items.push({
          marks: new Set(),
          flexible: false,
          toks: [
            { t: 'raw', s: '[', link: 'open' },
            { t: 'text', s: inline.href, label: true },
            { t: 'raw', s: `](${linkDestination(inline.href)})`, link: 'close' },
          ],
        });
        continue;
      }
      // White space at the ends of the label goes outside the link.
      const runsIn = group.map((r) => ({ ...r }));
      let lead = '';
      let trail = '';
      while (isSpace(runsIn[0]!)) lead += runsIn.shift()!.text;
      while (isSpace(runsIn[runsIn.length - 1]!)) trail = runsIn.pop()!.text + trail;
      const first = runsIn[0]!;
      const last = runsIn[runsIn.length - 1]!;
      if (!first.code) {
        lead += /^\s*/.exec(first.text)![0];
        first.text = first.text.replace(/^\s+/, '');
      }
      if (!last.code) {
        trail = /\s*$/.exec(last.text)![0] + trail;
        last.text = last.text.replace(/\s+$/, '');
      }
      const common = MARKS.filter((m) => runsIn.every((r) => r[m]));
      if (lead) items.push(space(lead));
      const auto = runsIn.length === 1 ? autolink(runsIn[0]!, inline.href, inTable) : null;
      if (auto) items.push({ marks: new Set(common), flexible: false, toks: auto });
      else
        items.push({
          marks: new Set(common),
          flexible: false,
          toks: [],
          link: { label: runsIn.map((run) => runItem(run, inTable, true)), href: inline.href },
        });
      if (trail) items.push(space(trail));
      continue;
    }
    if (inline.type === 'text') items.push(runItem(inline, inTable, false));
    else if (inline.type === 'break')
      items.push({ marks: new Set(), flexible: true, toks: [{ t: 'raw', s: inTable ? '<br>' : '\\\n' }] });
    else if (inline.type === 'image')
      items.push({
        marks: new Set(),
        flexible: true,
        toks: [
          {
            t: 'raw',
            s: `![${escapeLabel(inline.alt, inTable).replace(/[\r\n]+/g, ' ')}](${linkDestination(inline.src ?? '')})`,
          },
        ],
      });
    else if (inline.type === 'math')
      items.push({ marks: new Set(), flexible: true, toks: [{ t: 'raw', s: `$${inline.latex}$`, literal: true }] });
    else if (inline.type === 'noteRef')
      items.push({
        marks: new Set(),
        flexible: true,
        toks: [{ t: 'raw', s: `[^${noteLabel(inline.label)}]`, literal: true }],
      });
  }
  // A link's own marks stay outside it only where they go on from a neighbour; else the label carries them.
  const fixedAt = (from: number, step: number): Set<Mark> => {
    for (let j = from; j >= 0 && j < items.length; j += step) if (!items[j]!.flexible) return items[j]!.marks;
    return new Set();
  };
  const outer = items.map((item, i) => {
    if (!item.link) return item.marks;
    const near = new Set([...fixedAt(i - 1, -1), ...fixedAt(i + 1, 1)]);
    return new Set([...item.marks].filter((m) => near.has(m)));
  });
  items.forEach((item, i) => {
    item.marks = outer[i]!;
    // Consecutive runs with one address make one link; its label carries the marks the link does not.
    if (!item.link) return;
    for (const inner of item.link.label) inner.marks = new Set([...inner.marks].filter((m) => !item.marks.has(m)));
    resolveFlexible(item.link.label);
  });
  resolveFlexible(items);
  return items;
}

/** Emphasis may not open before or close after white space: the spaces go outside the markers. */
export function moveSpaces(toks: Tok[]): Tok[] {
  const out = toks.map((t) => ({ ...t }));
  for (let moved = true; moved;) {
    moved = false;
    for (let i = 0; i < out.length; i++) {
      const tok = out[i]!;
      if (tok.t !== 'mark') continue;
      if (tok.open) {
        const next = out[i + 1];
        const ws = next?.t === 'text' ? /^\s+/.exec(next.s)?.[0] : undefined;
        if (!ws || next?.t !== 'text') continue;
        next.s = next.s.slice(ws.length);
        out.splice(i, 0, { t: 'text', s: ws, label: next.label });
        if (!next.s) out.splice(i + 2, 1);
        moved = true;
      } else {
        const prev = out[i - 1];
        const ws = prev?.t === 'text' ? /\s+$/.exec(prev.s)?.[0] : undefined;
        if (!ws || prev?.t !== 'text') continue;
        prev.s = prev.s.slice(0, -ws.length);
        out.splice(i + 1, 0, { t: 'text', s: ws, label: prev.label });
        if (!prev.s) out.splice(i - 1, 1);
        moved = true;
      }
    }
  }
  // Neighbouring text tokens are one.
  const merged: Tok[] = [];
  for (const tok of out) {
    const last = merged[merged.length - 1];
    if (tok.t === 'text' && last?.t === 'text' && last.label === tok.label) last.s += tok.s;
    else merged.push(tok);
  }
  return merged;
}

export type Marks = Pick<TextInline, 'bold' | 'italic' | 'strike' | 'code' | 'href' | 'superscript' | 'subscript'>;

export function sameMarks(a: Marks, b: Marks): boolean {
  return (
    !!a.bold === !!b.bold &&
    !!a.italic === !!b.italic &&
    !!a.strike === !!b.strike &&
    !!a.code === !!b.code &&
    a.href === b.href &&
    !!a.superscript === !!b.superscript &&
    !!a.subscript === !!b.subscript
  );
}
