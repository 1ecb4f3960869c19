/**
 * Test helpers: the ParseError code a piece of work ends with ('none' when it succeeds). Anything
 * thrown that is not a ParseError fails the test.
 */
import { expect } from 'vitest';
import { ParseError } from '../src/errors.js';
import type { ReaderContext } from '../src/readers/reader.js';

function codeFrom(err: unknown): string {
  expect(err).toBeInstanceOf(ParseError);
  return (err as ParseError).code;
}

export async function errorCodeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (err) {
    return codeFrom(err);
  }
  return 'none';
}

export function errorCodeOfSync(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return codeFrom(err);
  }
  return 'none';
}

/** A reader context for calling one reader directly, without a parser around it. */
export function readerContext(bytes: Uint8Array, kind: ReaderContext['kind']): ReaderContext {
  return {
    bytes,
    kind,
    contentType: 'application/octet-stream',
    filename: undefined,
    options: {} as ReaderContext['options'],
    signal: new AbortController().signal,
    deadline: Date.now() + 30000,
    runtime: undefined as unknown as ReaderContext['runtime'],
  };
}
