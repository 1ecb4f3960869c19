/**
 * The tables camelot's tests expect, read from its test files as they are written (see
 * ../shared/corpus/camelot/README): `data.py` holds the rows, `test_*.py` say which rows go with
 * which file, pages, flavour and table index. Nothing is executed (test-support/python-literals.ts).
 *
 * Choosing one expectation per file (several tests read the same file with different settings):
 *  - ruled (lattice) when a lattice test reads the file, else unruled (stream); among the calls,
 *    lattice, then stream, then network, then hybrid;
 *  - calls whose settings rewrite the cell text (`strip_text`, `copy_text`, a `shift_text` other than
 *    the default) are used only when the file has no other (`copy_text` is then undone, below); `flag_size` marks (`<s>`) are removed by
 *    the scorer's normalisation;
 *  - a call restricted to `table_areas` / `table_regions`, or one whose assertions name table k
 *    without naming every table before it, expects only part of the page: the page is `partial`, and
 *    tables predicted there that match no expectation are not counted (the page may hold others).
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { PyExpressionParser, readBindings, tokenize, type PyCall, type PyValue } from './python-literals.js';

export type Flavour = 'lattice' | 'stream';

export interface ExpectedTable {
  /** Name of the rows in data.py. */
  data: string;
  /** Index of the table in camelot's result for the call. */
  index: number;
  rows: string[][];
}

export interface CamelotCase {
  /** Path relative to the camelot folder. */
  file: string;
  /** 1-based pages the call reads. */
  pages: number[];
  flavour: Flavour;
  /** The test (and its camelot flavour) the expectation comes from. */
  test: string;
  camelotFlavour: string;
  tables: ExpectedTable[];
  /** The expectation covers only part of what is on its page (see the module comment). */
  partial: boolean;
  /** Settings the call passed, as `key=value` strings. */
  settings: string[];
}

export interface CamelotExpectations {
  cases: CamelotCase[];
  /** Calls with expected rows whose PDF is not in the folder. */
  missingFiles: string[];
  /** data.py names no test compares a table with. */
  unusedData: string[];
}

const FLAVOUR_ORDER = ['lattice', 'stream', 'network', 'hybrid'];
const TEXT_REWRITING = ['strip_text', 'copy_text'];

interface Call {
  test: string;
  file: string;
  kwargs: Record<string, PyValue>;
  asserted: Array<{ data: string; index: number }>;
}

/** Expands camelot's page strings ("1", "1,3", "2-4"); `end` is not resolved (first page only). */
function pagesOf(spec: PyValue): number[] {
  if (typeof spec !== 'string') return [1];
  const out: number[] = [];
  for (const part of spec.split(',')) {
    const [a, b] = part.split('-').map((s) => Number(s.trim()));
    if (!a) continue;
    for (let p = a; p <= (b && Number.isFinite(b) ? b : a); p++) out.push(p);
  }
  return out.length ? out : [1];
}

/** Parses the call that starts at `offset` of `src`, reporting the first call met. */
function callAt(src: string, offset: number, env: Map<string, PyValue>): PyCall | undefined {
  let found: PyCall | undefined;
  const parser = new PyExpressionParser(tokenize(src.slice(offset)), env, (c) => {
    found ??= c;
    return undefined;
  });
  try {
    parser.expression();
  } catch {
    return undefined;
  }
  return found;
}

/** The functions of a test module with their source text. */
function testFunctions(src: string): Array<{ name: string; body: string }> {
  const starts = [...src.matchAll(/^def (test_\w+)\(/gm)];
  return starts.map((m, i) => ({
    name: m[1]!,
    body: src.slice(m.index, i + 1 < starts.length ? starts[i + 1]!.index : src.length),
  }));
}

/** The calls of one test function, each with the tables its assertions compare. */
function callsOf(test: string, body: string, env: Map<string, PyValue>): Call[] {
  const frames = new Map<string, string>();
  for (const m of body.matchAll(/(\w+)\s*=\s*pd\.DataFrame\(\s*(\w+)\s*\)/g)) frames.set(m[1]!, m[2]!);
  const events = [
    ...[...body.matchAll(/filename\s*=\s*(os\.path\.join\()/g)].map((m) => ({ at: m.index, kind: 'file' as const })),
    ...[...body.matchAll(/tables\s*=\s*(camelot\.read_pdf\()/g)].map((m) => ({ at: m.index, kind: 'read' as const })),
    ...[
      ...body.matchAll(/assert_frame_equal\(\s*(\w+)\s*,\s*tables\[(\d+)\]\.df/g),
      ...body.matchAll(/(\w+)\.equals\(\s*tables\[(\d+)\]\.df\s*\)/g),
    ].map((m) => ({ at: m.index, kind: 'assert' as const, df: m[1]!, index: Number(m[2]) })),
  ].sort((a, b) => a.at - b.at);
  const calls: Call[] = [];
  let file = '';
  for (const e of events) {
    if (e.kind === 'file') {
      const call = callAt(body, body.indexOf('os.path.join(', e.at), env);
      const parts = call?.args.slice(1) ?? [];
      file = parts.every((p) => typeof p === 'string') ? path.posix.join(...(parts as string[])) : '';
    } else if (e.kind === 'read') {
      const call = callAt(body, body.indexOf('camelot.read_pdf(', e.at), env);
      calls.push({ test, file, kwargs: call?.kwargs ?? {}, asserted: [] });
    } else {
      const data = frames.get(e.df);
      const last = calls.at(-1);
      if (data && last) last.asserted.push({ data, index: e.index });
    }
  }
  return calls.filter((c) => c.file && c.asserted.length);
}

function settingsOf(kwargs: Record<string, PyValue>): string[] {
  return Object.entries(kwargs)
    .filter(([k]) => k !== 'flavor' && k !== 'pages')
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`);
}

function rewritesText(kwargs: Record<string, PyValue>): boolean {
  if (TEXT_REWRITING.some((k) => k in kwargs)) return true;
  const shift = kwargs['shift_text'];
  return shift !== undefined && JSON.stringify(shift) !== JSON.stringify(['l', 't']);
}

function asRows(v: PyValue): string[][] | undefined {
  if (!Array.isArray(v) || !v.every((r) => Array.isArray(r))) return undefined;
  return (v as PyValue[][]).map((r) => r.map((c) => (typeof c === 'string' ? c : c == null ? '' : String(c))));
}

/**
 * `copy_text` fills the slots a spanning cell covers with copies of its text ('v' down, 'h' across);
 * blanking a copy equal to the slot before it gives back the table as read without the setting (a
 * span's covered slots empty, as in every other expectation).
 */
function undoCopyText(rows: string[][] | undefined, kwargs: Record<string, PyValue>): string[][] | undefined {
  const copy = kwargs['copy_text'];
  const dirs = Array.isArray(copy) ? copy : typeof copy === 'string' ? [copy] : [];
  if (!rows || !dirs.length) return rows;
  return rows.map((row, r) =>
    row.map((cell, c) =>
      (dirs.includes('v') && r > 0 && rows[r - 1]![c] === cell) || (dirs.includes('h') && c > 0 && row[c - 1] === cell)
        ? ''
        : cell,
    ),
  );
}

/** Reads every expectation of the camelot folder; `dir` is `../shared/corpus/camelot`. */
export function readCamelotExpectations(dir: string): CamelotExpectations {
  const data = readBindings(readFileSync(path.join(dir, 'data.py'), 'utf8'));
  const calls: Call[] = [];
  for (const name of readdirSync(dir)
    .filter((n) => /^test_.*\.py$/.test(n))
    .sort()) {
    const src = readFileSync(path.join(dir, name), 'utf8');
    const env = new Map([...data, ...readBindings(src)]);
    for (const fn of testFunctions(src)) calls.push(...callsOf(fn.name, fn.body, env));
  }
  const used = new Set(calls.flatMap((c) => c.asserted.map((a) => a.data)));
  const missing = new Set<string>();
  const byFile = new Map<string, Call[]>();
  for (const c of calls) {
    if (!existsSync(path.join(dir, c.file))) {
      missing.add(c.file);
      continue;
    }
    byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  }
  const flavourOf = (c: Call): string => (typeof c.kwargs['flavor'] === 'string' ? c.kwargs['flavor'] : 'lattice');
  const cases: CamelotCase[] = [];
  for (const [file, fileCalls] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
    const ranked = [...fileCalls].sort(
      (a, b) =>
        Number(rewritesText(a.kwargs)) - Number(rewritesText(b.kwargs)) ||
        Number('table_areas' in a.kwargs || 'table_regions' in a.kwargs) -
          Number('table_areas' in b.kwargs || 'table_regions' in b.kwargs) ||
        FLAVOUR_ORDER.indexOf(flavourOf(a)) - FLAVOUR_ORDER.indexOf(flavourOf(b)),
    );
    const best = ranked[0]!;
    const tables = best.asserted
      .map((a) => ({ data: a.data, index: a.index, rows: undoCopyText(asRows(data.get(a.data)), best.kwargs) }))
      .filter((t): t is ExpectedTable => t.rows !== undefined && t.rows.length > 0)
      .sort((a, b) => a.index - b.index);
    if (!tables.length) continue;
    const indices = new Set(tables.map((t) => t.index));
    const gaps = tables.some((t) => [...Array(t.index).keys()].some((i) => !indices.has(i)));
    cases.push({
      file,
      pages: pagesOf(best.kwargs['pages']),
      flavour: fileCalls.some((c) => flavourOf(c) === 'lattice') ? 'lattice' : 'stream',
      test: best.test,
      camelotFlavour: flavourOf(best),
      tables,
      partial: gaps || 'table_areas' in best.kwargs || 'table_regions' in best.kwargs,
      settings: settingsOf(best.kwargs),
    });
  }
  const unusedData = [...data.keys()].filter((k) => k.startsWith('data_') && !used.has(k));
  return { cases, missingFiles: [...missing].sort(), unusedData };
}
