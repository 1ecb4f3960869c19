/**
 * Opening a PDF with pdf.js in Node: local font, CMap and wasm directories (nothing fetched), errors
 * mapped to codes. Used by the text worker; the OCR renderer may reuse it.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import type { OutlineEntry } from '../layout/types.js';
import { applyEdits, costlyImageEdits } from './image-gate.js';
import { PdfObjects } from './pdf-objects.js';
import { modernPdfjsReady, quietly } from './pdfjs-polyfills.js';

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));

/**
 * pdf.js inflates every content stream of 1 KB or more through the web `DecompressionStream`, once
 * per getOperatorList (and again per getTextContent, where a page still needs it). In Node that is zlib behind web streams: each
 * stream costs a trip to the thread pool and several promise turns, which measured at about a third
 * of a text worker's time on short documents (idle waits plus stream bookkeeping). This stand-in
 * inflates synchronously with native zlib and hands back one chunk; on damaged data it fails the
 * same way (the read rejects), and pdf.js then falls back to its own tolerant decoder as before.
 * Installed only in the text worker threads, whose global scope is theirs alone.
 */
export function installSyncInflate(): void {
  const g = globalThis as { DecompressionStream?: unknown };
  if ((g.DecompressionStream as { syncInflate?: boolean } | undefined)?.syncInflate) return;
  // A stream decoding past this is hostile (a decompression bomb). It reads as empty: an error here
  // would hand the stream to pdf.js's own decoder, which would inflate all of it in JavaScript, for
  // minutes on a 1 GB bomb, where a local conversion without a deadline would seem to hang.
  const MAX_OUTPUT = 512 * 1024 * 1024;
  class SyncDecompressionStream {
    static readonly syncInflate = true;
    readonly writable: { getWriter(): { write(b: Uint8Array): Promise<void>; close(): Promise<void> } };
    readonly readable: { getReader(): { read(): Promise<{ value?: Uint8Array; done: boolean }> } };
    constructor(format: string) {
      const parts: Uint8Array[] = [];
      let closed = false;
      let result: { value?: Uint8Array; error?: unknown } | null = null;
      const inflate = (): { value?: Uint8Array; error?: unknown } => {
        if (result) return result;
        try {
          const input = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
          const out =
            format === 'deflate'
              ? zlib.inflateSync(input, { maxOutputLength: MAX_OUTPUT })
              : format === 'deflate-raw'
                ? zlib.inflateRawSync(input, { maxOutputLength: MAX_OUTPUT })
                : format === 'gzip'
                  ? zlib.gunzipSync(input, { maxOutputLength: MAX_OUTPUT })
                  : format === 'brotli'
                    ? zlib.brotliDecompressSync(input, { maxOutputLength: MAX_OUTPUT })
                    : null;
          if (!out) throw new TypeError(`unsupported format ${format}`);
          result = { value: new Uint8Array(out.buffer, out.byteOffset, out.byteLength) };
        } catch (error) {
          const tooLarge = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
          result = tooLarge ? { value: new Uint8Array(0) } : { error };
        }
        return result;
      };
      this.writable = {
        getWriter: () => ({
          write: async (b: Uint8Array) => {
            parts.push(b);
          },
          close: async () => {
            closed = true;
          },
        }),
      };
      let delivered = false;
      this.readable = {
        getReader: () => ({
          read: async () => {
            if (!closed) throw new TypeError('read before the input was closed');
            const r = inflate();
            if (r.error) throw r.error;
            if (delivered || !r.value) return { done: true };
            delivered = true;
            return { value: r.value, done: false };
          },
        }),
      };
    }
  }
  g.DecompressionStream = SyncDecompressionStream;
}

/**
 * In Node, pdf.js runs its parsing side in the same thread as its API and joins the two with a
 * loopback port that deep-copies every message with `structuredClone`. For the two streams the text
 * pass reads, that copy is most of a message's cost and buys nothing: operator-list chunks carry an
 * array of glyph objects for every string shown, and text-content chunks an object per text run; both
 * sides are in this thread and neither changes what was sent. Measured on the corpus, the copies were
 * a sixth of a text worker's CPU (a quarter on short pages).
 *
 * This stand-in copies those two kinds of chunk only as deep as the sender goes on mutating them (the
 * parsing side empties its `fnArray`/`argsArray` after sending a chunk, and gives its text content new
 * `items`/`styles` arrays), and hands everything else to the real `structuredClone`. Installed only in the text worker threads, whose global scope is theirs alone.
 */
export function installLoopbackShortcut(): void {
  const g = globalThis as { structuredClone: typeof structuredClone & { loopbackShortcut?: boolean } };
  if (g.structuredClone.loopbackShortcut) return;
  const clone = g.structuredClone.bind(globalThis);
  // Operators sent so far on each operator-list stream still open.
  const sent = new Map<unknown, number>();
  const shortcut = ((value: unknown, options?: { transfer?: unknown[] }) => {
    const chunk = (value as { chunk?: unknown } | null)?.chunk;
    // Buffers listed for transfer are the sender's to give away: sharing them is what a transfer does.
    if (chunk && typeof chunk === 'object') {
      const msg = value as Record<string, unknown>;
      const ops = chunk as { fnArray?: unknown; argsArray?: unknown; lastChunk?: unknown };
      if (Array.isArray(ops.fnArray) && Array.isArray(ops.argsArray)) {
        const total = (sent.get(msg['streamId']) ?? 0) + ops.fnArray.length;
        if (ops.lastChunk || total > MAX_OPERATORS) sent.delete(msg['streamId']);
        else {
          if (sent.size > 64) sent.delete(sent.keys().next().value);
          sent.set(msg['streamId'], total);
        }
        // Thrown on the parsing side as it hands over the chunk: pdf.js stops reading the stream there
        // (it ignores the error and closes the list with what it had), before the list outgrows the
        // thread's heap. The reader learns of it through pageCut().
        if (total > MAX_OPERATORS) {
          cut ??= { message: OPERATOR_LIMIT_MESSAGE, overTime: false };
          throw new Error(OPERATOR_LIMIT_MESSAGE);
        }
        overTime();
        return { ...msg, chunk: { ...ops, fnArray: ops.fnArray.slice(), argsArray: ops.argsArray.slice() } };
      }
      if (Array.isArray((chunk as { items?: unknown }).items)) {
        overTime();
        return { ...msg, chunk: { ...chunk } };
      }
    }
    return clone(value, options as Parameters<typeof structuredClone>[1]);
  }) as typeof structuredClone & { loopbackShortcut?: boolean };
  shortcut.loopbackShortcut = true;
  g.structuredClone = shortcut;
}

/**
 * Drawing operators one page may have. Real pages stay far below (a dense map or a CAD drawing has a few
 * hundred thousand once pdf.js has merged its path operators); a content stream that inflates to
 * hundreds of megabytes of operators is a decompression bomb, and its operator list alone would fill
 * the thread's heap (which, past its limit, can bring down the process instead of the thread).
 */
export const MAX_OPERATORS = 3_000_000;

export const OPERATOR_LIMIT_MESSAGE = `the page has more than ${MAX_OPERATORS.toLocaleString('en')} drawing operators (a decompression bomb or a damaged content stream); the rest was not read`;

/** Why the current page's operators or text stopped being read early, if they did. */
export interface PageCut {
  message: string;
  /** Cut for time (the page's limit), not for its number of operators. */
  overTime: boolean;
}
let cut: PageCut | null = null;
/** performance.now() past which the current page's reading is cut (see startPage). */
let pageDeadline = Infinity;
let pageLimitMs = Infinity;

/**
 * Cuts the page's reading once its time is up, the same way as the operator limit: pdf.js stops at
 * the chunk it was handing over and keeps what it had. Checked once a chunk (about a thousand
 * operators), so a page that takes pdf.js pathologically long (a million nested saves, forms drawing
 * forms a billion times) costs its time budget, not the whole parse.
 */
function overTime(): void {
  if (performance.now() <= pageDeadline) return;
  const message = pageTimeMessage(pageLimitMs);
  cut ??= { message, overTime: true };
  throw new Error(message);
}

export function pageTimeMessage(limitMs: number): string {
  return `reading the page took longer than ${Math.round(limitMs / 1000)} s (a pathological or damaged content stream); the rest was not read`;
}

/**
 * Starts reading a page in a text thread: forgets the last page's cut and gives this one `limitMs`.
 * A text thread reads one page at a time, so the cut is about that page (read it with pageCut()).
 */
export function startPage(limitMs = Infinity): void {
  cut = null;
  pageLimitMs = limitMs;
  pageDeadline = performance.now() + limitMs;
}

/** Why the page started last was cut short (operator limit or time), or null when it was read whole. */
export function pageCut(): PageCut | null {
  return cut;
}

/**
 * pdf.js in Node defaults to `disableFontFace`, under which the operator list also compiles an outline
 * for every glyph shown and sends each one over the loopback port (for painting text as paths). The
 * text pass never paints, and those outlines were about 5% of its CPU. With font faces enabled pdf.js
 * instead hands each font to the document's font set, which needs a `FontFace` class: this installs
 * an inert one (the thread never renders) so `openPdf` can enable font faces against a document whose
 * font set accepts and drops them. Installed only in the text worker threads.
 */
export function installInertFontFaces(): void {
  const g = globalThis as { FontFace?: unknown };
  if (g.FontFace) return;
  g.FontFace = class InertFontFace {
    readonly loaded = Promise.resolve(this);
    load(): Promise<this> {
      return this.loaded;
    }
  };
}

/** The `ownerDocument` pdf.js adds font faces to when they are enabled: accepts them and keeps nothing. */
const INERT_DOCUMENT = {
  fonts: {
    add(): void {
      /* nothing paints here */
    },
    delete(): void {
      /* nothing kept */
    },
  },
};

function inertFontFaces(): boolean {
  return (globalThis as { FontFace?: { name?: string } }).FontFace?.name === 'InertFontFace';
}

/** pdf.js wants directories as paths ending in a separator. */
export const PDFJS_PATHS = {
  standardFontDataUrl: path.join(PDFJS_DIR, 'standard_fonts') + path.sep,
  cMapUrl: path.join(PDFJS_DIR, 'cmaps') + path.sep,
  wasmUrl: path.join(PDFJS_DIR, 'wasm') + path.sep,
};

/**
 * Standard font, CMap and wasm files for pdf.js, read once per thread instead of once per document
 * (pdf.js's own Node factory opens the file again for every document that needs it, which showed as
 * a tenth of the time of one-page documents). Bounded: the files are small but CMaps are many.
 */
const binaryCache = new Map<string, Uint8Array>();
let binaryCacheBytes = 0;
const BINARY_CACHE_MAX = 48 * 1024 * 1024;

class CachedBinaryDataFactory {
  private readonly urls: Record<string, string | null>;
  constructor(urls: { cMapUrl?: string | null; standardFontDataUrl?: string | null; wasmUrl?: string | null }) {
    this.urls = {
      cMapUrl: urls.cMapUrl ?? null,
      standardFontDataUrl: urls.standardFontDataUrl ?? null,
      wasmUrl: urls.wasmUrl ?? null,
    };
  }
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    const base = this.urls[kind];
    if (!base) throw new Error(`No directory for ${kind}`);
    const file = `${base}${filename}`;
    let data = binaryCache.get(file);
    if (!data) {
      data = new Uint8Array(await readFile(file));
      if (binaryCacheBytes + data.byteLength <= BINARY_CACHE_MAX) {
        binaryCache.set(file, data);
        binaryCacheBytes += data.byteLength;
      }
    }
    // A copy: pdf.js may take ownership of (transfer) what it is given.
    return data.slice();
  }
}

export interface PdfDocumentHandle {
  numPages: number;
  getPage(n: number): Promise<unknown>;
  getMetadata(): Promise<{ info?: Record<string, unknown>; metadata?: { get(name: string): unknown } | null }>;
}

export interface OpenedPdf {
  doc: PdfDocumentHandle;
  destroy(): Promise<void>;
}

export class PdfOpenError extends Error {
  constructor(
    readonly code: 'ENCRYPTED' | 'MALFORMED',
    message: string,
  ) {
    super(message);
  }
}

type PdfjsModule = {
  getDocument(params: Record<string, unknown>): { promise: Promise<PdfDocumentHandle>; destroy(): Promise<void> };
  normalizeUnicode?(s: string): string;
};
let pdfjs: Promise<PdfjsModule> | null = null;
let loaded: PdfjsModule | null = null;

/**
 * pdf.js's compatibility normalisation of extracted text (ligatures, presentation forms, odd spaces),
 * as its text content applies it; identity until pdf.js has loaded (no document is open before that).
 */
export function pdfjsNormalizeUnicode(s: string): string {
  return loaded?.normalizeUnicode ? loaded.normalizeUnicode(s) : s;
}

function loadPdfjs(): Promise<PdfjsModule> {
  pdfjs ??= (async () => {
    // pdf.js runs its parsing side in this thread (no worker in Node) and would import it on the first
    // getDocument; loading it here, alongside the API, takes that off the first document's time.
    const g = globalThis as { pdfjsWorker?: unknown };
    // The modern build where its newer built-ins are in place (the text threads install them): the
    // legacy one always loads the canvas binary (src/pdf/pdfjs-polyfills.ts).
    const build = modernPdfjsReady() ? 'pdfjs-dist/build' : 'pdfjs-dist/legacy/build';
    const [api, worker] = await quietly(() =>
      Promise.all([
        import(`${build}/pdf.mjs`) as Promise<PdfjsModule>,
        g.pdfjsWorker ? Promise.resolve(g.pdfjsWorker) : import(`${build}/pdf.worker.mjs`).catch(() => null),
      ]),
    );
    if (worker && !g.pdfjsWorker) g.pdfjsWorker = worker;
    loaded = api;
    return api;
  })();
  return pdfjs;
}

/** Starts loading pdf.js (a thread that will parse PDFs loads it before its first task arrives). */
export function preloadPdfjs(): void {
  loadPdfjs().catch(() => {
    pdfjs = null;
  });
}

/** Opens a document from bytes (copied: pdf.js takes ownership of the buffer it is given). */
export interface OpenOptions {
  /**
   * Decode images larger than this many pixels. The text pass needs only where images are painted,
   * not their pixels: pdf.js drops larger images from the operator list without decoding them, and
   * extract.ts recovers their placement from the empty `q cm Q` they leave behind. Default 4096.
   * The same bound holds for what an image declares beyond its own size (its mask, the frame of its
   * JPEG data): see image-gate.ts.
   */
  maxImagePixels?: number;
  /** The document's objects, when the caller has them already (read by image-gate.ts). */
  objects?: PdfObjects;
}

export async function openPdf(bytes: Uint8Array, opts: OpenOptions = {}): Promise<OpenedPdf> {
  const { getDocument } = await loadPdfjs();
  const maxImageSize = opts.maxImagePixels ?? 4096;
  // pdf.js's copy of the file, with images that would decode past the bound made harmless.
  const data = applyEdits(bytes, costlyImageEdits(opts.objects ?? new PdfObjects(bytes), maxImageSize));
  const task = getDocument({
    data,
    password: '',
    ...PDFJS_PATHS,
    cMapPacked: true,
    BinaryDataFactory: CachedBinaryDataFactory,
    isEvalSupported: false,
    fontExtraProperties: true,
    useSystemFonts: false,
    ...(inertFontFaces() ? { disableFontFace: false, ownerDocument: INERT_DOCUMENT } : {}),
    stopAtErrors: false,
    maxImageSize,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    return { doc, destroy: () => task.destroy().catch(() => undefined) };
  } catch (err) {
    await task.destroy().catch(() => undefined);
    const e = err as { name?: string; code?: number; message?: string };
    if (e?.name === 'PasswordException') {
      throw new PdfOpenError('ENCRYPTED', 'The PDF is password protected: it cannot be opened without its password.');
    }
    throw new PdfOpenError('MALFORMED', `The PDF cannot be read: ${e?.message ?? String(err)}`);
  }
}

function clean(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v
    .replace(/[\u0000-\u001F\uFEFF]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // Producers fill empty fields with placeholders; those are no title or author.
  if (!s || /^\(?(untitled|anonymous|unspecified|unknown|none|null|no title)\)?$/i.test(s)) return undefined;
  return s;
}

export interface PdfInfo {
  numPages: number;
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
  language?: string;
  /** The document's outline (src/pdf/outline.ts); absent when it has none. */
  outline?: OutlineEntry[];
}

export async function documentInfo(doc: PdfDocumentHandle): Promise<PdfInfo> {
  const out: PdfInfo = { numPages: doc.numPages };
  try {
    const meta = await doc.getMetadata();
    const info = meta.info ?? {};
    let xmpTitle: string | undefined;
    try {
      xmpTitle = clean(meta.metadata?.get('dc:title'));
    } catch {
      /* no XMP */
    }
    const title = clean(info['Title']) ?? xmpTitle;
    if (title) out.title = title;
    const author = clean(info['Author']);
    if (author) out.author = author;
    const subject = clean(info['Subject']);
    if (subject) out.subject = subject;
    const keywords = clean(info['Keywords']);
    if (keywords) out.keywords = keywords;
    const creator = clean(info['Creator']);
    if (creator) out.creator = creator;
    const producer = clean(info['Producer']);
    if (producer) out.producer = producer;
    const lang = clean(info['Language']);
    if (lang) out.language = lang;
  } catch {
    /* metadata is optional */
  }
  return out;
}
