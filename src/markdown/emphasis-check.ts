/**
 * Emphasis markers checked the way a CommonMark reader pairs them: a span whose markers would not
 * pair is left out, since plain text reads better than literal asterisks.
 */
import { createRequire } from 'node:module';
import { decodeHTMLStrict } from 'entities/decode';
import type { Lexer as MarkedLexer, Token } from 'marked';
import { charBefore, charAfter, flanking, canOpen, canClose, layout } from './delimiters.js';
import { type WriteOptions, writeTokens } from './escape.js';
import { stackRender, moveSpaces } from './inline-tokens.js';
import type { Mark, Tok, Item, Span } from './tokens.js';

// ---------------------------------------------------------------- checking markers

export interface Run {
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

/** The delimiter runs the markers make, with what they can do. */
export function markerRuns(toks: readonly Tok[], tildePunct: boolean): Run[] {
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
export function spansAt(toks: readonly Tok[]): Map<number, { open: number; close: number; m: Mark }> {
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
export function unworkable(toks: readonly Tok[]): Set<number> {
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
export function mismatches(toks: readonly Tok[], tildePunct: boolean): { count: number; first: number } {
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
let lexer: typeof MarkedLexer | undefined;
/** marked's Lexer, loaded when a run first needs marked's reading (a document without emphasis never does). */
function Lexer(): typeof MarkedLexer {
  return (lexer ??= (createRequire(import.meta.url)('marked') as typeof import('marked')).Lexer);
}

export function markedMismatches(toks: readonly Tok[], options: WriteOptions): { count: number; first: number } {
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
  walk(Lexer().lexInline(writeTokens(toks, options), { gfm: true }), []);
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

/**
 * Characters marked reads as themselves in any inline context: letters, digits, spaces and punctuation
 * that starts no inline syntax (no `*`, `_`, `~`, backtick, `\\`, `<`, `>`, `&`, brackets, `!`, `|`,
 * `:` and `@` of autolinks, `/` and `.` of bare addresses, line ends).
 */
const INERT_TEXT = /^[\p{L}\p{N} ,;'"()?%+=-]*$/u;

/**
 * Runs whose reading by marked is known without running it, once the CommonMark checks found nothing:
 * text tokens of inert characters only and at most one span of bold or italic. marked then reads the
 * span where CommonMark does (test/emphasis-shortcut.test.ts compares this with marked on generated
 * runs). The read-back check's cost is marked's lexer, the largest item of serialisation.
 */
export function readsAsMeant(toks: readonly Tok[]): boolean {
  let marks = 0;
  for (const tok of toks) {
    if (tok.t === 'mark') {
      if (tok.m === 'strike' || ++marks > 2) return false;
    } else if (tok.t !== 'text' || !INERT_TEXT.test(tok.s)) return false;
  }
  return true;
}

export function score(toks: readonly Tok[], options: WriteOptions): { count: number; first: number } {
  const parts = [mismatches(toks, false), mismatches(toks, true)];
  if (parts[0]!.count + parts[1]!.count === 0 && !readsAsMeant(toks)) parts.push(markedMismatches(toks, options));
  const firsts = parts.filter((p) => p.first >= 0).map((p) => p.first);
  return { count: parts.reduce((n, p) => n + p.count, 0), first: firsts.length ? Math.min(...firsts) : -1 };
}

/** Lays the items out as tokens, the white space moved off the markers. */
export function layOut(items: readonly Item[], inTable: boolean): { toks: Tok[]; spans: Map<number, Span> } {
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
export function trouble(
  toks: readonly Tok[],
  options: WriteOptions,
): { count: number; bad: Set<number>; first: number } {
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
export function layOutChecked(items: readonly Item[], inTable: boolean): Tok[] {
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
