/**
 * The shape of the source tree, measured: the import graph between files, the length of every function,
 * and the size of every file. test/code-shape.test.ts holds the tree to its rules; run
 *   npm run build && node dist/test-support/code-shape.js
 * to print the offenders.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from '@babel/parser';
import { REPO_ROOT } from './corpus.js';

export interface FunctionSpan {
  file: string;
  name: string;
  line: number;
  lines: number;
}

export function sourceFiles(...roots: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|mts)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(full);
    }
  };
  for (const root of roots) walk(path.join(REPO_ROOT, root));
  return out;
}

/** Relative imports (static `import`/`export ... from` and dynamic `import()`), resolved to source files. */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const match of text.matchAll(pattern)) {
    const target = path.resolve(path.dirname(file), match[1]!).replace(/\.js$/, '.ts');
    found.add(target);
  }
  return [...found];
}

/** Import cycles among the given files, each as the list of files around it. */
export function importCycles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => files.includes(t))]));
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}

/** Every function, method and arrow function with its length in lines. */
export function functionSpans(file: string): FunctionSpan[] {
  const ast = parse(readFileSync(file, 'utf8'), { sourceType: 'module', plugins: ['typescript'] });
  const spans: FunctionSpan[] = [];
  const visit = (node: unknown, name: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child, name);
      return;
    }
    const n = node as Record<string, unknown> & {
      type?: string;
      loc?: { start: { line: number }; end: { line: number } };
    };
    let own = name;
    const id = n['id'] as { name?: string } | undefined;
    const key = n['key'] as { name?: string } | undefined;
    if (n.type === 'VariableDeclarator' && id?.name) own = id.name;
    if (/Function|Method/.test(n.type ?? '') && n.loc && n.type !== 'TSDeclareFunction') {
      own = id?.name ?? key?.name ?? name;
      spans.push({
        file,
        name: own || '(anonymous)',
        line: n.loc.start.line,
        lines: n.loc.end.line - n.loc.start.line + 1,
      });
    }
    for (const [k, child] of Object.entries(n)) {
      if (k !== 'loc' && k !== 'start' && k !== 'end' && child && typeof child === 'object') visit(child, own);
    }
  };
  visit(ast.program, '');
  return spans;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const files = sourceFiles('src', 'workers');
  const rel = (f: string): string => path.relative(REPO_ROOT, f);
  for (const span of files
    .flatMap(functionSpans)
    .filter((s) => s.lines > 150)
    .sort((a, b) => b.lines - a.lines)) {
    console.log(`function ${span.lines} lines: ${rel(span.file)}:${span.line} ${span.name}`);
  }
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length;
    if (lines > 900 || text.length > 200_000) console.log(`file ${lines} lines, ${text.length} chars: ${rel(file)}`);
  }
  for (const cycle of importCycles(files)) console.log(`cycle: ${cycle.map(rel).join(' -> ')}`);
  for (const file of sourceFiles('src')) {
    for (const target of importsOf(file))
      if (rel(target).startsWith('workers/')) console.log(`src imports workers: ${rel(file)} -> ${rel(target)}`);
  }
}
