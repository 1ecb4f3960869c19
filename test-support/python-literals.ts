/**
 * A reader for the small part of Python that test data files are written in: string, number and
 * boolean literals, lists, tuples and dicts of them, names bound earlier, slices (`rows[1:-3]`) and
 * `list(rows)`. Nothing is executed; anything outside that subset reads as `undefined`.
 *
 * Used by the table benchmark to take camelot's expected rows (`data.py`) and its test calls
 * (`test_*.py`) as they are written, without running Python.
 */

export type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue } | undefined;

export type PyToken =
  | { kind: 'name'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'op'; text: string }
  | { kind: 'newline' };

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

/** Decodes the escapes of a non-raw Python string body. */
function unescape(body: string): string {
  return body.replace(/\\(\n|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|.)/g, (whole, e: string) => {
    if (e === '\n') return '';
    if (e[0] === 'x' || e[0] === 'u' || e[0] === 'U') return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (e[0] === 'N') return whole; // named characters: not used by the data; kept visible.
    return SIMPLE_ESCAPES[e] ?? whole;
  });
}

/** Splits Python source into tokens (comments dropped; newlines kept only outside brackets). */
export function tokenize(src: string): PyToken[] {
  const out: PyToken[] = [];
  let i = 0;
  let depth = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '\n') {
      if (depth === 0 && out.at(-1)?.kind !== 'newline') out.push({ kind: 'newline' });
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const str = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(src.slice(i, i + 5));
    if (str && (str[1] === '' || /[A-Za-z]/.test(c))) {
      const prefix = str[1]!.toLowerCase();
      const quote = str[2]!;
      let j = i + str[0].length;
      let body = '';
      while (j < src.length && !src.startsWith(quote, j)) {
        if (src[j] === '\\') {
          body += src.slice(j, j + 2);
          j += 2;
        } else body += src[j++];
      }
      out.push({ kind: 'string', value: prefix.includes('r') ? body : unescape(body) });
      i = j + quote.length;
      continue;
    }
    const num = /^(\d[\d_]*(\.\d*)?([eE][-+]?\d+)?|\.\d+)/.exec(src.slice(i, i + 40));
    if (num) {
      out.push({ kind: 'number', value: Number(num[0].replace(/_/g, '')) });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 200));
    if (name) {
      out.push({ kind: 'name', text: name[0] });
      i += name[0].length;
      continue;
    }
    if ('([{'.includes(c)) depth++;
    if (')]}'.includes(c)) depth = Math.max(0, depth - 1);
    const two = src.slice(i, i + 2);
    const op = ['==', '!=', '<=', '>=', '**', '->'].includes(two) ? two : c;
    out.push({ kind: 'op', text: op });
    i += op.length;
  }
  return out;
}

/** A call found in the source: its callee (dotted), positional and keyword arguments. */
export interface PyCall {
  callee: string;
  args: PyValue[];
  kwargs: Record<string, PyValue>;
}

/**
 * Parses expressions over a token list. `env` resolves names bound earlier; every call met while
 * parsing is reported to `onCall` (so a scanner can see `read_pdf(...)` wherever it sits).
 */
export class PyExpressionParser {
  pos = 0;
  constructor(
    readonly toks: PyToken[],
    readonly env: Map<string, PyValue>,
    readonly onCall: (call: PyCall) => PyValue = () => undefined,
  ) {}

  private peek(offset = 0): PyToken | undefined {
    return this.toks[this.pos + offset];
  }

  private isOp(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t?.kind === 'op' && t.text === text;
  }

  private expectOp(text: string): void {
    if (!this.isOp(text)) throw new Error(`expected "${text}" at token ${this.pos}`);
    this.pos++;
  }

  /** expr := term ('+' term)* ; lists and strings concatenate, numbers add. */
  expression(): PyValue {
    let left = this.unary();
    while (this.isOp('+')) {
      this.pos++;
      const right = this.unary();
      if (Array.isArray(left) && Array.isArray(right)) left = [...left, ...right];
      else if (typeof left === 'string' && typeof right === 'string') left = left + right;
      else if (typeof left === 'number' && typeof right === 'number') left = left + right;
      else left = undefined;
    }
    return left;
  }

  private unary(): PyValue {
    if (this.isOp('-')) {
      this.pos++;
      const v = this.unary();
      return typeof v === 'number' ? -v : undefined;
    }
    return this.postfix(this.atom());
  }

  private atom(): PyValue {
    const t = this.peek();
    if (!t) throw new Error('unexpected end of input');
    if (t.kind === 'string') {
      let s = '';
      while (this.peek()?.kind === 'string') s += (this.toks[this.pos++] as { value: string }).value;
      return s;
    }
    if (t.kind === 'number') {
      this.pos++;
      return t.value;
    }
    if (t.kind === 'name') {
      this.pos++;
      if (t.text === 'True') return true;
      if (t.text === 'False') return false;
      if (t.text === 'None') return null;
      return this.env.has(t.text) ? this.env.get(t.text) : undefined;
    }
    if (t.kind === 'op' && (t.text === '[' || t.text === '(')) {
      const close = t.text === '[' ? ']' : ')';
      this.pos++;
      const items: PyValue[] = [];
      let comma = false;
      while (!this.isOp(close)) {
        items.push(this.expression());
        if (this.isOp(',')) {
          comma = true;
          this.pos++;
        } else break;
      }
      this.expectOp(close);
      return close === ')' && items.length === 1 && !comma ? items[0] : items;
    }
    if (t.kind === 'op' && t.text === '{') {
      this.pos++;
      const obj: Record<string, PyValue> = {};
      while (!this.isOp('}')) {
        const k = this.expression();
        this.expectOp(':');
        obj[String(k)] = this.expression();
        if (this.isOp(',')) this.pos++;
        else break;
      }
      this.expectOp('}');
      return obj;
    }
    throw new Error(`unexpected token ${JSON.stringify(t)} at ${this.pos}`);
  }

  /** Dotted name of the atom just read, for calls (`camelot.read_pdf`). */
  private calleeName(start: number): string {
    return this.toks
      .slice(start, this.pos)
      .map((t) => (t.kind === 'name' ? t.text : t.kind === 'op' ? t.text : ''))
      .join('');
  }

  private postfix(value: PyValue): PyValue {
    const start = this.pos - 1;
    let v = value;
    for (;;) {
      if (this.isOp('.') && this.peek(1)?.kind === 'name') {
        this.pos += 2;
        v = undefined;
      } else if (this.isOp('[')) {
        this.pos++;
        v = this.subscript(v);
      } else if (this.isOp('(')) {
        const callee = this.calleeName(start);
        this.pos++;
        const call: PyCall = { callee, args: [], kwargs: {} };
        while (!this.isOp(')')) {
          if (this.peek()?.kind === 'name' && this.isOp('=', 1)) {
            const key = (this.peek() as { text: string }).text;
            this.pos += 2;
            call.kwargs[key] = this.expression();
          } else call.args.push(this.expression());
          if (this.isOp(',')) this.pos++;
          else break;
        }
        this.expectOp(')');
        const reported = this.onCall(call);
        v = callee === 'list' && Array.isArray(call.args[0]) ? [...call.args[0]] : reported;
      } else return v;
    }
  }

  private optionalIndex(): number | undefined {
    if (this.isOp(':') || this.isOp(']')) return undefined;
    const v = this.expression();
    return typeof v === 'number' ? v : undefined;
  }

  private subscript(target: PyValue): PyValue {
    const a = this.optionalIndex();
    if (this.isOp(':')) {
      this.pos++;
      const b = this.optionalIndex();
      this.expectOp(']');
      if (!Array.isArray(target) && typeof target !== 'string') return undefined;
      const n = target.length;
      const norm = (x: number | undefined, d: number): number =>
        x === undefined ? d : x < 0 ? Math.max(0, n + x) : Math.min(n, x);
      return target.slice(norm(a, 0), norm(b, n));
    }
    this.expectOp(']');
    if (Array.isArray(target) && a !== undefined) return target[a < 0 ? target.length + a : a];
    return undefined;
  }
}

/**
 * Reads the top-level `name = expression` bindings of a Python module in order (a later binding of
 * the same name replaces the earlier, as in Python). Lines it cannot read are skipped.
 */
export function readBindings(src: string): Map<string, PyValue> {
  const toks = tokenize(src);
  const env = new Map<string, PyValue>();
  const parser = new PyExpressionParser(toks, env);
  let atLineStart = true;
  while (parser.pos < toks.length) {
    const t = toks[parser.pos]!;
    const next = toks[parser.pos + 1];
    if (atLineStart && t.kind === 'name' && next?.kind === 'op' && next.text === '=') {
      parser.pos += 2;
      try {
        env.set(t.text, parser.expression());
      } catch {
        env.set(t.text, undefined);
      }
      atLineStart = false;
      continue;
    }
    atLineStart = t.kind === 'newline';
    parser.pos++;
  }
  return env;
}
