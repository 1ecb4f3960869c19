/**
 * The one serializer from the document model to markdown. It records, as it writes, the span every
 * block occupies in the document markdown, so that layout blocks can point into it exactly.
 */
import { BASE64_IMAGE_PLACEHOLDER } from '../formats/base64-images.js';
import { decodeHTMLStrict } from 'entities';
import { Lexer, type Token } from 'marked';
import type { BlockType, LayoutBlock, LayoutPage, PageMarkdown } from '../types.js';
import type { DocBlock, DocModel, Inline, ListNode, Node, TableNode, TextInline } from '../model/document.js';

export interface SerializeOptions {
  /** Leave page headers, footers and page numbers out of the markdown. */
  onlyMainContent: boolean;
}

export interface Serialized {
  markdown: string;
  pages: PageMarkdown[];
  layout: LayoutPage[];
}

// ---------------------------------------------------------------- inline tokens
//
// A run of inline content is laid out as a flat list of tokens: text (escaped last, with its
// context in view), literal markdown (code spans, links' brackets and destinations, images, breaks)
// and the emphasis markers around spans of text. The markers are placed with a stack over the
// runs, moved off white space, then checked the way a CommonMark reader pairs them; a span whose
// markers would not pair is left out, since plain text reads better than literal asterisks.

type Mark = 'bold' | 'italic' | 'strike';
/** Outermost first where two marks start and end together. */
const MARKS: readonly Mark[] = ['bold', 'italic', 'strike'];
const MARKER: Record<Mark, string> = { bold: '**', italic: '*', strike: '~~' };

type Tok =
  | { t: 'text'; s: string; label: boolean }
  | {
      t: 'raw';
      s: string;
      link?: 'open' | 'close';
      /** Read as plain text (math, note references without their extensions). */ literal?: boolean;
    }
  | { t: 'mark'; m: Mark; open: boolean; id: number };

interface Item {
  /** The marks the item carries; a flexible item's are resolved from its neighbours. */
  marks: Set<Mark>;
  /** White space, breaks, images and the like: inside a span only when both neighbours are. */
  flexible: boolean;
  toks: Tok[];
  /** A link: its label's items, which carry the marks the link itself does not. */
  link?: { label: Item[]; href: string };
}

/** A span of one mark over items, as laid out; leaving it out takes the mark off those items. */
interface Span {
  m: Mark;
  items: Item[];
}

const tokString = (tok: Tok): string => (tok.t === 'mark' ? MARKER[tok.m] : tok.s);

function codeSpan(s: string, inTable: boolean): string {
  const longest = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  // GFM splits table cells on unescaped pipes even inside code spans.
  return `${fence}${pad}${inTable ? s.replace(/\|/g, '\\|') : s}${pad}${fence}`;
}

function linkDestination(url: string): string {
  // Written as the HTML path writes it (a pointy-bracket destination already).
  if (url === BASE64_IMAGE_PLACEHOLDER) return url;
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}

/** GFM footnote labels may not hold white space or brackets. */
function noteLabel(label: string): string {
  return label.replace(/[\s\[\]^]+/g, '-') || 'note';
}

function runToks(run: TextInline, inTable: boolean, label: boolean): Tok[] {
  let toks: Tok[] = run.code
    ? [{ t: 'raw', s: codeSpan(run.text.replace(/\n/g, ' '), inTable) }]
    : [{ t: 'text', s: run.text, label }];
  if (run.superscript) toks = [{ t: 'raw', s: '<sup>' }, ...toks, { t: 'raw', s: '</sup>' }];
  if (run.subscript) toks = [{ t: 'raw', s: '<sub>' }, ...toks, { t: 'raw', s: '</sub>' }];
  return toks;
}

const runMarks = (run: TextInline): Set<Mark> => new Set(MARKS.filter((m) => run[m]));
const isSpace = (run: TextInline): boolean => !run.code && !run.superscript && !run.subscript && !/\S/.test(run.text);

function runItem(run: TextInline, inTable: boolean, label: boolean): Item {
  return { marks: runMarks(run), flexible: isSpace(run), toks: runToks(run, inTable, label) };
}

/** A flexible item takes the marks its nearest fixed neighbours share. */
function resolveFlexible(items: Item[]): void {
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
function stackRender(items: readonly Item[], out: Tok[], spans: Map<number, Span>): void {
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

function linkToks(link: NonNullable<Item['link']>, spans: Map<number, Span>): Tok[] {
  const label: Tok[] = [];
  stackRender(link.label, label, spans);
  return [
    { t: 'raw', s: '[', link: 'open' },
    ...label,
    { t: 'raw', s: `](${linkDestination(link.href)})`, link: 'close' },
  ];
}

/** CommonMark's autolinks: an absolute URI, or an e-mail address (which links to mailto:). */
const AUTOLINK_URI = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\x00-\x1f]*$/;
const AUTOLINK_EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * A link whose label is its own address written out (a URL, or an e-mail address linked to itself)
 * as an autolink, `<https://example.org/a>`, rather than the address twice over. A label that drops
 * the slash of a bare host stands for the address with it. Null for any other link, and in a table
 * for an address with a pipe (which would end the cell: autolinks take no escapes).
 */
function autolink(run: TextInline, href: string, inTable: boolean): Tok[] | null {
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

function buildItems(inlines: readonly Inline[], inTable: boolean): Item[] {
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
function moveSpaces(toks: Tok[]): Tok[] {
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

// ---------------------------------------------------------------- delimiter runs

const PUNCT = /[\p{P}\p{S}]/u;

type CharClass = 'space' | 'punct' | 'other';

/**
 * `tildePunct` false reads `~` as marked does for `*` and `_` under GFM (not punctuation);
 * true as CommonMark does. Markers are kept only where both readings agree.
 */
function charClass(c: string | undefined, tildePunct: boolean): CharClass {
  if (c === undefined || /\s/u.test(c)) return 'space';
  if (c === '~' && !tildePunct) return 'other';
  return PUNCT.test(c) ? 'punct' : 'other';
}

function charBefore(s: string, i: number): string | undefined {
  if (i <= 0) return undefined;
  const c = s.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? s.slice(i - 2, i) : s[i - 1];
}

function charAfter(s: string, i: number): string | undefined {
  if (i >= s.length) return undefined;
  return String.fromCodePoint(s.codePointAt(i)!);
}

interface Flanking {
  left: boolean;
  right: boolean;
  prevPunct: boolean;
  nextPunct: boolean;
}

function flanking(prev: string | undefined, next: string | undefined, tildePunct: boolean): Flanking {
  const p = charClass(prev, tildePunct);
  const n = charClass(next, tildePunct);
  return {
    left: n !== 'space' && (n !== 'punct' || p !== 'other'),
    right: p !== 'space' && (p !== 'punct' || n !== 'other'),
    prevPunct: p === 'punct',
    nextPunct: n === 'punct',
  };
}

function canOpen(c: string, f: Flanking): boolean {
  return c === '_' ? f.left && (!f.right || f.prevPunct) : f.left;
}

function canClose(c: string, f: Flanking): boolean {
  return c === '_' ? f.right && (!f.left || f.nextPunct) : f.right;
}

// ---------------------------------------------------------------- checking markers

interface Run {
  fam: '*' | '~';
  /** Token indices [from, to). */
  from: number;
  to: number;
  scope: number;
  open: boolean;
  close: boolean;
  count: number;
  orig: number;
  removed: boolean;
}

function layout(toks: readonly Tok[]): { str: string; at: number[] } {
  let str = '';
  const at: number[] = [];
  for (const tok of toks) {
    at.push(str.length);
    str += tokString(tok);
  }
  at.push(str.length);
  return { str, at };
}

/** The delimiter runs the markers make, with what they can do. */
function markerRuns(toks: readonly Tok[], tildePunct: boolean): Run[] {
  const { str, at } = layout(toks);
  const runs: Run[] = [];
  let scope = 0;
  let scopes = 0;
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (tok.t === 'raw' && tok.link === 'open') scope = ++scopes;
    if (tok.t === 'raw' && tok.link === 'close') scope = 0;
    if (tok.t !== 'mark') continue;
    const fam = tok.m === 'strike' ? '~' : '*';
    let j = i + 1;
    while (j < toks.length && toks[j]!.t === 'mark' && ((toks[j] as { m: Mark }).m === 'strike') === (fam === '~')) j++;
    const f = flanking(charBefore(str, at[i]!), charAfter(str, at[j]!), tildePunct);
    const count = at[j]! - at[i]!;
    // GFM strikethrough takes runs of one or two tildes only.
    const usable = fam === '*' || count <= 2;
    runs.push({
      fam,
      from: i,
      to: j,
      scope,
      open: usable && canOpen(fam, f),
      close: usable && canClose(fam, f),
      count,
      orig: count,
      removed: false,
    });
    i = j - 1;
  }
  return runs;
}

/** The span ids a token list holds, with the token index of each opener and closer. */
function spansAt(toks: readonly Tok[]): Map<number, { open: number; close: number; m: Mark }> {
  const out = new Map<number, { open: number; close: number; m: Mark }>();
  toks.forEach((tok, i) => {
    if (tok.t !== 'mark') return;
    const e = out.get(tok.id) ?? { open: -1, close: -1, m: tok.m };
    if (tok.open) e.open = i;
    else e.close = i;
    out.set(tok.id, e);
  });
  return out;
}

/** Spans whose opener cannot open or closer cannot close, and spans around nothing. */
function unworkable(toks: readonly Tok[]): Set<number> {
  const bad = new Set<number>();
  for (const tildePunct of [false, true]) {
    for (const run of markerRuns(toks, tildePunct)) {
      for (let i = run.from; i < run.to; i++) {
        const tok = toks[i] as Extract<Tok, { t: 'mark' }>;
        if (tok.open ? !run.open : !run.close) bad.add(tok.id);
      }
    }
  }
  for (const [id, span] of spansAt(toks)) {
    if (!toks.slice(span.open + 1, span.close).some((t) => t.t !== 'mark' && t.s)) bad.add(id);
  }
  return bad;
}

/**
 * Pairs the markers as CommonMark's delimiter algorithm does (GFM strikethrough: equal runs of
 * one or two tildes) and counts where the result differs from the spans meant: a token with other
 * emphasis than its spans give it, or a marker left over as a literal.
 */
function mismatches(toks: readonly Tok[], tildePunct: boolean): { count: number; first: number } {
  const runs = markerRuns(toks, tildePunct);
  const n = toks.length;
  const got = {
    em: new Array<number>(n + 1).fill(0),
    strong: new Array<number>(n + 1).fill(0),
    del: new Array<number>(n + 1).fill(0),
  };
  const scopes = new Set(runs.map((r) => r.scope));
  for (const scope of scopes) {
    for (const fam of ['*', '~'] as const) {
      const list = runs.filter((r) => r.scope === scope && r.fam === fam);
      list.forEach((closer, ci) => {
        if (!closer.close) return;
        while (closer.count > 0) {
          let oi = -1;
          for (let k = ci - 1; k >= 0; k--) {
            const o = list[k]!;
            if (o.removed || o.count === 0 || !o.open) continue;
            if (fam === '~' && o.count !== closer.count) continue;
            // The rule of three: a run that can both open and close pairs only with one whose
            // lengths add up to no multiple of three, unless both are multiples of three.
            const either = (o.open && o.close) || (closer.open && closer.close);
            if (
              fam === '*' &&
              either &&
              (o.orig + closer.orig) % 3 === 0 &&
              !(o.orig % 3 === 0 && closer.orig % 3 === 0)
            )
              continue;
            oi = k;
            break;
          }
          if (oi < 0) break;
          const opener = list[oi]!;
          const use = fam === '~' ? closer.count : opener.count >= 2 && closer.count >= 2 ? 2 : 1;
          const kind = fam === '~' ? got.del : use === 2 ? got.strong : got.em;
          kind[opener.to]!++;
          kind[closer.from]!--;
          for (let k = oi + 1; k < ci; k++) list[k]!.removed = true;
          opener.count -= use;
          closer.count -= use;
        }
      });
    }
  }
  const want = {
    em: new Array<number>(n + 1).fill(0),
    strong: new Array<number>(n + 1).fill(0),
    del: new Array<number>(n + 1).fill(0),
  };
  for (const span of spansAt(toks).values()) {
    const kind = span.m === 'bold' ? want.strong : span.m === 'italic' ? want.em : want.del;
    kind[span.open + 1]!++;
    kind[span.close]!--;
  }
  let count = 0;
  let first = -1;
  const have = { em: 0, strong: 0, del: 0 };
  const meant = { em: 0, strong: 0, del: 0 };
  for (let i = 0; i < n; i++) {
    let wrong = false;
    for (const k of ['em', 'strong', 'del'] as const) {
      have[k] += got[k][i]!;
      meant[k] += want[k][i]!;
      if (have[k] !== meant[k]) wrong = true;
    }
    const tok = toks[i]!;
    if (wrong && tok.t !== 'mark' && tok.s) {
      count++;
      if (first < 0) first = i;
    }
  }
  for (const run of runs) {
    if (run.count > 0) {
      count++;
      if (first < 0 || run.from < first) first = run.from;
    }
  }
  return { count, first };
}

/**
 * marked (GFM) does not pair delimiters by CommonMark's algorithm in every case (it matches a run
 * with the first closer that balances it, and treats `~` as a letter beside `*`): the text is
 * read with it too, and each character's marks compared with those meant.
 */
function markedMismatches(toks: readonly Tok[], options: WriteOptions): { count: number; first: number } {
  const meant: { c: string; marks: string; tok: number }[] = [];
  const open: Mark[] = [];
  toks.forEach((tok, i) => {
    if (tok.t === 'mark') {
      if (tok.open) open.push(tok.m);
      else open.splice(open.lastIndexOf(tok.m), 1);
      return;
    }
    if (tok.t === 'raw' && !tok.literal) return;
    const marks = [...open].sort().join();
    for (const c of tok.s) meant.push({ c, marks, tok: i });
  });
  const read: { c: string; marks: string }[] = [];
  const walk = (tokens: readonly Token[] | undefined, marks: Mark[]): void => {
    for (const t of tokens ?? []) {
      if (t.type === 'em' || t.type === 'strong' || t.type === 'del')
        walk(t.tokens, [...marks, t.type === 'em' ? 'italic' : t.type === 'strong' ? 'bold' : 'strike']);
      else if (t.type === 'link') walk(t.tokens, marks);
      else if (t.type === 'text' || t.type === 'escape') {
        const inner = (t as { tokens?: Token[] }).tokens;
        if (inner?.length) walk(inner, marks);
        else for (const c of decodeHTMLStrict(t.text)) read.push({ c, marks: [...marks].sort().join() });
      }
    }
  };
  walk(Lexer.lexInline(writeTokens(toks, options), { gfm: true }), []);
  // Markers read as literal characters are trouble; a reading whose text differs otherwise (an
  // entity, an extension's syntax) cannot be compared, and the model is trusted.
  let count = 0;
  let first = -1;
  const trouble = (i: number): void => {
    count++;
    const tok = meant[Math.min(i, meant.length - 1)]?.tok ?? 0;
    if (first < 0) first = tok;
  };
  let i = 0;
  for (const r of read) {
    const m = meant[i];
    if (m && r.c === m.c) {
      if (r.marks !== m.marks) trouble(i);
      i++;
    } else if (r.c === '*' || r.c === '~') trouble(i);
    else return { count: 0, first: -1 };
  }
  return i === meant.length ? { count, first } : { count: 0, first: -1 };
}

function score(toks: readonly Tok[], options: WriteOptions): { count: number; first: number } {
  const parts = [mismatches(toks, false), mismatches(toks, true)];
  if (parts[0]!.count + parts[1]!.count === 0) parts.push(markedMismatches(toks, options));
  const firsts = parts.filter((p) => p.first >= 0).map((p) => p.first);
  return { count: parts.reduce((n, p) => n + p.count, 0), first: firsts.length ? Math.min(...firsts) : -1 };
}

/** Lays the items out as tokens, the white space moved off the markers. */
function layOut(items: readonly Item[], inTable: boolean): { toks: Tok[]; spans: Map<number, Span> } {
  const spans = new Map<number, Span>();
  let toks: Tok[] = [];
  stackRender(items, toks, spans);
  toks = moveSpaces(toks);
  if (inTable) {
    // Line ends become <br> before the markers are checked: the tag is what they will touch.
    toks = toks.flatMap((tok): Tok[] =>
      tok.t === 'text' && /[\r\n]/.test(tok.s)
        ? tok.s
            .split(/\r?\n/)
            .flatMap((s, i): Tok[] => [...(i ? [{ t: 'raw', s: '<br>' } as Tok] : []), ...(s ? [{ ...tok, s }] : [])])
        : [tok],
    );
  }
  return { toks, spans };
}

/** How much trouble a layout has: markers that cannot open or close where they stand, and mismatches. */
function trouble(toks: readonly Tok[], options: WriteOptions): { count: number; bad: Set<number>; first: number } {
  const bad = unworkable(toks);
  const now = score(toks, options);
  return { count: bad.size + now.count, bad, first: now.first };
}

/**
 * Lays the items out, taking a mark off the items of a span while a reader would not pair the
 * markers as meant. The span dropped is, among those whose markers cannot work where they stand,
 * those beside them and those near the first mismatch, the one whose loss leaves the least trouble,
 * then the least text unmarked.
 */
function layOutChecked(items: readonly Item[], inTable: boolean): Tok[] {
  const options: WriteOptions = { pipes: inTable, lineStarts: !inTable };
  const size = (span: Span): number =>
    span.items.reduce(
      (n, item) => n + item.toks.reduce((k, t) => k + (t.t === 'mark' ? 0 : t.s.length), 0) + (item.link ? 1 : 0),
      0,
    );
  for (;;) {
    const { toks, spans } = layOut(items, inTable);
    if (!spans.size) return toks;
    const now = trouble(toks, options);
    if (now.count === 0) return toks;
    const at = spansAt(toks);
    const candidates = new Set<number>(now.bad);
    const touched = [...at].flatMap(([id, s]) => (now.bad.has(id) ? [s.open, s.close] : []));
    for (const [id, s] of at) {
      if (touched.some((i) => Math.abs(s.open - i) <= 2 || Math.abs(s.close - i) <= 2)) candidates.add(id);
      if (now.first >= 0 && s.open <= now.first + 6 && s.close >= now.first - 6) candidates.add(id);
    }
    if (!candidates.size) candidates.add(at.keys().next().value!);
    let best = -1;
    let bestCount = Infinity;
    let bestSize = Infinity;
    for (const id of candidates) {
      const span = spans.get(id)!;
      const had = span.items.filter((item) => item.marks.has(span.m));
      for (const item of had) item.marks.delete(span.m);
      const c = trouble(layOut(items, inTable).toks, options).count;
      for (const item of had) item.marks.add(span.m);
      const n = size(span);
      if (c < bestCount || (c === bestCount && n < bestSize)) {
        best = id;
        bestCount = c;
        bestSize = n;
      }
    }
    const span = spans.get(best)!;
    for (const item of span.items) item.marks.delete(span.m);
  }
}

// ---------------------------------------------------------------- escaping

const ASCII_PUNCT = /[!-/:-@[-`{-~]/;

/**
 * Writes the tokens out, escaping in text what would otherwise read as markdown there, with the
 * whole line of tokens in view: a backslash only before ASCII punctuation or a line end; `*`, `_`
 * and `~` only where a run of them could pair with another or touches a marker; brackets only
 * where they could close a link or make a reference definition.
 */
interface WriteOptions {
  /** Escape `|` (table cells). */
  pipes: boolean;
  /** Escape what would start a block at the start of a line. */
  lineStarts: boolean;
}

function writeTokens(toks: readonly Tok[], options: WriteOptions): string {
  const { str, at } = layout(toks);
  const len = str.length;
  // 0 literal markdown, 1 text, 2 text of a link label, 3 marker.
  const owner = new Uint8Array(len);
  toks.forEach((tok, i) =>
    owner.fill(tok.t === 'text' ? (tok.label ? 2 : 1) : tok.t === 'mark' ? 3 : 0, at[i], at[i + 1]),
  );
  const isText = (i: number): boolean => owner[i] === 1 || owner[i] === 2;
  const esc = new Uint8Array(len);
  const lineStart = (i: number): boolean => {
    if (!options.lineStarts) return false;
    let j = i;
    while (j > 0 && (str[j - 1] === ' ' || str[j - 1] === '\t')) j--;
    return j === 0 || str[j - 1] === '\n' || str[j - 1] === '\r';
  };

  // Block constructs at the start of a line.
  if (options.lineStarts) {
    const definition = /\[[^\[\]]*\]:/y;
    const ends = [...str.matchAll(/\r\n?|\n/g)];
    for (let line = 0; line <= ends.length; line++) {
      let i = line === 0 ? 0 : ends[line - 1]!.index + ends[line - 1]![0].length;
      const lineEnd = line < ends.length ? ends[line]!.index : len;
      while (i < lineEnd && (str[i] === ' ' || str[i] === '\t')) i++;
      if (i >= lineEnd || !isText(i)) continue;
      const rest = str.slice(i, lineEnd);
      definition.lastIndex = i;
      if (
        /^(#{1,6}(\s|$)|>|[-+*](\s|$)|~{3,}|(?<rule>[-*_])([ \t]*\k<rule>){2,}[ \t]*$)/.test(rest) ||
        // A line of = or - under a paragraph line makes it a heading.
        (line === 0 ? /^(={3,}|-{3,})\s*$/ : /^(=+|-+)\s*$/).test(rest) ||
        // A reference definition: [label]: at the start of a line.
        (str[i] === '[' && definition.test(str))
      )
        esc[i] = 1;
      const num = /^\d{1,9}[.)](\s|$)/.exec(rest);
      if (num) {
        const p = i + num[0].search(/[.)]/);
        if (isText(p)) esc[p] = 1;
      }
    }
  }

  const lastGt = str.lastIndexOf('>');
  for (const match of str.matchAll(/[\\`[\]!<&|]/g)) {
    const i = match.index;
    if (!isText(i)) continue;
    const c = str[i]!;
    const next = str[i + 1];
    if (c === '\\') {
      if (next !== undefined && (ASCII_PUNCT.test(next) || next === '\n' || next === '\r')) esc[i] = 1;
    } else if (c === '`') esc[i] = 1;
    else if (c === ']') {
      if (next === '(' || next === '[') esc[i] = 1;
    } else if (c === '[') {
      if (/^\[\^[^\[\]\s]+\]/.test(str.slice(i, i + 200))) esc[i] = 1;
    } else if (c === '!') {
      if (next === '[' && owner[i + 1] === 0) esc[i] = 1;
    } else if (c === '<') {
      // A tag or an autolink needs a > after it; an HTML block only the start of a line.
      if (next !== undefined && /[A-Za-z/!?]/.test(next) && (lineStart(i) || lastGt > i)) esc[i] = 1;
    } else if (c === '&') {
      if (/^&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/.test(str.slice(i, i + 40))) esc[i] = 1;
    } else if (c === '|' && options.pipes) esc[i] = 1;
  }

  // Brackets in a label must balance, or the label would end early or a link open inside it.
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (tok.t !== 'raw' || tok.link !== 'open') continue;
    const start = i;
    const open: number[] = [];
    for (i++; i < toks.length && !(toks[i]!.t === 'raw' && (toks[i] as { link?: string }).link === 'close'); i++) {
      if (toks[i]!.t !== 'text') continue;
      for (let k = at[i]!; k < at[i + 1]!; k++) {
        if (esc[k] || (str[k] !== '[' && str[k] !== ']')) continue;
        if (str[k] === '[') open.push(k);
        else if (open.length) open.pop();
        else esc[k] = 1;
      }
    }
    for (const k of open) esc[k] = 1;
    // marked loses an escaped backslash beside brackets balanced inside a label: escape them all there.
    const from = at[start + 1]!;
    const to = at[i]!;
    if (/\\/.test(str.slice(from, to)))
      for (let k = from; k < to; k++) if ((str[k] === '[' || str[k] === ']') && isText(k)) esc[k] = 1;
  }

  // Emphasis and strikethrough characters in text.
  for (const ch of ['*', '_', '~'] as const) {
    const runs: { from: number; to: number; open: boolean; close: boolean; touches: boolean }[] = [];
    for (let i = str.indexOf(ch); i >= 0 && i < len; i = str.indexOf(ch, i + 1)) {
      if (!isText(i) || esc[i]) continue;
      let j = i;
      while (j < len && str[j] === ch && isText(j) && !esc[j]) j++;
      const before = charBefore(str, i);
      const after = charAfter(str, j);
      // A run that touches a marker of its own character would be read as part of it.
      const markerChar = ch === '_' ? null : ch;
      const touches =
        markerChar !== null &&
        ((i > 0 && owner[i - 1] === 3 && str[i - 1] === markerChar) ||
          (j < len && owner[j] === 3 && str[j] === markerChar));
      let open = false;
      let close = false;
      for (const tildePunct of [false, true]) {
        const f = flanking(before, after, tildePunct);
        open ||= canOpen(ch, f);
        close ||= canClose(ch, f);
      }
      runs.push({ from: i, to: j, open, close, touches });
      i = j - 1;
    }
    if (!runs.length) continue;
    // A run can pair with a run before it that can open or one after it that can close; a marker
    // of the same character is taken to do both.
    let firstOpener = Infinity;
    let lastCloser = -Infinity;
    if (ch !== '_') {
      toks.forEach((t, i) => {
        if (t.t !== 'mark' || (t.m === 'strike') !== (ch === '~')) return;
        firstOpener = Math.min(firstOpener, at[i]!);
        lastCloser = Math.max(lastCloser, at[i]!);
      });
    }
    for (const r of runs) {
      if (r.open) firstOpener = Math.min(firstOpener, r.from);
      if (r.close) lastCloser = Math.max(lastCloser, r.from);
    }
    const openerBefore = (r: (typeof runs)[number]): boolean => firstOpener < r.from;
    const closerAfter = (r: (typeof runs)[number]): boolean => lastCloser > r.from;
    for (const r of runs) {
      if (r.touches || (r.close && openerBefore(r)) || (r.open && closerAfter(r))) esc.fill(1, r.from, r.to);
    }
  }

  let out = '';
  let from = 0;
  for (let i = esc.indexOf(1); i >= 0; i = esc.indexOf(1, i + 1)) {
    out += `${str.slice(from, i)}\\`;
    from = i;
  }
  return out + str.slice(from);
}

/** Escapes characters that would otherwise start markdown syntax inside running text. */
export function escapeText(s: string): string {
  return writeTokens([{ t: 'text', s, label: false }], { pipes: false, lineStarts: false });
}

/** Escapes text going between the brackets of a link or an image. */
function escapeLabel(s: string, inTable = false): string {
  return writeTokens(
    [
      { t: 'raw', s: '[', link: 'open' },
      { t: 'text', s, label: true },
      { t: 'raw', s: ']', link: 'close' },
    ],
    { pipes: inTable, lineStarts: false },
  ).slice(1, -1);
}

// ---------------------------------------------------------------- inlines

type Marks = Pick<TextInline, 'bold' | 'italic' | 'strike' | 'code' | 'href' | 'superscript' | 'subscript'>;

function sameMarks(a: Marks, b: Marks): boolean {
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

/** Renders inline content; `inTable` turns line breaks into `<br>` and escapes pipes. */
export function renderInlines(inlines: readonly Inline[], inTable = false): string {
  // Fast path: plain runs with nothing a reader could take as markdown.
  if (
    inlines.every(
      (i) =>
        i.type === 'text' && !i.bold && !i.italic && !i.strike && !i.code && !i.href && !i.superscript && !i.subscript,
    )
  ) {
    const plain = (inlines as readonly TextInline[]).map((i) => i.text).join('');
    if (!/[\\`*_[\]<&~!|\r\n]/.test(plain) && !/^\s*[#>+\-=\d]/.test(plain)) return plain.trim();
  }
  const toks = layOutChecked(buildItems(inlines, inTable), inTable);
  const out = writeTokens(toks, { pipes: inTable, lineStarts: !inTable });
  if (inTable) return out.replace(/\r?\n/g, '<br>').trim();
  if (out.indexOf('\n') < 0) return out.trim();
  return out.replace(/[ \t]*\r?\n[ \t]*/g, '\n').trim();
}

// ---------------------------------------------------------------- blocks

function renderList(list: ListNode, indent: string): string {
  const lines: string[] = [];
  let n = list.start ?? 1;
  for (const item of list.items) {
    const marker = list.ordered ? `${n++}.` : '-';
    const task = item.checked === undefined ? '' : item.checked ? '[x] ' : '[ ] ';
    const pad = ' '.repeat(marker.length + 1);
    let body = renderInlines(item.content);
    // Text that starts like a task box would read as one in GFM.
    if (!task && /^\[[ xX]\](\s|$)/.test(body)) body = `\\${body}`;
    const first = `${indent}${marker} ${task}${body.split('\n').join(`\n${indent}${pad}`)}`;
    lines.push(first);
    for (const child of item.children ?? []) {
      const rendered =
        child.kind === 'list' ? renderList(child, indent + pad) : indentBlock(renderNode(child), indent + pad);
      if (rendered) lines.push(rendered);
    }
  }
  return lines.join('\n');
}

function indentBlock(s: string, indent: string): string {
  return s
    .split('\n')
    .map((l) => (l ? indent + l : l))
    .join('\n');
}

/** Expands row and column spans into a rectangular grid; a merged cell's text goes in its first slot. */
export function tableGrid(table: TableNode): string[][] {
  const grid: (string | undefined)[][] = [];
  table.rows.forEach((row, r) => {
    grid[r] ??= [];
    let c = 0;
    for (const cell of row) {
      while (grid[r]![c] !== undefined) c++;
      const text = renderInlines(cell.content, true);
      const cs = Math.max(1, cell.colSpan ?? 1);
      const rs = Math.max(1, cell.rowSpan ?? 1);
      for (let dr = 0; dr < rs; dr++) {
        grid[r + dr] ??= [];
        for (let dc = 0; dc < cs; dc++) grid[r + dr]![c + dc] = dr === 0 && dc === 0 ? text : '';
      }
      c += cs;
    }
  });
  const width = Math.max(0, ...grid.map((row) => row.length));
  return grid.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
}

export function renderTable(table: TableNode): string {
  // Rows and columns empty from end to end carry nothing a markdown table can show: spacer columns
  // of a calendar laid out in a word processor, blank rows between its weeks, slots only ever
  // covered by merged cells.
  const full = tableGrid(table);
  const used = (full[0] ?? []).map((_, c) => full.some((row) => row[c] !== ''));
  const grid = full.filter((row) => row.some((t) => t !== '')).map((row) => row.filter((_, c) => used[c]));
  if (grid.length === 0 || grid[0]!.length === 0) return '';
  const width = grid[0]!.length;
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const out = [line(grid[0]!), `|${' --- |'.repeat(width)}`];
  for (const row of grid.slice(1)) out.push(line(row));
  return out.join('\n');
}

function renderCode(text: string, language?: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language ?? ''}\n${text.replace(/\n$/, '')}\n${fence}`;
}

export function renderNode(node: Node): string {
  switch (node.kind) {
    case 'heading': {
      // Inside an ATX heading a leading "1." or "#" cannot start another construct: no escape needed.
      const body = renderInlines(node.content)
        .replace(/\\?\n/g, ' ')
        .replace(/^\\(#)/, '$1')
        .replace(/^(\d{1,9})\\([.)])/, '$1$2');
      return body ? `${'#'.repeat(node.level)} ${body}` : '';
    }
    case 'paragraph':
      return renderInlines(node.content);
    case 'list':
      return renderList(node, '');
    case 'table':
      return renderTable(node);
    case 'figure':
      // A figure with neither an address nor a description has nothing to show in markdown (an
      // empty image link is noise); its block is still listed with its box.
      if (!node.src && !node.alt.trim()) return '';
      return `![${escapeLabel(node.alt).replace(/[\r\n]+/g, ' ')}](${linkDestination(node.src ?? '')})`;
    case 'code':
      return renderCode(node.text, node.language);
    case 'formula':
      return `$$\n${node.latex.trim()}\n$$`;
    case 'quote':
      return node.children
        .map(renderNode)
        .filter(Boolean)
        .join('\n\n')
        .split('\n')
        .map((l) => (l ? `> ${l}` : '>'))
        .join('\n');
    case 'rule':
      return '---';
    case 'markdown':
      return node.markdown.trim();
    case 'note': {
      // Continuation blocks of a footnote are indented four spaces (GFM).
      const body = node.children
        .map(renderNode)
        .filter(Boolean)
        .join('\n\n')
        .split('\n')
        .map((l, i) => (i > 0 && l ? `    ${l}` : l))
        .join('\n');
      return `[^${noteLabel(node.label)}]: ${body}`.trimEnd();
    }
  }
}

export function blockTypeOf(block: DocBlock): BlockType {
  if (block.type) return block.type;
  switch (block.node.kind) {
    case 'heading':
      return 'section_header';
    case 'list':
      return 'list_item';
    case 'table':
      return 'table';
    case 'figure':
      return 'figure';
    case 'code':
      return 'code';
    case 'formula':
      return 'formula';
    default:
      return 'text';
  }
}

// ---------------------------------------------------------------- document

function separator(prev: Node | undefined, next: Node): string {
  // Consecutive list blocks (a PDF reader emits one per item) continue one tight list.
  if (prev?.kind === 'list' && next.kind === 'list' && prev.ordered === next.ordered) return '\n';
  return '\n\n';
}

export function serialize(doc: DocModel, options: SerializeOptions): Serialized {
  let markdown = '';
  let prevNode: Node | undefined;
  // Where a paragraph broken by a page break goes on: the end of its first half (a block marked
  // runsOn), and the blocks written since (footnotes, a sidebar or a figure read after it).
  let joinAt: { end: number; after: LayoutBlock[] } | null = null;
  const pages: PageMarkdown[] = [];
  const layout: LayoutPage[] = [];

  for (const page of doc.pages) {
    let pageMd = '';
    let pagePrev: Node | undefined;
    const items: LayoutBlock[] = [];
    const firstIncluded = page.blocks.findIndex(
      (b) => renderNode(b.node) !== '' && !(b.furniture && options.onlyMainContent),
    );
    page.blocks.forEach((block, index) => {
      const content = renderNode(block.node);
      const included = content !== '' && !(block.furniture && options.onlyMainContent);
      let span: [number, number] | null = null;
      const item: LayoutBlock = {
        id: `p${page.pageNumber}.b${index}`,
        type: blockTypeOf(block),
        label: block.label ?? null,
        bbox: block.bbox ?? null,
        content,
        markdownSpan: null,
        readingOrder: index,
        source: block.source ?? null,
        confidence: block.confidence ?? { layout: null, ocr: null },
      };
      if (included) {
        if (block.continues && index === firstIncluded && joinAt && block.node.kind === 'paragraph') {
          // The second half goes on the line of the first, ahead of the blocks written since.
          const at = joinAt.end;
          const insert = ` ${content}`;
          markdown = markdown.slice(0, at) + insert + markdown.slice(at);
          for (const n of joinAt.after)
            if (n.markdownSpan) n.markdownSpan = [n.markdownSpan[0] + insert.length, n.markdownSpan[1] + insert.length];
          span = [at + 1, at + insert.length];
          // A paragraph over three pages goes on again at the end of what was just added.
          joinAt = block.runsOn ? { end: at + insert.length, after: joinAt.after } : null;
        } else {
          if (markdown) markdown += separator(prevNode, block.node);
          const start = markdown.length;
          markdown += content;
          span = [start, markdown.length];
          prevNode = block.node;
          if (block.runsOn && block.node.kind === 'paragraph') joinAt = { end: markdown.length, after: [] };
          // Running heads and page numbers kept in the markdown stay between the halves; so does
          // anything when the next page does not start with the second half.
          else if (block.furniture || index === firstIncluded) joinAt = null;
          else joinAt?.after.push(item);
        }
        if (pageMd) pageMd += separator(pagePrev, block.node);
        pageMd += content;
        pagePrev = block.node;
      }
      item.markdownSpan = span;
      items.push(item);
    });
    pages.push({ pageNumber: page.pageNumber, markdown: pageMd });
    layout.push({ pageNumber: page.pageNumber, width: page.width, height: page.height, status: page.status, items });
  }
  return { markdown: markdown ? `${markdown}\n` : '', pages, layout };
}
