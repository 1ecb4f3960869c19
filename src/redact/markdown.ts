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
  /** Offset in the markdown of character i of `text`; -1 for separators the projection added. */
  offset(i: number): number;
  /** 1 at markdown offsets of characters read literally (code, link destinations). */
  literal: Uint8Array;
}

/** One rewrite of the markdown: `[start, end)` replaced by `text`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})/;
const BLOCK_MARKER =
  /^[ \t]*(?:(?:>[ \t]?)+)?[ \t]*(?:#{1,6}[ \t]+|[-+*][ \t]+(?:\[[ xX]\][ \t]+)?|\d{1,9}[.)][ \t]+)?/;
const TABLE_RULE = /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$/;
const HR = /^[ \t]*(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const ALNUM = /[\p{L}\p{N}]/u;

/**
 * The projection as it is built: runs of consecutive markdown characters (where each starts in the text
 * and in the markdown), cut out of the markdown once at the end. A copy per character into code and
 * offset arrays cost as much as detection; most lines continue the run of the line before.
 */
class Builder {
  private n = 0;
  /** Start of each run in the projected text. */
  private readonly runText: number[] = [];
  /** Start of each run in the markdown; -1 - code for a separator the projection added. */
  private readonly runMd: number[] = [];
  literal: Uint8Array;
  constructor(private readonly md: string) {
    this.literal = new Uint8Array(md.length + 1);
  }
  /** A separator the projection adds (a space between link text and destination, a line break for a pipe). */
  sep(code: number): void {
    this.runText.push(this.n++);
    this.runMd.push(-1 - code);
  }
  /** Markdown characters [from, to) as text. */
  copy(from: number, to: number, literal = false): void {
    if (to <= from) return;
    const k = this.runMd.length - 1;
    if (k < 0 || this.runMd[k]! < 0 || this.runMd[k]! + (this.n - this.runText[k]!) !== from) {
      this.runText.push(this.n);
      this.runMd.push(from);
    }
    this.n += to - from;
    if (literal) this.literal.fill(1, from, to);
  }
  done(): Projection {
    const { runText, runMd, md, n } = this;
    // Concatenation builds a rope that is flattened once, about twice as fast as joining an array.
    let text = '';
    for (let k = 0; k < runMd.length; k++) {
      const at = runMd[k]!;
      const end = k + 1 < runText.length ? runText[k + 1]! : n;
      text += at < 0 ? String.fromCharCode(-1 - at) : md.slice(at, at + (end - runText[k]!));
    }
    return {
      text,
      literal: this.literal,
      offset(i: number): number {
        // The last run starting at or before i.
        let lo = 0;
        let hi = runText.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (runText[mid]! <= i) lo = mid;
          else hi = mid - 1;
        }
        const at = runMd[lo]!;
        return at < 0 ? -1 : at + (i - runText[lo]!);
      },
    };
  }
}

/** The characters that can start inline syntax: \\ ` * ~ _ ! [ ] | < */
const INLINE_SYNTAX = /[\\`*~_![\]|<]/g;

/**
 * The next inline-syntax character at or after a position, found by the pattern's scan (faster than a
 * loop over the characters) and remembered, so that lines without syntax do not search the same
 * stretch again.
 */
class SyntaxScan {
  private from = 0;
  private next = -1;
  constructor(private readonly md: string) {}
  at(i: number): number {
    if (i >= this.from && i <= this.next) return this.next;
    INLINE_SYNTAX.lastIndex = i;
    this.from = i;
    this.next = INLINE_SYNTAX.test(this.md) ? INLINE_SYNTAX.lastIndex - 1 : this.md.length;
    return this.next;
  }
}

/** BLOCK_MARKER from a position of the markdown (sticky; it never crosses a line end). */
const BLOCK_MARKER_AT = new RegExp(BLOCK_MARKER.source.slice(1), 'y');

/** Builds the projection of a markdown document. */
export function project(md: string): Projection {
  const b = new Builder(md);
  const scan = new SyntaxScan(md);
  let inFence: string | null = null;
  let lineStart = 0;
  for (;;) {
    let lineEnd = md.indexOf('\n', lineStart);
    const last = lineEnd === -1;
    if (last) lineEnd = md.length;
    let k = lineStart;
    while (k < lineEnd && (md.charCodeAt(k) === 32 || md.charCodeAt(k) === 9)) k++;
    const first = k < lineEnd ? md.charCodeAt(k) : NaN;
    // Only lines starting with a backtick or tilde can open or close a fence.
    const line =
      first === 96 || first === 126 || first === 124 || first === 45 || first === 58 || first === 42 || first === 95
        ? md.slice(lineStart, lineEnd)
        : '';
    const fence = first === 96 || first === 126 ? FENCE.exec(line) : null;
    if (inFence !== null) {
      if (fence && fence[2]![0] === inFence[0] && fence[2]!.length >= inFence.length && line.trim() === fence[2])
        inFence = null;
      // Code is text: secrets in code blocks are redacted like any other.
      else b.copy(lineStart, lineEnd, true);
    } else if (fence) {
      inFence = fence[2]!;
    } else if (
      ((first === 124 || first === 45 || first === 58) && TABLE_RULE.test(line) && line.includes('-')) ||
      ((first === 42 || first === 45 || first === 95) && HR.test(line))
    ) {
      // A table's rule line or a thematic break: syntax only.
    } else {
      // Block markers start with > # - + * or a digit; other lines start their text after the indent.
      let textStart = k;
      if (
        first === 62 ||
        first === 35 ||
        first === 45 ||
        first === 43 ||
        first === 42 ||
        (first >= 48 && first <= 57)
      ) {
        BLOCK_MARKER_AT.lastIndex = lineStart;
        BLOCK_MARKER_AT.test(md);
        textStart = BLOCK_MARKER_AT.lastIndex;
      }
      inline(md, lineStart, lineEnd, textStart, first === 124, b, scan);
    }
    if (last) break;
    b.copy(lineEnd, lineEnd + 1);
    lineStart = lineEnd + 1;
  }
  return b.done();
}

const isAlnum = (c: number): boolean =>
  (c >= 48 && c <= 57) ||
  (c >= 65 && c <= 90) ||
  (c >= 97 && c <= 122) ||
  (c > 127 && ALNUM.test(String.fromCharCode(c)));
const isAsciiPunct = (c: number): boolean =>
  (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);

/** Inline syntax of one line: escapes, code spans, emphasis, links and images, pipes, html tags. */
function inline(
  md: string,
  lineStart: number,
  lineEnd: number,
  from: number,
  table: boolean,
  b: Builder,
  scan: SyntaxScan,
): void {
  let i = from;
  let run = i; // start of the pending stretch of plain text
  const flush = (to: number): void => {
    b.copy(run, to);
  };
  while (i < lineEnd) {
    // Plain characters up to the next piece of syntax: nothing to decide.
    i = scan.at(i);
    if (i >= lineEnd) break;
    const c = md.charCodeAt(i);
    if (c === 92) {
      // backslash escape: the escaped character is text
      if (i + 1 < lineEnd && isAsciiPunct(md.charCodeAt(i + 1))) {
        flush(i);
        run = i + 1;
        i += 2;
      } else i++;
      continue;
    }
    if (c === 96) {
      // code span: contents are literal text
      let n = 0;
      while (md.charCodeAt(i + n) === 96) n++;
      // The closing run is searched for on this line only (an unclosed backtick must not scan the rest of the text).
      const rel = md.slice(i + n, lineEnd).indexOf('`'.repeat(n));
      const close = rel === -1 ? -1 : i + n + rel;
      flush(i);
      if (close === -1) {
        i += n;
        run = i;
        continue;
      }
      b.copy(i + n, close, true);
      i = close + n;
      run = i;
      continue;
    }
    if (c === 42 || c === 126) {
      flush(i);
      i++;
      run = i;
      continue;
    }
    if (c === 95) {
      // snake_case and addresses keep their underscores; emphasis underscores sit at word edges.
      if (i > lineStart && isAlnum(md.charCodeAt(i - 1)) && i + 1 < lineEnd && isAlnum(md.charCodeAt(i + 1))) {
        i++;
        continue;
      }
      flush(i);
      i++;
      run = i;
      continue;
    }
    if (c === 33) {
      // "![": image
      if (md.charCodeAt(i + 1) === 91) {
        flush(i);
        i++;
        run = i;
      } else i++;
      continue;
    }
    if (c === 91) {
      flush(i);
      i++;
      run = i;
      continue;
    }
    if (c === 93) {
      flush(i);
      if (md.charCodeAt(i + 1) === 40) {
        // Link destination: kept as text (an address in a mailto: is redacted too), set apart by spaces.
        b.sep(32);
        i += 2;
        const destStart = i;
        let depth = 0;
        while (i < lineEnd) {
          const d = md.charCodeAt(i);
          if (d === 40) depth++;
          else if (d === 41) {
            if (depth === 0) break;
            depth--;
          } else if (d === 32 && md.charCodeAt(i + 1) === 34) break;
          i++;
        }
        b.copy(destStart, i, true);
        if (md.charCodeAt(i) === 32 && md.charCodeAt(i + 1) === 34) {
          // Link title: text as well.
          b.sep(32);
          const titleStart = i + 2;
          let k = titleStart;
          while (k < lineEnd && !(md.charCodeAt(k) === 34 && md.charCodeAt(k + 1) === 41)) k++;
          b.copy(titleStart, k);
          i = k + 1;
        }
        b.sep(32);
        i++;
        run = i;
        continue;
      }
      i++;
      run = i;
      continue;
    }
    if (c === 124) {
      if (table) {
        flush(i);
        b.sep(10);
        i++;
        run = i;
      } else i++;
      continue;
    }
    if (c === 60) {
      const tag = /^<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/.exec(md.slice(i, Math.min(lineEnd, i + 300)));
      if (tag) {
        flush(i);
        i += tag[0].length;
        run = i;
        continue;
      }
      i++;
      continue;
    }
    i++;
  }
  flush(lineEnd);
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
function redactionEdits(md: string, options: DetectOptions, style: ReplaceStyle): Edit[] {
  const proj = project(md);
  const dets = detect(proj.text, options);
  const edits: Edit[] = [];
  for (const d of splitAtBlankLines(proj.text, dets)) {
    // Markdown offsets of the detection's characters, grouped into contiguous stretches.
    const stretches: Array<[number, number]> = [];
    for (let p = d.start; p < d.end; p++) {
      const at = proj.offset(p);
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
        if (
          /^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?$/.test(md.slice(ls, s)) &&
          /^\s*$/.test(md.slice(e, le)) &&
          /^[*\s]*$/.test(masked) &&
          masked.replace(/\s/g, '').length >= 3 &&
          proj.literal[s] !== 1
        ) {
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
      if (starts[mid]! <= offset) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
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
export function redactMarkdown(
  md: string,
  options: DetectOptions,
  style: ReplaceStyle,
): { markdown: string; edits: Edit[] } {
  const edits = redactionEdits(md, options, style);
  return { markdown: applyEdits(md, edits), edits };
}
