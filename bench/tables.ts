/**
 * Table benchmark on camelot's test PDFs (../shared/corpus/camelot): the markdown tables of docmill
 * (fast mode), @firecrawl/pdf-inspector and @firecrawl/anydoc, scored in the same run against the
 * rows camelot's tests expect, by cell adjacency relations (test-support/table-adjacency.ts says how
 * cells are compared and tables matched; test-support/camelot-expectations.ts how the expectation
 * of each file is chosen).
 *
 *   npm run build && node bench/tables.ts [--write] [--json out.json]
 *
 * Only the pages an expectation names are scored. docmill parses the whole file with per-page
 * markdown; pdf-inspector renders the named pages (extractPagesMarkdown); anydoc converts a copy of
 * the named page alone (pdf-lib) when the file has more than one page, as it has no page option.
 *
 * Held-out part: a file is held out when the first byte of the SHA-256 of its path (relative to the
 * camelot folder) is divisible by 3. Held-out files are never used to tune docmill: look at their
 * scores, never at their output. `--write` replaces the "Tables" section of bench/README.md;
 * `--json` writes every predicted table and score for diagnosis.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import type * as BenchReadme from '../test-support/bench-readme.js';
import type * as Expectations from '../test-support/camelot-expectations.js';
import type * as Adjacency from '../test-support/table-adjacency.js';
import type * as Docmill from '../src/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = process.env['DOCMILL_CORPUS'] ?? path.resolve(ROOT, '..', 'shared', 'corpus');
const DIR = path.join(CORPUS, 'camelot');
const args = process.argv.slice(2);
const WRITE = args.includes('--write');
const JSON_OUT = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const COMMAND = 'npm run build && node bench/tables.ts --write';

const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;
const { readCamelotExpectations } = (await import(dist('test-support/camelot-expectations.js'))) as typeof Expectations;
const { markdownTables, scorePage, f1Of } = (await import(dist('test-support/table-adjacency.js'))) as typeof Adjacency;

type Tool = 'docmill' | 'pdf-inspector' | 'anydoc';
const TOOLS: Tool[] = ['docmill', 'pdf-inspector', 'anydoc'];

interface FileResult {
  file: string;
  flavour: Expectations.Flavour;
  heldOut: boolean;
  partial: boolean;
  source: string;
  scores: Record<Tool, Adjacency.PageScore & { error?: string; ms: number }>;
  predicted: Record<Tool, Adjacency.Grid[]>;
}

function heldOut(file: string): boolean {
  return createHash('sha256').update(file).digest()[0]! % 3 === 0;
}

/** Markdown of each named page (1-based), per tool. */
type PageReader = (bytes: Buffer, pages: number[]) => Promise<string[]>;

async function readers(): Promise<{ read: Record<Tool, PageReader>; close: () => Promise<void> }> {
  const { createParser } = (await import(dist('src/index.js'))) as typeof Docmill;
  const parser = createParser();
  const require = createRequire(path.join(ROOT, 'package.json'));
  const inspector = require('@firecrawl/pdf-inspector') as typeof import('@firecrawl/pdf-inspector');
  const anydoc = require('@firecrawl/anydoc') as typeof import('@firecrawl/anydoc');
  const docmill: PageReader = async (bytes, pages) => {
    const doc = await parser.parseFile(bytes, {
      timeout: 120000,
      parsers: [{ type: 'pdf', mode: 'fast', pages: true }],
    });
    return pages.map((p) => doc.pages?.find((x) => x.pageNumber === p)?.markdown ?? '');
  };
  const pdfInspector: PageReader = async (bytes, pages) => {
    const res = inspector.extractPagesMarkdown(
      bytes,
      pages.map((p) => p - 1),
    );
    return pages.map((p) => res.pages.find((x) => x.page === p - 1)?.markdown ?? '');
  };
  const anyDoc: PageReader = async (bytes, pages) => {
    const src = await PDFDocument.load(bytes, { ignoreEncryption: true });
    const out: string[] = [];
    for (const p of pages) {
      let one: Uint8Array = bytes;
      if (src.getPageCount() > 1) {
        const doc = await PDFDocument.create();
        const [page] = await doc.copyPages(src, [p - 1]);
        doc.addPage(page!);
        one = await doc.save();
      }
      out.push(await anydoc.toMarkdownBytes(one, 'pdf' as import('@firecrawl/anydoc').Format));
    }
    return out;
  };
  return {
    read: { docmill, 'pdf-inspector': pdfInspector, anydoc: anyDoc },
    close: () => parser.close(),
  };
}

const EMPTY_SCORE = (expected: Adjacency.Grid[]): Adjacency.PageScore => scorePage(expected, [], false);

async function run(): Promise<FileResult[]> {
  const { cases } = readCamelotExpectations(DIR);
  const { read, close } = await readers();
  const results: FileResult[] = [];
  for (const c of cases) {
    const bytes = readFileSync(path.join(DIR, c.file));
    const expected = c.tables.map((t) => t.rows);
    const result: FileResult = {
      file: c.file,
      flavour: c.flavour,
      heldOut: heldOut(c.file),
      partial: c.partial,
      source: `${c.test} (${c.camelotFlavour}${c.settings.length ? `; ${c.settings.join(', ')}` : ''})`,
      scores: {} as FileResult['scores'],
      predicted: {} as FileResult['predicted'],
    };
    for (const tool of TOOLS) {
      const t0 = performance.now();
      try {
        const pages = await read[tool](bytes, c.pages);
        const predicted = pages.flatMap((md) => markdownTables(md));
        result.predicted[tool] = predicted;
        result.scores[tool] = { ...scorePage(expected, predicted, c.partial), ms: performance.now() - t0 };
      } catch (e) {
        result.predicted[tool] = [];
        result.scores[tool] = { ...EMPTY_SCORE(expected), error: (e as Error).message, ms: performance.now() - t0 };
      }
    }
    results.push(result);
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  await close();
  return results;
}

interface Summary {
  precision: number;
  recall: number;
  f1: number;
  meanF1: number;
  files: number;
  tablesExpected: number;
  tablesPredicted: number;
  tablesRecovered: number;
}

function summarise(rs: FileResult[], tool: Tool): Summary {
  const sum = (k: 'correct' | 'predicted' | 'expected' | `tables${'Expected' | 'Predicted' | 'Recovered'}`): number =>
    rs.reduce((n, r) => n + r.scores[tool][k], 0);
  const pooled = f1Of({ correct: sum('correct'), predicted: sum('predicted'), expected: sum('expected') });
  const meanF1 = rs.length ? rs.reduce((n, r) => n + f1Of(r.scores[tool]).f1, 0) / rs.length : 0;
  return {
    ...pooled,
    meanF1,
    files: rs.length,
    tablesExpected: sum('tablesExpected'),
    tablesPredicted: sum('tablesPredicted'),
    tablesRecovered: sum('tablesRecovered'),
  };
}

const f2 = (x: number): string => x.toFixed(2);

function summaryRows(label: string, rs: FileResult[]): string[] {
  return TOOLS.map((tool) => {
    const s = summarise(rs, tool);
    return `| ${label} | ${tool} | ${s.files} | ${f2(s.precision)} | ${f2(s.recall)} | **${f2(s.f1)}** | ${f2(s.meanF1)} | ${s.tablesPredicted} / ${s.tablesExpected} | ${s.tablesRecovered} |`;
  });
}

function report(rs: FileResult[]): string {
  const tuning = rs.filter((r) => !r.heldOut);
  const held = rs.filter((r) => r.heldOut);
  const { missingFiles, unusedData } = readCamelotExpectations(DIR);
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const lines: string[] = [
    '## Tables',
    '',
    `\`${COMMAND}\` — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores (${cpu}).`,
    '',
    `Ground truth: the rows camelot's own tests expect (\`../shared/corpus/camelot/data.py\`, tied to file, page and flavour by \`test_*.py\`, read without running Python): ${rs.length} PDFs with ${rs.reduce((n, r) => n + r.scores.docmill.tablesExpected, 0)} expected tables, ${rs.filter((r) => r.flavour === 'lattice').length} ruled (lattice) and ${rs.filter((r) => r.flavour === 'stream').length} unruled (stream). The other PDFs of the folder have no expected rows and are not scored${missingFiles.length ? `; an expectation whose PDF is not in the folder is left out (${missingFiles.join(', ')})` : ''}${unusedData.length ? `; rows no test uses are ignored (${unusedData.join(', ')})` : ''}. Where several tests read one file, the expectation is chosen by a fixed rule (lattice, then stream, network, hybrid; calls that rewrite the cell text or restrict the area only when there is no other; \`test-support/camelot-expectations.ts\`).`,
    '',
    'Measure: cell adjacency relations (ICDAR 2013 table competition): each non-empty cell with its nearest non-empty neighbour to the right and below, compared as (text, text, direction) after normalising the text (NFKC, markup and leader dots removed, whitespace removed). On each page the expected and predicted tables sharing the most relations are matched first, one to one; unmatched predicted tables count against precision, except on pages where the expectation covers only part of the page (a table region, or a later table without the earlier ones). P/R/F1 pool the relations of all files; "mean F1" averages the F1 of each file. Tables: predicted / expected on the scored pages, and "recovered" = expected tables whose matched prediction has F1 ≥ 0.5. Each tool renders markdown (docmill: `mode: fast`), read as GitHub pipe tables.',
    '',
    'Caveats: the set is small (one file moves the pooled numbers by several points) and its pages are table pages, so tables invented from prose show only as extra tables there. camelot\'s stream expectations put each line of a head set over several lines in a row of its own ("Total" / "Internal" / "Debt"), so a tool that keeps a wrapped head in one cell loses those relations (superscript.pdf, health.pdf); its lattice expectations keep such cells whole.',
    '',
    `Split: a file is held out when the first byte of SHA-256 of its path is divisible by 3 (${held.length} of ${rs.length} files). Held-out files are not used for tuning: read their scores, not their output.`,
    '',
    '| part | tool | files | precision | recall | F1 | mean F1 | tables predicted / expected | recovered |',
    '|---|---|---|---|---|---|---|---|---|',
    ...summaryRows('all', rs),
    ...summaryRows('tuning', tuning),
    ...summaryRows('held out', held),
    ...summaryRows(
      'lattice (all)',
      rs.filter((r) => r.flavour === 'lattice'),
    ),
    ...summaryRows(
      'stream (all)',
      rs.filter((r) => r.flavour === 'stream'),
    ),
    '',
    'Target (issue 24): F1 ≥ 0.75 with precision ≥ 0.70 for docmill.',
    '',
    'Per file (F1, and tables predicted / expected), worst for docmill first:',
    '',
    '| file | flavour | part | expected rows from | docmill | pdf-inspector | anydoc |',
    '|---|---|---|---|---|---|---|',
  ];
  const cell = (r: FileResult, t: Tool): string => {
    const s = r.scores[t];
    return s.error ? `error: ${s.error.slice(0, 40)}` : `${f2(f1Of(s).f1)} (${s.tablesPredicted}/${s.tablesExpected})`;
  };
  for (const r of [...rs].sort((a, b) => f1Of(a.scores.docmill).f1 - f1Of(b.scores.docmill).f1)) {
    lines.push(
      `| ${r.file}${r.partial ? ' (partial page)' : ''} | ${r.flavour} | ${r.heldOut ? 'held out' : 'tuning'} | ${r.source} | ${TOOLS.map((t) => cell(r, t)).join(' | ')} |`,
    );
  }
  lines.push('');
  for (const t of TOOLS) {
    const worst = [...rs]
      .sort((a, b) => f1Of(a.scores[t]).f1 - f1Of(b.scores[t]).f1)
      .slice(0, 5)
      .map((r) => `${r.file} ${f2(f1Of(r.scores[t]).f1)}`);
    lines.push(`- worst for ${t}: ${worst.join(', ')}`);
  }
  return lines.join('\n');
}

if (!existsSync(path.join(DIR, 'data.py'))) {
  console.log(`camelot corpus not found at ${DIR}: table benchmark skipped (set DOCMILL_CORPUS to its path)`);
} else {
  const t0 = performance.now();
  const results = await run();
  const text = report(results);
  console.log(text);
  console.log(`\n(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(results, null, 1));
  if (WRITE) {
    const { writeReadmeSection } = (await import(dist('test-support/bench-readme.js'))) as typeof BenchReadme;
    writeReadmeSection('tables', text);
  }
}
