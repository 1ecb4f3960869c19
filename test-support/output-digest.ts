/**
 * Digests of what docmill makes of every fixture and every corpus document, so that a change meant to
 * leave behaviour alone (a refactor) can show it did:
 *
 *   npm run build && node dist/test-support/output-digest.js [--out FILE] [--dump DIR] [--filter TEXT] [--no-ocr]
 *
 * Each document is parsed with `pages` and `blocks` on, PDFs in `fast` and `auto` mode, and in `ocr` mode
 * the OCR fixtures and the corpus PDFs of at most OCR_MAX_PAGES pages (a whole-corpus OCR run would take
 * hours). A line per document and mode: the SHA-256 of the markdown, pages, blocks and metadata as JSON, or
 * the error code. `--dump DIR` also writes each output, so two runs can be diffed file by file.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SUPPORTED_EXTENSIONS } from '../src/detect/detect.js';
import { ParseError } from '../src/errors.js';
import type { ParseOptions, PdfMode } from '../src/options/schema.js';
import { createParser } from '../src/parser.js';
import { CORPUS_DIR, corpusAvailable } from './corpus.js';
import { listFixtures } from './fixtures.js';

const OCR_MAX_PAGES = 3;

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    dump: { type: 'string' },
    filter: { type: 'string' },
    'no-ocr': { type: 'boolean', default: false },
  },
});

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(full);
  }
}

interface Item {
  label: string;
  file: string;
  options: ParseOptions | undefined;
  ocrFixture: boolean;
}

function items(): Item[] {
  const list: Item[] = listFixtures().map((fx) => ({
    label: `fixtures/${fx.name}`,
    file: fx.file,
    options: fx.options,
    ocrFixture: fx.name.startsWith('ocr/'),
  }));
  const corpus = CORPUS_DIR;
  if (corpusAvailable) {
    const files: string[] = [];
    // camelot/ is the table benchmark's set: 72 PDFs read by bench/, not part of the byte-identity check.
    for (const entry of readdirSync(corpus).sort()) {
      const full = path.join(corpus, entry);
      if (entry !== 'camelot' && statSync(full).isDirectory()) walk(full, files);
    }
    for (const file of files) {
      if (!(SUPPORTED_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase())) continue;
      list.push({ label: `corpus/${path.relative(corpus, file)}`, file, options: undefined, ocrFixture: false });
    }
  }
  return list.filter((it) => !values.filter || it.label.includes(values.filter));
}

function withPdf(options: ParseOptions | undefined, mode: PdfMode | undefined): ParseOptions {
  const base: ParseOptions = { ...(options ?? {}), timeout: 300_000 };
  const pdf = { type: 'pdf' as const, pages: true, blocks: true, ...(mode ? { mode } : {}) };
  return { ...base, parsers: [pdf] };
}

const parser = createParser();
const lines: string[] = [];
const whole = createHash('sha256');
try {
  for (const it of items()) {
    const bytes = readFileSync(it.file);
    const isPdf = bytes.subarray(0, 1024).includes(Buffer.from('%PDF'));
    const modes: (PdfMode | undefined)[] = isPdf ? ['fast', 'auto'] : [undefined];
    if (isPdf && !values['no-ocr']) {
      const pages = (bytes.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
      if (it.ocrFixture || pages <= OCR_MAX_PAGES) modes.push('ocr');
    }
    for (const mode of modes) {
      const key = `${it.label}${mode ? ` [${mode}]` : ''}`;
      let text: string;
      try {
        const doc = await parser.parseFile(bytes, withPdf(it.options, mode), { filename: path.basename(it.file) });
        text = JSON.stringify({
          markdown: doc.markdown,
          pages: doc.pages,
          blocks: doc.blocks,
          metadata: doc.metadata,
          warning: doc.warning,
        });
      } catch (err) {
        text = JSON.stringify({ error: err instanceof ParseError ? err.code : String(err) });
      }
      const digest = createHash('sha256').update(text).digest('hex');
      whole.update(`${key} ${digest}\n`);
      lines.push(`${digest.slice(0, 16)} ${key}`);
      console.log(lines.at(-1));
      if (values.dump) {
        const target = path.join(values.dump, `${key.replace(/[/ [\]]+/g, '_')}.json`);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, text);
      }
    }
  }
} finally {
  await parser.close();
}
const summary = `all ${lines.length} outputs: ${whole.digest('hex')}`;
console.log(summary);
if (values.out) writeFileSync(values.out, `${lines.join('\n')}\n${summary}\n`);
if (!corpusAvailable) console.log('(the corpus is absent: fixtures only)');
