/**
 * OCR benchmark: docmill's OCR pool against the native tesseract CLI (Debian tesseract-ocr, PSM 3) on
 * the same rendered pages, in the same run. Pages per second and character error rate (CER).
 *
 *   npm run build && node bench/ocr.ts [--variants] [--write]
 *
 * Pages: the generated scans of fixtures/ocr (true text known) and the scanned PDFs of the corpus
 * (../shared/corpus; skipped when absent). docmill runs end to end from the PDF (page image, deskew,
 * recognise) on its pool of two threads after one warm-up page; it runs twice a round, as shipped
 * (a full-page scan's image decoded natively, src/ocr/scan-image.ts) and with every page rendered by
 * pdf.js (`nativeScan: false`, what it did before), so both are measured on the same machine state. tesseract gets the very pixels
 * docmill's renderer produces (grey PNG at 300 dpi) and is timed on recognition only, which favours
 * it: rendering is not counted for the native side. `--variants` also measures each preprocessing step
 * on the generated scans. `--write` replaces the "OCR" section of bench/README.md.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import type * as PoolModule from '../src/ocr/pool.js';
import type * as RenderModule from '../src/ocr/render.js';
import type * as PageModule from '../src/ocr/page.js';
import type * as CerModule from '../test-support/cer.js';
import type * as EngineModule from '../src/ocr/engine.js';
import type * as PreModule from '../src/ocr/preprocess.js';
import type * as RuntimeModule from '../src/runtime/runtime.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p: string) => import(path.join(ROOT, 'dist', p));
const { recognizePages } = (await dist('src/ocr/pool.js')) as typeof PoolModule;
const { openForRender, renderPage } = (await dist('src/ocr/render.js')) as typeof RenderModule;
const { ocrPlainText } = (await dist('src/ocr/page.js')) as typeof PageModule;
const { cer } = (await dist('test-support/cer.js')) as typeof CerModule;
const { bundledEnglishDir } = (await dist('src/ocr/engine.js')) as typeof EngineModule;
const { DEFAULT_PREPROCESS } = (await dist('src/ocr/preprocess.js')) as typeof PreModule;
const { ParserRuntime } = (await dist('src/runtime/runtime.js')) as typeof RuntimeModule;
const sharp = (await import('sharp')).default;
const run = promisify(execFile);

const args = new Set(process.argv.slice(2));
const CORPUS = process.env['DOCMILL_CORPUS'] ?? path.resolve(ROOT, '..', 'shared', 'corpus');
const ROUNDS = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 2);

interface Doc {
  name: string;
  file: string;
  pages: number[];
  /** Reference text per page, and what it is. */
  truth?: Map<number, string>;
  truthKind: string;
}

function fixture(name: string): Doc {
  const file = path.join(ROOT, 'fixtures', 'ocr', `${name}.pdf`);
  const t = JSON.parse(readFileSync(path.join(ROOT, 'fixtures', 'ocr', `${name}.truth.json`), 'utf8')) as {
    page: number;
    scanned: boolean;
    text: string;
  }[];
  const pages = t.filter((p) => p.scanned).map((p) => p.page);
  return {
    name: `fixtures/ocr/${name}.pdf`,
    file,
    pages,
    truth: new Map(t.map((p) => [p.page, p.text])),
    truthKind: 'typeset text',
  };
}

async function textLayer(file: string, page: number): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(readFileSync(file)), verbosity: 0 }).promise;
  const p = await doc.getPage(page);
  const tc = await p.getTextContent();
  const text = tc.items.map((i) => ('str' in i ? i.str + (i.hasEOL ? '\n' : ' ') : '')).join('');
  await doc.loadingTask.destroy();
  return text;
}

const docs: Doc[] = [fixture('scanned'), fixture('mixed')];
if (existsSync(CORPUS)) {
  const med = path.join(CORPUS, 'markitdown', 'MEDRPT-2024-PAT-3847_medical_report_scan.pdf');
  if (existsSync(med))
    docs.push({
      name: 'corpus markitdown/MEDRPT-2024-PAT-3847_medical_report_scan.pdf',
      file: med,
      pages: [1, 2, 3],
      truthKind: 'none (no transcript): engines compared with each other',
    });
  const backus = path.join(CORPUS, 'unstructured', 'a1977-backus-p21.pdf');
  if (existsSync(backus))
    docs.push({
      name: 'corpus unstructured/a1977-backus-p21.pdf',
      file: backus,
      pages: [1],
      truth: new Map([[1, await textLayer(backus, 1)]]),
      truthKind: "the PDF's own OCR text layer (approximate)",
    });
  const ocrText = path.join(CORPUS, 'unstructured', 'pdf-with-ocr-text.pdf');
  if (existsSync(ocrText))
    docs.push({
      name: 'corpus unstructured/pdf-with-ocr-text.pdf',
      file: ocrText,
      pages: [1],
      truthKind: 'none (its text layer is garbage): engines compared with each other',
    });
} else {
  console.warn(`corpus not found at ${CORPUS}: corpus pages skipped`);
}

const loadStart = os.loadavg()[0]!.toFixed(1);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'docmill-ocr-bench-'));
// docmill ships tessdata_fast's eng, the model Debian's tesseract-ocr-eng installs: say so if they differ.
const shipped = gunzipSync(readFileSync(path.join(bundledEnglishDir(), 'eng.traineddata.gz')));
const debianModel = '/usr/share/tesseract-ocr/5/tessdata/eng.traineddata';
const sameModel = existsSync(debianModel) && readFileSync(debianModel).equals(shipped);

type Timed = {
  seconds: number;
  cpu: number;
  texts: string[];
  steps?: { render: number; preprocess: number; recognize: number };
  native?: number;
  turned?: number;
  reread?: number;
  lowered?: number;
  minConfidence?: number;
};

interface PageImage {
  doc: Doc;
  page: number;
  png: string;
  dpi: number;
}

// 1. Render every page once with docmill's renderer; the native engine reads these PNGs.
const images: PageImage[] = [];
for (const doc of docs) {
  const pdf = await openForRender(readFileSync(doc.file));
  for (const n of doc.pages) {
    const r = await renderPage(pdf, n, { dpi: 'auto', maxPixels: 40_000_000 });
    const png = path.join(tmp, `${images.length}.png`);
    await sharp(r.rgba, { raw: { width: r.width, height: r.height, channels: 4 } })
      .grayscale()
      .png({ compressionLevel: 1 })
      .toFile(png);
    images.push({ doc, page: n, png, dpi: Math.round(r.scale * 72) });
  }
  await pdf.loadingTask.destroy();
}
const totalPages = images.length;

// CPU time of each tesseract process, from GNU time when it is installed (Debian package `time`).
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

async function tesseractCli(
  img: PageImage,
  env: NodeJS.ProcessEnv,
  extra: string[],
): Promise<{ text: string; cpu: number }> {
  return new Promise((resolve, reject) => {
    const argv = [img.png, 'stdout', '--psm', '3', '--dpi', String(img.dpi), ...extra];
    const p = GNU_TIME
      ? spawn(GNU_TIME, ['-f', 'docmill-cpu %U %S', 'tesseract', ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('tesseract', argv, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    p.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) return reject(new Error(`tesseract exited ${code}`));
      const m = /docmill-cpu ([\d.]+) ([\d.]+)/.exec(err);
      resolve({ text: out, cpu: m ? Number(m[1]) + Number(m[2]) : NaN });
    });
  });
}

async function runNative(parallel: number, env: NodeJS.ProcessEnv, extra: string[]): Promise<Timed> {
  const texts: string[] = new Array(images.length);
  let next = 0;
  let cpu = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < images.length) {
        const i = next++;
        const r = await tesseractCli(images[i]!, env, extra);
        texts[i] = r.text;
        cpu += r.cpu;
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, cpu, texts };
}

async function runDocmill(
  preprocess = DEFAULT_PREPROCESS,
  subset: PageImage[] = images,
  nativeScan = true,
): Promise<Timed> {
  const runtime = new ParserRuntime({ ocrThreads: 2 });
  try {
    const signal = new AbortController().signal;
    // Warm-up: start both threads and their engines, as a long-lived parser has them.
    await recognizePages(runtime, readFileSync(subset[0]!.doc.file), [subset[0]!.page, subset[0]!.page], {
      signal,
      preprocess,
      nativeScan,
    });
    const t0 = performance.now();
    // CPU of the whole process: the OCR threads (page image, preprocessing, recognition) and the main thread.
    const c0 = process.cpuUsage();
    const byDoc = new Map<Doc, number[]>();
    for (const im of subset) byDoc.set(im.doc, [...(byDoc.get(im.doc) ?? []), im.page]);
    const results = await Promise.all(
      [...byDoc].map(async ([doc, pages]) => ({
        doc,
        res: await recognizePages(runtime, readFileSync(doc.file), pages, { signal, preprocess, nativeScan }),
      })),
    );
    const seconds = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    const steps = { render: 0, preprocess: 0, recognize: 0 };
    let native = 0;
    let turned = 0;
    let reread = 0;
    let lowered = 0;
    let minConfidence = 1;
    const texts = subset.map((im) => {
      const r = results.find((x) => x.doc === im.doc)!.res.find((p) => p.pageNumber === im.page)!;
      if (r.layout.status !== 'ok') throw new Error(`docmill failed ${im.doc.name} p${im.page}: ${r.layout.error}`);
      steps.render += r.timings!.render / subset.length;
      steps.preprocess += r.timings!.preprocess / subset.length;
      steps.recognize += r.timings!.recognize / subset.length;
      if (r.via === 'scan') native++;
      if (r.page!.turned) turned++;
      else if ((r.readings ?? 1) > 1) reread++;
      if (r.dpi !== undefined && r.dpi < r.page!.scale * 72 - 0.5) lowered++;
      minConfidence = Math.min(minConfidence, r.page!.confidence);
      return ocrPlainText(r.page!);
    });
    return { seconds, cpu, texts, steps, native, turned, reread, lowered, minConfidence };
  } finally {
    await runtime.close();
  }
}

const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
function meanCer(
  texts: string[],
  subset: PageImage[] = images,
  filter: (im: PageImage) => boolean = () => true,
): number | null {
  let errs = 0;
  let len = 0;
  subset.forEach((im, i) => {
    const t = im.doc.truth?.get(im.page);
    if (t === undefined || !filter(im)) return;
    const c = cer(texts[i]!, t);
    const l = t.replace(/\s+/g, ' ').trim().length;
    errs += c * l;
    len += l;
  });
  return len ? errs / len : null;
}

console.log(
  `${totalPages} pages, ${os.availableParallelism()} cores, tesseract ${(await run('tesseract', ['--version'])).stdout.split('\n')[0]}`,
);
// The machine is shared: engines take turns, round after round, and each keeps its fastest round.
const best = (a: Timed | undefined, b: Timed): Timed => (a && a.seconds <= b.seconds ? a : b);
let ours: Timed | undefined;
let rendered: Timed | undefined;
let nativeSeq: Timed | undefined;
let nativePar: Timed | undefined;
const rounds: string[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const o = await runDocmill();
  ours = best(ours, o);
  const pr = await runDocmill(DEFAULT_PREPROCESS, images, false);
  rendered = best(rendered, pr);
  const s1 = await runNative(1, { ...process.env }, []);
  nativeSeq = best(nativeSeq, s1);
  const s2 = await runNative(2, { ...process.env, OMP_THREAD_LIMIT: '1' }, []);
  nativePar = best(nativePar, s2);
  console.log(
    `round ${round}: docmill ${o.seconds.toFixed(1)} s (${(o.cpu / totalPages).toFixed(2)} CPU s/page; all pages rendered by pdf.js: ${pr.seconds.toFixed(1)} s, ${(pr.cpu / totalPages).toFixed(2)} CPU s/page), tesseract 1 process ${s1.seconds.toFixed(1)} s, 2 processes ${s2.seconds.toFixed(1)} s (load ${os.loadavg()[0]!.toFixed(1)})`,
  );
  rounds.push(
    `| ${round} | ${(totalPages / o.seconds).toFixed(3)} | ${(totalPages / pr.seconds).toFixed(3)} | ${(totalPages / s1.seconds).toFixed(3)} | ${(totalPages / s2.seconds).toFixed(3)} | ${(s2.seconds / o.seconds).toFixed(2)}× | ${(o.cpu / totalPages).toFixed(2)} | ${(pr.cpu / totalPages).toFixed(2)} | ${(s2.cpu / totalPages).toFixed(2)} | ${(s2.cpu / o.cpu).toFixed(2)}× | ${os.loadavg()[0]!.toFixed(1)} |`,
  );
}
if (!ours || !rendered || !nativeSeq || !nativePar) throw new Error('--rounds must be at least 1');

// The engines alone, one thread each, on the same PNGs: tesseract.js (the recogniser docmill runs, with the
// model docmill ships, PSM 3, hOCR only) against the CLI with OpenMP off. Page by page, taking turns and
// alternating which goes first, so both see the same machine state. This is the ceiling of the ratio
// above: docmill's pipeline can add nothing to the engine's speed.
const tesseractJs = await import('tesseract.js');
const jsWorker = await tesseractJs.createWorker('eng', tesseractJs.OEM.LSTM_ONLY, {
  langPath: bundledEnglishDir(),
  gzip: true,
  cacheMethod: 'none',
  legacyCore: false,
  legacyLang: false,
});
await jsWorker.setParameters({ tessedit_pageseg_mode: tesseractJs.PSM.AUTO, preserve_interword_spaces: '0' });
const blank = path.join(tmp, 'blank.png');
await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ffffff' } })
  .png()
  .toFile(blank);
// The CLI's fixed cost per page (process start, model load): a blank page.
let cliFixed = Infinity;
for (let i = 0; i < 3; i++)
  cliFixed = Math.min(
    cliFixed,
    (
      await tesseractCli(
        { doc: images[0]!.doc, page: 0, png: blank, dpi: 300 },
        { ...process.env, OMP_THREAD_LIMIT: '1' },
        [],
      )
    ).cpu,
  );
await jsWorker.recognize(readFileSync(images[0]!.png), {}, { hocr: true, text: false });
let engineJs = 0;
let engineCli = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, im] of images.entries()) {
    const js = async () => {
      await jsWorker.setParameters({ user_defined_dpi: String(im.dpi) });
      const c0 = process.cpuUsage();
      await jsWorker.recognize(readFileSync(im.png), {}, { hocr: true, text: false });
      const c = process.cpuUsage(c0);
      engineJs += (c.user + c.system) / 1e6;
    };
    const cli = async () => {
      engineCli += (await tesseractCli(im, { ...process.env, OMP_THREAD_LIMIT: '1' }, ['hocr'])).cpu;
    };
    if ((i + round) % 2 === 0) {
      await js();
      await cli();
    } else {
      await cli();
      await js();
    }
  }
}
await jsWorker.terminate();
const enginePages = images.length * ROUNDS;
const engineLine =
  `The engines alone, one thread each, on the same ${images.length} PNGs (${ROUNDS} passes, page by page, taking turns): tesseract.js ` +
  `${(engineJs / enginePages).toFixed(2)} CPU s/page, the tesseract CLI ${(engineCli / enginePages).toFixed(2)} (of which ${cliFixed.toFixed(2)} s is its start and ` +
  `model load, measured on a blank page): the CLI's CPU ÷ tesseract.js's = ${(engineCli / engineJs).toFixed(2)}× with its start counted, ` +
  `${((engineCli - enginePages * cliFixed) / engineJs).toFixed(2)}× without. That is the most the CPU ratio above can reach with tesseract.js as the recogniser, ` +
  'whatever docmill does around it.';
console.log(engineLine);
// Peak resident memory of this process: the main thread plus the two OCR threads and their engines.
const peakRssMb = process.resourceUsage().maxRSS / 1024;

const generated = (im: PageImage) => im.doc.name.startsWith('fixtures/');
const corpusRef = (im: PageImage) => !generated(im) && im.doc.truth !== undefined;
const rows: string[][] = [];
const oursSeconds = ours.seconds;
const addRow = (label: string, r: Timed) =>
  rows.push([
    label,
    (totalPages / r.seconds).toFixed(3),
    (r.seconds / oursSeconds).toFixed(2) + '×',
    (r.cpu / totalPages).toFixed(2),
    pct(meanCer(r.texts, images, generated) ?? NaN),
    pct(meanCer(r.texts, images, corpusRef) ?? NaN),
  ]);
addRow(
  'docmill OCR pool, 2 threads (scan image decoded natively or page rendered + deskew + tesseract.js, tessdata_fast eng, PSM 3)',
  ours,
);
addRow('docmill, every page rendered by pdf.js (nativeScan: false; the previous behaviour)', rendered);
addRow(
  `tesseract CLI 5.3, 1 process, OpenMP default, Debian eng model${sameModel ? ' (the same file)' : ''}`,
  nativeSeq,
);
addRow(`tesseract CLI 5.3, 2 processes × 1 thread, Debian eng model${sameModel ? ' (the same file)' : ''}`, nativePar);

// Agreement on corpus pages without a transcript: CER of each engine's text against the other's.
const agreement: string[] = [];
images.forEach((im, i) => {
  if (im.doc.truth) return;
  const a = ours!.texts[i]!.replace(/\s+/g, ' ').trim();
  const b = nativePar!.texts[i]!.replace(/\s+/g, ' ').trim();
  agreement.push(`| ${im.doc.name} p${im.page} | ${pct(cer(a, b))} | ${a.length} / ${b.length} |`);
});

const perPage: string[] = [];
images.forEach((im, i) => {
  const t = im.doc.truth?.get(im.page);
  if (t === undefined) return;
  perPage.push(
    `| ${im.doc.name} p${im.page} (${im.dpi} dpi) | ${pct(cer(ours!.texts[i]!, t))} | ${pct(cer(nativePar!.texts[i]!, t))} |`,
  );
});

let variantTable = '';
if (args.has('--variants')) {
  const gen = images.filter(generated);
  const V: Record<string, typeof DEFAULT_PREPROCESS> = {
    'none (RGBA as rendered)': { grayscale: false, normalize: false, threshold: false, deskew: false },
    grayscale: { grayscale: true, normalize: false, threshold: false, deskew: false },
    'grayscale + contrast stretch': { grayscale: true, normalize: true, threshold: false, deskew: false },
    'grayscale + Otsu binarisation': { grayscale: true, normalize: false, threshold: 'otsu', deskew: false },
    'grayscale + deskew': { grayscale: true, normalize: false, threshold: false, deskew: true },
    'grayscale + deskew + shades and grid rules out (default)': DEFAULT_PREPROCESS,
    'grayscale + deskew + Otsu': { grayscale: true, normalize: false, threshold: 'otsu', deskew: true },
  };
  const lines: string[] = [];
  for (const [name, v] of Object.entries(V)) {
    const r = await runDocmill(v, gen);
    const per = gen.map((im, i) => pct(cer(r.texts[i]!, im.doc.truth!.get(im.page)!))).join(' / ');
    lines.push(`| ${name} | ${pct(meanCer(r.texts, gen) ?? NaN)} | ${per} | ${(gen.length / r.seconds).toFixed(3)} |`);
    console.log(lines.at(-1));
  }
  variantTable = [
    '',
    `Preprocessing on the ${gen.length} generated scans (docmill pool; CER per page in the order ${gen.map((im) => `${path.basename(im.doc.file)} p${im.page}`).join(', ')}):`,
    '',
    '| preprocessing | CER | per page | pages/s |',
    '|---|---|---|---|',
    ...lines,
  ].join('\n');
}

const ratio = (r: Timed) => r.seconds / oursSeconds;
const cerOurs = meanCer(ours.texts, images, generated) ?? NaN;
const cerNative = Math.min(
  meanCer(nativeSeq.texts, images, generated) ?? NaN,
  meanCer(nativePar.texts, images, generated) ?? NaN,
);
const cerCorpus = (t: Timed) => meanCer(t.texts, images, corpusRef);
const step = (t: Timed, k: 'render' | 'preprocess' | 'recognize') => `${Math.round(t.steps![k])} ms`;
const verdict = [
  `Throughput target (at least the tesseract CLI's): ${ratio(nativeSeq) >= 1 ? 'met' : 'not met'} against one tesseract process per page`,
  `(docmill ${ratio(nativeSeq).toFixed(2)}× its pages/s); ${nativePar.cpu / ours.cpu >= 1 ? 'met' : 'not met'} against two single-threaded tesseract processes sharing`,
  `the two cores, judged by CPU per page (tesseract's ÷ docmill's: ${(nativePar.cpu / ours.cpu).toFixed(2)}×; on a quiet machine both keep two cores busy,`,
  `so that is the pages/s ratio to expect). The wall ratio of the fastest rounds, ${ratio(nativePar).toFixed(2)}×, depends on what else had the cores in each`,
  "engine's turn and is not the verdict.",
  'Both read with the same model file (tessdata_fast eng). CPU seconds per page are the steadier measure on a shared',
  "machine: whoever gets the cores, two busy threads finish in (pages × CPU per page ÷ 2) seconds. docmill's CPU covers",
  "getting the page image, deskewing and recognising in WebAssembly; tesseract's covers a process start, loading the",
  `model and recognising a ready PNG. Per page, in the OCR thread (wall time, mean of the ${totalPages} pages on the fastest round):`,
  `page image ${step(ours, 'render')} (${ours.native} of ${totalPages} pages are one full-page scan image decoded natively by sharp, src/ocr/scan-image.ts:`,
  'JPEG by libjpeg-turbo, the CCITT Group 4 fax image of a1977 by libtiff in 37 ms where pdf.js took 376; the scan with a visible',
  `stamp over it is rendered by pdf.js), preprocessing ${step(ours, 'preprocess')},`,
  `recognition ${step(ours, 'recognize')}. With every page rendered by pdf.js (nativeScan: false): page image ${step(rendered, 'render')}, preprocessing ${step(rendered, 'preprocess')}`,
  `(greyscale from RGBA first), ${(rendered.cpu / totalPages).toFixed(2)} CPU s/page against ${(ours.cpu / totalPages).toFixed(2)} (CER ${pct(meanCer(rendered.texts, images, generated) ?? NaN)} generated, ${pct(cerCorpus(rendered) ?? NaN)} a1977:`,
  "the natively decoded pixels equal the render's within a grey level, test/ocr-scan-image.test.ts). Recognition is",
  'most of what is left: about 0.8 CPU s a page on the generated and medical-report pages measured apart, more on',
  "a1977's dense 300 dpi page; tesseract.js in WebAssembly (relaxed SIMD) against native AVX2 on the same model, so",
  'the remaining gap is mostly the engine, not the pipeline around it.',
  engineLine,
  `CER target (no worse): ${cerOurs <= cerNative ? 'met' : 'not met'} on the generated scans (${pct(cerOurs)} against tesseract's best ${pct(cerNative)}; tesseract reads`,
  `the pages as rendered, docmill after its deskew). On a1977, whose reference is only its old OCR layer: docmill ${pct(cerCorpus(ours) ?? NaN)},`,
  `tesseract ${pct(cerCorpus(nativePar) ?? NaN)} (the best integer model had 10.53%).`,
  `Small type (src/ocr/type-scale.ts): ${ours.lowered} of ${totalPages} pages were read at a lower resolution than their image's, ${ours.reread} a second time`,
  '(here the three pages of the medical report are read at 185 dpi, once). The medical report is a letter-size scan at',
  "200 dpi placed on a smaller page that declares 300 dpi; its body x-height, 12 px, is under the 15 px that tesseract's",
  'rule finder takes as a rule at 300 dpi, and told 300 dpi tesseract erased lines of its type ("A jated symp\' include',
  'ional dizziness", "Neck: Supple, no ly ... no thy"), which its hOCR reports as separators 13-20 px thick. Told 185 dpi',
  '(x-height × 20 ÷ 1.3) those lines come back whole; the tesseract CLI, told the declared 300, loses the same words,',
  'hence the larger disagreement on those pages (p2 1.18% when both read at 300). docmill measures the x-height from the',
  'image before reading (letter-shaped connected components vote for their height, 10-40 ms a page) and reads such a page',
  'once at the lower resolution; until then it read the page at 300 dpi, found the thick separators, and read it again',
  '(CPU ratio 0.57-0.59× that way, 0.66-0.72× in the runs since; same text). Where the image says nothing (too few letters)',
  "or tesseract measures other type than the estimate, tesseract's own x-height decides a second reading as before.",
  'The typed letter of pdf-with-ocr-text.pdf (a 150 dpi scan on a page that declares 300, x-height 14 px) has too few',
  'isolated letters for the estimate and no separator as thick as its type: it is read once, at 300 dpi.',
  'On fixtures/ocr/smallprint.pdf (8 pt type, the same placement): CER 1.13% read at 300 dpi, 0.07% at 200 dpi.',
  'Pages of ordinary type at their own resolution are read once, at it. Large type (a body x-height over 40 px) is scaled',
  'down to 28 px before reading (none of these pages; on fixtures/ocr/largetable.pdf, 30 pt at 300 dpi, recognition took',
  'about 150 ms instead of 390 ms, read once instead of twice, and a lone "0" no longer came out "O").',
  `Orientation check (src/ocr/orientation.ts): on these upright pages it adds no reading (${ours.turned} pages turned; lowest page`,
  `confidence ${(ours.minConfidence ?? 0).toFixed(2)}, above the 0.6 that triggers the probe). Pages fed upside down or sideways`,
  '(fixtures/ocr/turned.pdf) cost a reading of a third of the page (the probe) and one or two whole extra readings',
  'and read at 0.00-0.36% CER instead of 83-85%; a poor but upright page (below 0.6) costs only the probe.',
  'Shaded areas and grid rules taken out before recognition (src/ocr/fills.ts, src/ocr/rules.ts; the "shades and grid rules',
  'out" variant of --variants): no page here has a grid or a shade, so they read the same; they cost one grey histogram',
  'and a look for long runs in every fourth row and column (10-20 ms on a text page at 300 dpi), and the whole rule search',
  '(another 25-45 ms) on the medical report pages, whose boxes have long rules both ways: preprocessing 113 ms a page',
  'against 79 ms before them, within the CPU per page above. On fixtures/ocr/table.pdf they are what brings back the',
  'shaded head row and the single-figure cells of a ruled table (test/ocr-tables.test.ts).',
  'Negatives, uneven light and specks (src/ocr/illumination.ts, src/ocr/specks.ts): none of these pages needs them, and',
  'each leaves such a page exactly as it was; finding that out costs one pass over the pixels each (5-15 ms a page).',
  "On pages made for it they are what reads the page: fixtures/ocr/unevenlight.pdf (a book spine's shadow) 5.44% and",
  '13.72% CER without, 0.00% with; the two-column page negated 69.9% without, 0.11% with; the same page with 4% of its',
  'pixels flipped to black or white 2.54% without, 0.00% with (test/ocr-illumination.test.ts, test/ocr-specks.test.ts).',
  'Kept (each measured with bench/ocr.ts or the same pages): native decoding of full-page scan images (above);',
  'tessdata_fast instead of the best integer model of',
  '@tesseract.js-data/eng (recognition CPU about 9.5 s instead of 13.7 s for the 8 pages, CER on the generated scans',
  '0.04-0.07% instead of 0.00-0.04%, a1977 10.67% instead of 10.53%); greyscale before the skew estimate and the',
  'rotation (preprocessing CPU about 170 ms instead of 350 ms a page); only hOCR asked of tesseract.js and read by',
  'src/ocr/hocr.ts (recognition CPU about 790 ms instead of 820 ms a page on four of these pages, six alternating',
  'rounds, against the JSON block tree with every symbol; same words, boxes and row sizes).',
  'The skew is estimated on a copy at most 1000 pixels wide (at most 60,000 sampled ink pixels) and not undone below',
  '0.1°. The estimate costs about 46 ms CPU a page (mean of the 8 pages, 5 repetitions; 69 ms before its reduction',
  'went from lanczos3 to linear and its rounding from Math.round to a truncation, same angles on every page), the',
  'rotation about 30-40 ms on a 1700 × 2200 page; cropping inside the rotation pipeline instead of a second pass',
  'measured no faster.',
  'On the faint typewritten letter (corpus pdf-with-ocr-text.pdf) the fast model misreads a word the best',
  'integer model read ("Hawadian" for "Hawaiian"); the CLI with the same file errs elsewhere ("Wetional" for "National"; their disagreement fell from',
  '7.09% to about 2%). For such documents ocrLangPath can point at the best integer model (README, "ocrLangPath"),',
  'at about 1.45× the recognition CPU.',
  'Checked and dropped: tessedit_do_invert=0, textord_tabfind_find_tables=0 and recognition without the',
  'dictionaries (no CPU change); rendering 300 dpi pages at 200 dpi (about 15% less recognition CPU for both engines,',
  'but 5-26% different text on the medical report pages). Already in place: engines loaded once per thread and',
  'reused, two OCR threads on two cores, the relaxed-SIMD LSTM core of tesseract.js (Node 24 supports it), raw',
  'grey PGM handed to the recogniser (no PNG encode/decode), LSTM only (OEM 1).',
  'Before the native scan decoding, hOCR and the orientation check (commit 46b0959), measured with this script',
  "(--rounds=1) on the same day at load 0.4-2.8: docmill 1.57 CPU s/page against tesseract's 1.03 (CPU ratio 0.65×),",
  'page image about 0.3 s a page (pdf.js decoding the JPEG in JavaScript) and preprocessing about 0.17 s; CER unchanged.',
  'Earlier (commit b185f02: best integer model, deskew on RGBA, text and blocks from tesseract.js), measured',
  "with this script: docmill 2.36 CPU s/page against tesseract's 1.07 (CPU ratio 0.45-0.46×), wall ratio 0.57×",
  'against two tesseract processes on its fastest round, CER 0.00% generated and 10.53% on a1977.',
  `The machine was shared while this ran (load average ${loadStart} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end): absolute`,
  'pages/s are low and noisy; engines alternate round by round, so the ratios are the numbers to read, and on a',
  "busy machine the CPU ratio more than the wall ratio (a round's wall time depends on what else got the cores).",
].join('\n');

const report = [
  '## OCR',
  '',
  `\`npm run build && node bench/ocr.ts${args.has('--variants') ? ' --variants' : ''} --rounds=${ROUNDS}\` on ${os.availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}: ${totalPages} pages rendered by docmill`,
  '(a full-page scan at its own resolution when that is 190-400 dpi, otherwise 300 dpi), fastest of the rounds per engine,',
  `(${images.filter(generated).length} generated scans from fixtures/ocr with known text, ${images.filter((im) => !generated(im)).length} corpus scan pages).`,
  'docmill is timed end to end from the PDF after a warm-up page; tesseract only on recognising the same PNGs',
  "(rendering not counted for it). Ratio = docmill pages/s ÷ that row's pages/s.",
  '',
  '| engine | pages/s | docmill ÷ row | CPU s/page | CER generated | CER a1977 (vs its text layer) |',
  '|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
  '',
  'Every round (engines take turns; pages/s, CPU seconds per page, ratios docmill as shipped ÷ 2 tesseract processes, load average after the round):',
  '',
  '| round | docmill pages/s | docmill, all rendered | tesseract 1 process | tesseract 2 processes | wall ratio | docmill CPU s/page | docmill, all rendered, CPU s/page | tesseract CPU s/page | CPU ratio | load |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...rounds,
  '',
  'CER per page with a reference:',
  '',
  '| page | docmill | tesseract CLI |',
  '|---|---|---|',
  ...perPage,
  '',
  `Peak RSS of the benchmark process with the 2-thread OCR pool: ${peakRssMb.toFixed(0)} MB (main thread, pdf.js, sharp and two recognisers).`,
  '',
  'Corpus pages without a transcript: disagreement between docmill and tesseract (CER of one against the other) and characters read:',
  '',
  '| page | disagreement | chars docmill / tesseract |',
  '|---|---|---|',
  ...agreement,
  variantTable,
  '',
  verdict,
  '',
].join('\n');

console.log('\n' + report);
if (args.has('--write')) {
  const readme = path.join(ROOT, 'bench', 'README.md');
  const old = existsSync(readme) ? readFileSync(readme, 'utf8') : '# Benchmarks\n';
  const start = old.indexOf('## OCR\n');
  let updated: string;
  if (start < 0) updated = old.trimEnd() + '\n\n' + report;
  else {
    const end = old.indexOf('\n## ', start + 1);
    updated = old.slice(0, start) + report + (end < 0 ? '' : old.slice(end + 1));
  }
  writeFileSync(readme, updated);
}
rmSync(tmp, { recursive: true, force: true });
