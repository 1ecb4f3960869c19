/**
 * The parser's worker pools outlive a thread that dies between tasks. piscina reports the death of a
 * thread that holds no task (one ended by an abort while it ran out of memory, say) as an 'error'
 * event on the pool, and an 'error' event nobody listens to is thrown: it would end the process.
 */
import { describe, expect, it } from 'vitest';
import { ocrPool } from '../src/ocr/pool.js';
import { textPool } from '../src/pdf/text-pool.js';
import { ParserRuntime } from '../src/runtime/runtime.js';

describe('worker pools', () => {
  it('the PDF text pool and the OCR pool take a thread death outside any task without throwing', async () => {
    const runtime = new ParserRuntime({ textThreads: 1, ocrThreads: 1 });
    try {
      const death = Object.assign(new Error('Worker terminated due to reaching memory limit: JS heap out of memory'), {
        code: 'ERR_WORKER_OUT_OF_MEMORY',
      });
      for (const pool of [textPool(runtime), ocrPool(runtime)]) {
        expect(() => pool.emit('error', death)).not.toThrow();
      }
    } finally {
      await runtime.close();
    }
  });
});
