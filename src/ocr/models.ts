/**
 * The recognition models docmill finds without configuration: English ships in models/tessdata_fast;
 * other languages are the optional npm packages `@tesseract.js-data/<lang>` (`npm install
 * @tesseract.js-data/kor`), resolved from the node_modules docmill itself is installed in. Nothing is
 * ever downloaded: a model that is not installed is simply not used.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../runtime/package-root.js';

const requireFromRoot = createRequire(path.join(PACKAGE_ROOT, 'package.json'));

/** The installed package's folder, or null (package codes are checked before they reach this). */
function packageDir(lang: string): string | null {
  try {
    return path.dirname(requireFromRoot.resolve(`@tesseract.js-data/${lang}/package.json`));
  } catch {
    return null;
  }
}

/**
 * Folder holding `<lang>.traineddata.gz` from the installed `@tesseract.js-data/<lang>` package, or
 * null. The packages carry two builds: `4.0.0_best_int` (LSTM only, what docmill runs) and `4.0.0`
 * (with the legacy engine's data, which docmill does not load).
 */
export function installedModelDir(lang: string): string | null {
  if (!/^[a-z0-9_]+$/i.test(lang)) return null;
  const dir = packageDir(lang);
  if (!dir) return null;
  for (const build of ['4.0.0_best_int', '4.0.0']) {
    const d = path.join(dir, build);
    if (existsSync(path.join(d, `${lang}.traineddata.gz`))) return d;
  }
  return null;
}

/**
 * Models that read each script (the names are those of tesseract's script detection), most common
 * language first. Latin is absent: it is read with the configured languages (English by default).
 * There is no `@tesseract.js-data/rus`; Cyrillic is read with the first of these that is installed or
 * sits in the configured `ocrLangPath` (`ukr`, `bul`, `srp` and `bel` exist as packages; `ukr` reads
 * Russian text too, apart from the letters ы, э and ъ, which Ukrainian lacks).
 */
export const SCRIPT_MODELS: Readonly<Record<string, readonly string[]>> = {
  Cyrillic: ['rus', 'ukr', 'bul', 'srp', 'bel'],
  Arabic: ['ara', 'fas', 'urd'],
  Hebrew: ['heb'],
  Han: ['chi_sim', 'chi_tra', 'jpn'],
  Japanese: ['jpn'],
  Katakana: ['jpn'],
  Hiragana: ['jpn'],
  Hangul: ['kor'],
  Devanagari: ['hin', 'mar', 'nep', 'san'],
  Greek: ['ell'],
  Thai: ['tha'],
  Bengali: ['ben'],
  Tamil: ['tam'],
};

/** Where a language's model is: the configured folder when it holds it, else its installed package. */
export interface ModelSource {
  languages: string;
  langPath: string;
  gzip: boolean;
}

/** The model to read a page of `script` with, from `langPath` or the installed packages; null if none. */
export function modelForScript(script: string, langPath: string | undefined): ModelSource | null {
  for (const lang of SCRIPT_MODELS[script] ?? []) {
    if (langPath) {
      const dir = path.resolve(langPath);
      if (existsSync(path.join(dir, `${lang}.traineddata`))) return { languages: lang, langPath: dir, gzip: false };
      if (existsSync(path.join(dir, `${lang}.traineddata.gz`))) return { languages: lang, langPath: dir, gzip: true };
    }
    const dir = installedModelDir(lang);
    if (dir) return { languages: lang, langPath: dir, gzip: true };
  }
  return null;
}

/**
 * The model of each script that has one (one per script, each model once), in the order of
 * SCRIPT_MODELS: the readings a page that English cannot read is tried with.
 */
export function scriptModels(langPath: string | undefined): ModelSource[] {
  const seen = new Set<string>();
  const out: ModelSource[] = [];
  for (const script of Object.keys(SCRIPT_MODELS)) {
    const m = modelForScript(script, langPath);
    if (m && !seen.has(m.languages)) {
      seen.add(m.languages);
      out.push(m);
    }
  }
  return out;
}
