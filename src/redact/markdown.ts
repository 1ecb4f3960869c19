/**
 * Redaction inside markdown without breaking it. Detection runs over a projection of the markdown:
 * the text a reader sees (link labels and destinations, cell texts, code contents) with the syntax
 * (fence lines, backticks, emphasis markers, link brackets, table pipes, escapes, block markers) left
 * out. A detection in the projection maps back to markdown characters; only text characters are
 * rewritten, so every piece of syntax stays where it was.
 */
import type { PiiEntity, ReplaceStyle } from '../options/schema.js';
import { detect, type DetectOptions } from './detect.js';
import type { Detection } from './types.js';

export interface Projection {
  /** The visible text. */
  text: string;
  /** For each character of `text`, its offset in the markdown; -1 for separators the projection added. */
  map: Int32Array;
  /** Markdown offsets of characters read literally (code, link destinations). */
  literal: Set<number>;
}

/** One rewrite of the markdown: `[start, end)` replaced by `text`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})/;
const BLOCK_MARKER = /^[ \t]*(?:(?:>[ \t]?)+)?[ \t]*(?:#{1,6}[ \t]+|[-+*][ \t]+(?:\[[ xX]\][ \t]+)?|\d{1,9}[.)][ \t]+)?/;
const TABLE_RULE = /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$/;
const HR = /^[ \t]*(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const ASCII_PUNCT = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;
const ALNUM = /[\p{L}\p{N}]/u;

/** Builds the projection of a markdown document. */
export function project(md: string): Projection {
  const out: string[] = [];
  const map: number[] = [];
  const literal = new Set<number>();
  const push = (ch: string, at: number, lit = false): void => { out.push(ch); map.push(at); if (lit) literal.add(at); };
  let inFence: string | null = null;
  let pos = 0;
  const lines = md.split('\n');
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!;
    const lineStart = pos;
    pos += line.length + 1;
    const newline = (): void => { if (li < lines.length - 1) push('\n', lineStart + line.length); };
    const fence = FENCE.exec(line);
    if (inFence !== null) {
      if (fence && fence[2]![0] === inFence[0] && fence[2]!.length >= inFence.length && line.trim() === fence[2]) { inFence = null; newline(); continue; }
      // Code is text: secrets in code blocks are redacted like any other.
      for (let i = 0; i < line.length; i++) push(line[i]!, lineStart + i, true);
      newline();
      continue;
    }
    if (fence) { inFence = fence[2]!; newline(); continue; }
    if (TABLE_RULE.test(line) && line.includes('-') || HR.test(line)) { newline(); continue; }
    const marker = BLOCK_MARKER.exec(line)![0].length;
    const isTableRow = /^\s*\|/.test(line);
    inline(line, lineStart, marker, isTableRow, push);
    newline();
  }
  return { text: out.join(''), map: Int32Array.from(map), literal };
}

/** Inline syntax of one line: escapes, code spans, emphasis, links and images, pipes, html tags. */
function inline(line: string, base: number, from: number, table: boolean, push: (ch: string, at: number, literal?: boolean) => void): void {
  let i = from;
  let codeTicks = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (codeTicks > 0) {
      if (ch === '`') {
        let n = 0;
        while (line[i + n] === '`') n++;
        if (n === codeTicks) { codeTicks = 0; i += n; continue; }
        for (let k = 0; k < n; k++) push('`', base + i + k, true);
        i += n;
        continue;
      }
      push(ch, base + i, true);
      i++;
      continue;
    }
    if (ch === '\\' && i + 1 < line.length && ASCII_PUNCT.test(line[i + 1]!)) {
      push(line[i + 1]!, base + i + 1);
      i += 2;
      continue;
    }
    if (ch === '`') {
      let n = 0;
      while (line[i + n] === '`') n++;
      codeTicks = n;
      i += n;
      continue;
    }
    if (ch === '*' || ch === '~') { i++; continue; }
    if (ch === '_') {
      const prev = line[i - 1] ?? ' ';
      const next = line[i + 1] ?? ' ';
      // snake_case and addresses keep their underscores; emphasis underscores sit at word edges.
      if (ALNUM.test(prev) && ALNUM.test(next)) push(ch, base + i);
      i++;
      continue;
    }
    if (ch === '!' && line[i + 1] === '[') { i++; continue; }
    if (ch === '[' || ch === ']') {
      if (ch === ']' && line[i + 1] === '(') {
        // Link destination: kept as text (an address in a mailto: is redacted too), set apart by spaces.
        push(' ', -1);
        i += 2;
        let depth = 0;
        while (i < line.length) {
          const c = line[i]!;
          if (c === '(') depth++;
          if (c === ')') { if (depth === 0) break; depth--; }
          if (c === ' ' && line[i + 1] === '"') {
            // Link title: text as well.
            push(' ', -1);
            i += 2;
            while (i < line.length && !(line[i] === '"' && line[i + 1] === ')')) { push(line[i]!, base + i); i++; }
            i++;
            break;
          }
          push(c, base + i, true);
          i++;
        }
        push(' ', -1);
        i++;
        continue;
      }
      i++;
      continue;
    }
    if (ch === '|' && table) { push('\n', -1); i++; continue; }
    if (ch === '<') {
      const tag = /^<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/.exec(line.slice(i));
      if (tag) { i += tag[0].length; continue; }
    }
    push(ch, base + i);
    i++;
  }
}

/**
 * The replacement of one detection's text: `<ENTITY>` once per detection, one `*` per character
 * (white space and line breaks kept, so lines stay lines), or nothing. Masks replace whole words, so a
 * run of `*` stands between spaces or punctuation, where CommonMark reads it as text, not emphasis.
 */
export function replacement(entity: PiiEntity, original: string, style: ReplaceStyle, first: boolean): string {
  if (style === 'tag') return first ? `<${entity}>` : '';
  if (style === 'mask') return original.replace(/\S/g, '*');
  return '';
}

/**
 * Edits that redact `md`. A detection may cover several stretches of text separated by syntax
 * ("**John** Smith"): each stretch is rewritten in place and the syntax between them is kept. Newlines
 * are kept where the next line starts with syntax (a list item, a quote, a table row), so the structure
 * of the document does not change.
 */
export function redactionEdits(md: string, options: DetectOptions, style: ReplaceStyle): Edit[] {
  const proj = project(md);
  const dets = detect(proj.text, options);
  const edits: Edit[] = [];
  for (const d of splitAtBlankLines(proj.text, dets)) {
    // Markdown offsets of the detection's characters, grouped into contiguous stretches.
    const stretches: Array<[number, number]> = [];
    for (let p = d.start; p < d.end; p++) {
      const at = proj.map[p]!;
      if (at < 0) continue;
      const last = stretches[stretches.length - 1];
      if (last && last[1] === at) last[1] = at + 1;
      else stretches.push([at, at + 1]);
    }
    let first = true;
    for (const [s, e] of stretches) {
      const original = md.slice(s, e);
      if (style === 'mask') {
        let masked = replacement(d.entity, original, style, first);
        // A line left holding only asterisks would read as a thematic break: escape the first one.
        const ls = md.lastIndexOf('\n', s - 1) + 1;
        let le = md.indexOf('\n', e);
        if (le === -1) le = md.length;
        if (/^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?$/.test(md.slice(ls, s)) && /^\s*$/.test(md.slice(e, le)) && /^[*\s]*$/.test(masked) && masked.replace(/\s/g, '').length >= 3 && !proj.literal.has(s)) {
          masked = '\\' + masked;
        }
        edits.push({ start: s, end: e, text: masked });
        first = false;
        continue;
      }
      // Newlines whose next line opens with syntax (a list item, a quote, a table row) are kept; the
      // others go with the text they separate.
      const pieces = original.split('\n');
      let offset = s;
      for (let k = 0; k < pieces.length; k++) {
        const piece = pieces[k]!;
        const pieceEnd = offset + piece.length;
        if (piece.length > 0) {
          edits.push({ start: offset, end: pieceEnd, text: replacement(d.entity, piece, style, first) });
          first = false;
        }
        if (k < pieces.length - 1) {
          // A new list item, quote line or table row gets its own placeholder.
          if (lineOpensWithSyntax(md, pieceEnd + 1)) first = true;
          else edits.push({ start: pieceEnd, end: pieceEnd + 1, text: '' });
        }
        offset = pieceEnd + 1;
      }
    }
  }
  return normalizeEdits(md, edits);
}

function lineOpensWithSyntax(md: string, at: number): boolean {
  const rest = md.slice(at, at + 12);
  return /^[ \t]*(?:[>|#]|[-+*][ \t]|\d{1,9}[.)][ \t]|`{3}|~{3}|$|\n)/.test(rest);
}

/** Detections never run across a blank line (a paragraph break): they are split there. */
function splitAtBlankLines(text: string, dets: Detection[]): Detection[] {
  const out: Detection[] = [];
  for (const d of dets) {
    let s = d.start;
    const re = /\n[ \t]*\n/g;
    re.lastIndex = s;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null && m.index < d.end) {
      if (m.index > s) out.push({ ...d, start: s, end: m.index });
      s = m.index + m[0].length;
    }
    if (s < d.end) out.push({ ...d, start: s, end: d.end });
  }
  // Trim white space at the edges of each piece.
  return out
    .map((d) => {
      let { start, end } = d;
      while (start < end && /\s/.test(text[start]!)) start++;
      while (end > start && /\s/.test(text[end - 1]!)) end--;
      return { ...d, start, end };
    })
    .filter((d) => d.end > d.start);
}

/** Sorted, non-overlapping, no-op edits dropped. */
function normalizeEdits(md: string, edits: Edit[]): Edit[] {
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Edit[] = [];
  for (const e of edits) {
    const prev = out[out.length - 1];
    if (prev && e.start < prev.end) continue;
    if (md.slice(e.start, e.end) === e.text) continue;
    out.push(e);
  }
  return out;
}

/** Applies sorted non-overlapping edits. */
export function applyEdits(md: string, edits: readonly Edit[]): string {
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += md.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + md.slice(at);
}

/**
 * Maps an offset of the original markdown to the rewritten one. A replacement belongs to the text
 * its stretch starts in: an offset at an edit's start maps before the replacement, one inside it after.
 */
export function offsetMapper(edits: readonly Edit[]): (offset: number, side: 'start' | 'end') => number {
  const starts = edits.map((e) => e.start);
  const deltas: number[] = [];
  let delta = 0;
  for (const e of edits) {
    deltas.push(delta);
    delta += e.text.length - (e.end - e.start);
  }
  return (offset, _side) => {
    // Last edit starting at or before offset.
    let lo = 0;
    let hi = starts.length - 1;
    let k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= offset) { k = mid; lo = mid + 1; } else hi = mid - 1;
    }
    if (k === -1) return offset;
    const e = edits[k]!;
    const before = deltas[k]!;
    if (offset === e.start) return offset + before;
    if (offset >= e.end) return offset + before + e.text.length - (e.end - e.start);
    // Strictly inside a rewritten stretch: the replacement belongs to the block the stretch started in.
    return e.start + before + e.text.length;
  };
}

/** Redacts one markdown text. */
export function redactMarkdown(md: string, options: DetectOptions, style: ReplaceStyle): { markdown: string; edits: Edit[] } {
  const edits = redactionEdits(md, options, style);
  return { markdown: applyEdits(md, edits), edits };
}
