/** Markdown escaping of text tokens, with their context in view, and of link labels. */
import { charBefore, charAfter, flanking, canOpen, canClose, layout } from './delimiters.js';
import type { Tok } from './tokens.js';

// ---------------------------------------------------------------- escaping

export const ASCII_PUNCT = /[!-/:-@[-`{-~]/;

/**
 * Writes the tokens out, escaping in text what would otherwise read as markdown there, with the
 * whole line of tokens in view: a backslash only before ASCII punctuation or a line end; `*`, `_`
 * and `~` only where a run of them could pair with another or touches a marker; brackets only
 * where they could close a link or make a reference definition.
 */
export interface WriteOptions {
  /** Escape `|` (table cells). */
  pipes: boolean;
  /** Escape what would start a block at the start of a line. */
  lineStarts: boolean;
}

export function writeTokens(toks: readonly Tok[], options: WriteOptions): string {
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

/** Escapes text going between the brackets of a link or an image. */
export function escapeLabel(s: string, inTable = false): string {
  return writeTokens(
    [
      { t: 'raw', s: '[', link: 'open' },
      { t: 'text', s, label: true },
      { t: 'raw', s: ']', link: 'close' },
    ],
    { pipes: inTable, lineStarts: false },
  ).slice(1, -1);
}
