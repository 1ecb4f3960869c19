/**
 * Where docmill's OCR loses to the plain engine, page by page: the text or the structure. Each scan of
 * the scan set (test-support/scan-set.ts) is read by docmill's page reader (in this process, as an OCR
 * pool thread reads it) with its default processing and with the plain render (no processing at all,
 * the same layout after it), and by plain tesseract.js (the scan's grey JPEG as it is, PSM 3, its dpi;
 * cached in `.cache/scan-set/`, the engine being deterministic). Per scan, the CER of:
 *
 * - md: the page's laid-out blocks as markdown, taken back to plain text (what `onlyMainContent: false`
 *   writes): what the structure does to the text;
 * - words: the recognised words in the engine's own reading order, no structure: what the recognition does;
 *
 * for the processed reading and the plain one, plus the tables the layout built and the engine's report
 * (mean word confidence, dictionary share). Tuning part only unless `--held-out` (never tune on it).
 *
 *   npm run build && node bench/ocr-diagnose.ts [--only=file-substring,...] [--dpi=150,200] [--held-out] [--check] [--no-lines]
 *     [--source=/abs/file.pdf#page:kind,...] [--dump=dir]
 *
 * `--no-lines` turns off the plain lines taken into a doubtful reading (plain-regions.ts).
 * `--check` reads a third time with the plain-reading check on (what `plainCheck: true` keeps).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as ScanSet from '../test-support/scan-set.js';
import type * as Metrics from '../test-support/text-metrics.js';
import type * as ReaderModule from '../src/ocr/page-reader.js';
import type * as PageModule from '../src/ocr/page.js';
import type * as Plain from '../src/ocr/plain-reading.js';
import type * as Pre from '../src/ocr/preprocess.js';
import type * as Render from '../src/ocr/render.js';
import type * as EngineModule from '../src/ocr/engine.js';
import type * as Serialize from '../src/markdown/serialize.js';
import type { OcrTask, OcrTaskResult } from '../src/ocr/protocol.js';

const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;
const { buildScanSet, SOURCE_PAGES, SCAN_SET_DIR } = (await import(dist('test-support/scan-set.js'))) as typeof ScanSet;
const M = (await import(dist('test-support/text-metrics.js'))) as typeof Metrics;
const { ocrPageReader } = (await import(dist('src/ocr/page-reader.js'))) as typeof ReaderModule;
const { ocrPlainText } = (await import(dist('src/ocr/page.js'))) as typeof PageModule;
const { evidenceOf, PLAIN_PREPROCESS } = (await import(dist('src/ocr/plain-reading.js'))) as typeof Plain;
const { DEFAULT_PREPROCESS } = (await import(dist('src/ocr/preprocess.js'))) as typeof Pre;
const { DEFAULT_RENDER } = (await import(dist('src/ocr/render.js'))) as typeof Render;
const { bundledEnglishDir } = (await import(dist('src/ocr/engine.js'))) as typeof EngineModule;
const { renderNode } = (await import(dist('src/markdown/serialize.js'))) as typeof Serialize;
const tesseractJs = await import('tesseract.js');

const args = process.argv.slice(2);
const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = opt('only')?.split(',');
const dpis = opt('dpi')?.split(',').map(Number);
const heldOut = args.includes('--held-out');
const check = args.includes('--check') || args.includes('--check-only');
/** `--check-only`: only the reading with the check on (the others known from an earlier run). */
const checkOnly = args.includes('--check-only');
/** `--no-lines`: the plain reading's better lines not taken into a doubtful page (src/ocr/plain-regions.ts). */
const noLines = args.includes('--no-lines');
/** `--dump=dir`: each reading's markdown and words written there, to be read side by side. */
const dump = opt('dump');

/**
 * `--source=/abs/file.pdf#page:kind,...`: pages outside the scan set (a page the project renders itself),
 * scanned the same way and read instead of the set's pages. They are tuning pages.
 */
const sources = opt('source')
  ?.split(',')
  .map((s): ScanSet.SourcePage => {
    const m = /^(.+)#(\d+):(prose|two-column|table)$/.exec(s);
    if (!m) throw new Error(`--source: expected /abs/file.pdf#page:kind, got ${s}`);
    return { file: path.resolve(m[1]!), page: Number(m[2]), kind: m[3] as ScanSet.PageKind, producer: 'own' };
  });
const pages = sources ?? SOURCE_PAGES.filter((p) => !only || only.some((o) => p.file.includes(o)));
const scans = (await buildScanSet(pages)).filter(
  (s) => (sources !== undefined || s.heldOut === heldOut) && (!dpis || dpis.includes(s.dpi)),
);

// ---- plain tesseract.js, cached per scan ------------------------------------------------------------
type JsWorker = Awaited<ReturnType<typeof tesseractJs.createWorker>>;
const plainCache = (id: string) => path.join(SCAN_SET_DIR, `plain-js-${id.replace(/[/.#@]/g, '_')}.txt`);
const jsWorkers: Promise<JsWorker>[] = [];
async function plainRead(s: ScanSet.Scan, lane: number): Promise<string> {
  const file = plainCache(s.id);
  if (existsSync(file)) return readFileSync(file, 'utf8');
  jsWorkers[lane] ??= (async () => {
    const w = await tesseractJs.createWorker('eng', tesseractJs.OEM.LSTM_ONLY, {
      langPath: bundledEnglishDir(),
      gzip: true,
      cacheMethod: 'none',
    });
    await w.setParameters({ tessedit_pageseg_mode: tesseractJs.PSM.AUTO });
    return w;
  })();
  const w = await jsWorkers[lane];
  await w.setParameters({ user_defined_dpi: String(s.dpi) });
  const text = (await w.recognize(readFileSync(s.grey))).data.text ?? '';
  writeFileSync(file, text);
  return text;
}

// ---- docmill's page reader ------------------------------------------------------------------------------
const readers = [0, 1].map(() => ocrPageReader(new URL('../dist/workers/ocr-tesseract.js', import.meta.url).pathname));
interface Read {
  md: number;
  words: number;
  /** Order-free word-bag F1 of the words against the truth. */
  bag: number;
  tables: number;
  conf: number;
  share: number;
  plain: boolean;
  readings: number;
}
async function docmillRead(s: ScanSet.Scan, lane: number, variant: 'processed' | 'plain' | 'check'): Promise<Read> {
  const bytes = new Uint8Array(readFileSync(s.pdf));
  const task: OcrTask = {
    docKey: `${s.id}-${variant}`,
    bytes,
    pageNumber: 1,
    render: DEFAULT_RENDER,
    preprocess: variant === 'plain' ? PLAIN_PREPROCESS : DEFAULT_PREPROCESS,
    languages: 'eng',
    recycleAfter: 50,
    plainCheck: variant === 'check',
    plainLines: !noLines,
  };
  const r: OcrTaskResult = await readers[lane]!(task);
  if (!r.ok) throw new Error(`${s.id}: ${r.error}`);
  const blocks = r.layout.blocks.map((b) => b.block);
  const md = M.plainFromMarkdown(blocks.map((b) => renderNode(b.node)).join('\n\n'));
  const e = evidenceOf(r.page);
  if (dump) {
    const base = path.join(dump, `${s.id.replace(/[/.#@]/g, '_')}-${variant}`);
    writeFileSync(`${base}.md`, blocks.map((b) => renderNode(b.node)).join('\n\n'));
    writeFileSync(`${base}.words.txt`, ocrPlainText(r.page));
    writeFileSync(path.join(dump, `${s.id.replace(/[/.#@]/g, '_')}-truth.txt`), s.truth);
  }
  return {
    md: M.cer(md, s.truth),
    words: M.cer(ocrPlainText(r.page), s.truth),
    bag: M.bagSimilarity(ocrPlainText(r.page), s.truth),
    tables: blocks.filter((b) => b.type === 'table').length,
    conf: e.confidence,
    share: e.dictionaryShare,
    plain: r.page.plain === true,
    readings: r.readings ?? 0,
  };
}

const rows: string[] = [];
let next = 0;
const pct = (x: number) => (x * 100).toFixed(2);
await Promise.all(
  [0, 1].map(async (lane) => {
    while (next < scans.length) {
      const s = scans[next++]!;
      const t = performance.now();
      const plainText = await plainRead(s, lane);
      const plain = M.cer(plainText, s.truth);
      const plainBag = M.bagSimilarity(plainText, s.truth);
      const none: Read = { md: NaN, words: NaN, bag: NaN, tables: 0, conf: 0, share: 0, plain: false, readings: 0 };
      const p = checkOnly ? none : await docmillRead(s, lane, 'processed');
      const q = checkOnly ? none : await docmillRead(s, lane, 'plain');
      const c = check ? await docmillRead(s, lane, 'check') : null;
      const row =
        `| ${s.id} | ${s.source.kind} | ${pct(plain)} ${plainBag.toFixed(3)} | ${pct(p.md)} | ${pct(p.words)} | ${p.bag.toFixed(3)} | ${p.tables} | ` +
        `${p.conf.toFixed(3)} / ${p.share.toFixed(2)} | ${pct(q.md)} | ${pct(q.words)} | ${q.bag.toFixed(3)} | ${q.tables} | ` +
        `${q.conf.toFixed(3)} / ${q.share.toFixed(2)} | ${c ? `${pct(c.md)} ${c.plain ? 'plain' : 'proc'} (words ${pct(c.words)}, ${c.tables} tables, conf ${c.conf.toFixed(3)})` : '-'} | ` +
        `${((performance.now() - t) / 1000).toFixed(0)} s |`;
      console.log(row);
      rows.push(row);
    }
  }),
);
await Promise.all(jsWorkers.map(async (w) => (await w).terminate()));
console.log(
  [
    '',
    '| scan | kind | plain js CER, bag | processed md CER | processed words CER | bag | tables | conf / dict share | plain-render md CER | plain-render words CER | bag | tables | conf / dict share | check md CER (kept) | time |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.sort(),
  ].join('\n'),
);
process.exit(0);
