/**
 * One tesseract.js recogniser, owned by one OCR pool thread: created on first use with English (or the
 * configured languages) read from local files, reused page after page, and replaced after a number of
 * pages because WASM memory only ever grows.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { createWorker, OEM, PSM, type Worker as TesseractWorker } from 'tesseract.js';
import { PACKAGE_ROOT } from '../runtime/package-root.js';
import { parseHocr, parseSeparators, type Box, type HocrBlock } from './hocr.js';
import { installedModelDir } from './models.js';
import { joinUnspacedWords, needsWordJoints } from './unspaced-words.js';

export interface EngineConfig {
  /** Tesseract language codes joined with `+`. */
  languages: string;
  /** Directory with `<lang>.traineddata[.gz]` for languages other than English. */
  langPath?: string | undefined;
  /** Entry script of the recognition thread (network guard + tesseract.js worker script). */
  workerPath: string;
  /** Replace the recogniser after this many pages. */
  recycleAfter: number;
}

/**
 * Directory of the English model docmill ships: tessdata_fast's eng (models/tessdata_fast, see its
 * README). Its smaller LSTM reads the benchmark pages with the same error rate as the "best" integer
 * model of `@tesseract.js-data/eng` for about two thirds of the CPU time (bench/README.md, "OCR").
 */
export function bundledEnglishDir(): string {
  return path.join(PACKAGE_ROOT, 'models', 'tessdata_fast');
}

/**
 * tesseract.js takes one `langPath` for all languages. English ships with docmill; another language
 * sits in `langPath` (which may also carry its own English), or, read alone, comes from its installed
 * `@tesseract.js-data/<lang>` package (src/ocr/models.ts).
 */
export function resolveLanguages(
  languages: string,
  langPath: string | undefined,
): { langs: string[]; dir: string; gzip: boolean } {
  const langs = languages
    .split('+')
    .map((l) => l.trim())
    .filter(Boolean);
  if (langs.length === 0) langs.push('eng');
  const bad = langs.find((l) => !/^[A-Za-z0-9_-]+$/.test(l));
  if (bad) throw new Error(`Invalid OCR language code "${bad}"`);
  const others = langs.filter((l) => l !== 'eng');
  if (others.length === 0 && !langPath) return { langs, dir: bundledEnglishDir(), gzip: true };
  const fromPackage = langs.length === 1 ? installedModelDir(langs[0]!) : null;
  if (fromPackage && !(langPath && hasModel(langPath, langs[0]!))) return { langs, dir: fromPackage, gzip: true };
  if (!langPath) {
    throw new Error(
      langs.length === 1
        ? `OCR language ${langs[0]} is not installed: npm install @tesseract.js-data/${langs[0]}, or set ocrLangPath to a directory holding ${langs[0]}.traineddata`
        : `OCR languages ${langs.join('+')} read together need ocrLangPath: a directory holding their <lang>.traineddata files`,
    );
  }
  const dir = path.resolve(langPath);
  let gzip: boolean | undefined;
  for (const l of langs) {
    const plain = existsSync(path.join(dir, `${l}.traineddata`));
    const gz = existsSync(path.join(dir, `${l}.traineddata.gz`));
    if (!plain && !gz) {
      if (l === 'eng')
        throw new Error(
          `ocrLangPath ${dir} has no eng.traineddata; add it (e.g. from @tesseract.js-data/eng) or drop eng from ocrLanguages`,
        );
      throw new Error(`No ${l}.traineddata or ${l}.traineddata.gz in ocrLangPath ${dir}`);
    }
    const thisGz = !plain && gz;
    if (gzip !== undefined && gzip !== thisGz)
      throw new Error(`ocrLangPath ${dir} mixes .traineddata and .traineddata.gz files; use one kind`);
    gzip = thisGz;
  }
  return { langs, dir, gzip: gzip ?? false };
}

function hasModel(dir: string, lang: string): boolean {
  return (
    existsSync(path.join(path.resolve(dir), `${lang}.traineddata`)) ||
    existsSync(path.join(path.resolve(dir), `${lang}.traineddata.gz`))
  );
}

/** Longest a single page may take in the recogniser before it is given up and the engine replaced. */
const PAGE_LIMIT_MS = 120_000;

export class OcrEngine {
  private worker: Promise<TesseractWorker> | null = null;
  private pagesDone = 0;
  /** Recognisers created so far (tests read it to see recycling happen). */
  generation = 0;

  constructor(private readonly config: EngineConfig) {}

  private async create(): Promise<TesseractWorker> {
    const { langs, dir, gzip } = resolveLanguages(this.config.languages, this.config.langPath);
    this.generation++;
    const worker = await createWorker(langs, OEM.LSTM_ONLY, {
      workerPath: this.config.workerPath,
      langPath: dir,
      gzip,
      // Never read or write a cache next to the process's working directory.
      cacheMethod: 'none',
      // LSTM only: the legacy engine's data is not shipped and would double the memory.
      legacyCore: false,
      legacyLang: false,
    });
    await worker.setParameters({
      // Mode 3: full automatic page segmentation. The default (6, one uniform block) merges columns.
      tessedit_pageseg_mode: PSM.AUTO,
      // Scanned pages rendered from PDFs carry their resolution; this stops tesseract guessing it.
      user_defined_dpi: '300',
      preserve_interword_spaces: '0',
    });
    return worker;
  }

  /**
   * Recognises one image. `params` are tesseract parameters for this image only (tesseract.js sets
   * them for the call and restores the others after it), such as a page segmentation mode.
   */
  async recognize(
    image: Buffer,
    dpi: number,
    params: Record<string, string> = {},
  ): Promise<{ blocks: HocrBlock[]; separators: Box[] }> {
    if (this.worker && this.pagesDone >= this.config.recycleAfter) await this.recycle();
    this.worker ??= this.create();
    let timer: NodeJS.Timeout | undefined;
    // tesseract.js never settles a job (or its own start) when its thread dies; a page that takes this
    // long is lost anyway.
    const watchdog = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`recognition took longer than ${PAGE_LIMIT_MS / 1000} s`)),
        PAGE_LIMIT_MS,
      );
    });
    try {
      const worker = await Promise.race([this.worker, watchdog]);
      await Promise.race([worker.setParameters({ user_defined_dpi: String(Math.round(dpi)) }), watchdog]);
      this.pagesDone++;
      // hOCR is asked for: tesseract writes it in one pass, with everything docmill reads (hocr.ts).
      // The text output too where the script writes words without spaces (src/ocr/unspaced-words.ts).
      const joints = needsWordJoints(this.config.languages);
      const { data } = await Promise.race([worker.recognize(image, params, { hocr: true, text: joints }), watchdog]);
      const hocr = data.hocr ?? '';
      const blocks = parseHocr(hocr);
      if (joints) joinUnspacedWords(blocks, data.text ?? '');
      return { blocks, separators: parseSeparators(hocr) };
    } catch (err) {
      // Start the next page on a fresh recogniser: this one may be broken or still busy.
      await this.recycle();
      throw err instanceof Error ? err : new Error(String(err));
    } finally {
      clearTimeout(timer);
    }
  }

  /** Drops the current recogniser; the next page starts a fresh one. */
  async recycle(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.pagesDone = 0;
    // Not awaited beyond the terminate call: a recogniser whose start never settles must not hold us.
    if (w)
      void w.then(
        (x) => x.terminate(),
        () => undefined,
      );
  }
}
