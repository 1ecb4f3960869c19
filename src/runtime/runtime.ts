/**
 * What a parser owns across parses: worker pools and other costly engines, created on first use and
 * closed together. Readers ask for them by key; the runtime never knows what they are.
 */
import os from 'node:os';

export interface ParserConfig {
  /** Threads of the PDF text pool. Default: one per core. */
  textThreads?: number;
  /** Threads of the OCR pool. Default: what memory allows (about 350 MB each), at most the core count. */
  ocrThreads?: number;
  /** Milliseconds an idle worker is kept before it exits. Default 30000. */
  idleTimeoutMs?: number;
  /** Directory of extra tesseract traineddata files (`<lang>.traineddata`), for languages beyond English. */
  ocrLangPath?: string;
  /** OCR languages, tesseract codes joined with `+`. Default `eng`. */
  ocrLanguages?: string;
}

export interface ResolvedParserConfig {
  textThreads: number;
  ocrThreads: number;
  idleTimeoutMs: number;
  ocrLangPath: string | undefined;
  ocrLanguages: string;
}

function resolveConfig(config: ParserConfig = {}): ResolvedParserConfig {
  const cores = Math.max(1, os.availableParallelism());
  const byMemory = Math.max(1, Math.floor((os.totalmem() * 0.5) / (350 * 1024 * 1024)));
  return {
    textThreads: Math.max(1, Math.floor(config.textThreads ?? cores)),
    ocrThreads: Math.max(1, Math.floor(config.ocrThreads ?? Math.min(cores, byMemory))),
    idleTimeoutMs: config.idleTimeoutMs ?? 30000,
    ocrLangPath: config.ocrLangPath,
    ocrLanguages: config.ocrLanguages ?? 'eng',
  };
}

interface Resource {
  value: unknown;
  close: () => Promise<void> | void;
}

export class ParserRuntime {
  readonly config: ResolvedParserConfig;
  private readonly resources = new Map<string, Resource>();
  private closed = false;

  constructor(config: ParserConfig = {}) {
    this.config = resolveConfig(config);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Returns the resource under `key`, creating it on first use. */
  resource<T>(key: string, create: () => { value: T; close: () => Promise<void> | void }): T {
    if (this.closed) throw new Error('The parser is closed.');
    let r = this.resources.get(key);
    if (!r) {
      r = create();
      this.resources.set(key, r);
    }
    return r.value as T;
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.resources.values()];
    this.resources.clear();
    await Promise.allSettled(all.map((r) => r.close()));
  }
}
