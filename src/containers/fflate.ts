/**
 * fflate, loaded when a ZIP package is first opened or written: the parser's format detection imports
 * this module for every input, and a PDF never needs it. One loader for every caller, so that the
 * process holds one copy (its CommonJS build, which `require` picks).
 */
import { createRequire } from 'node:module';
import type * as Fflate from 'fflate';

let loaded: typeof Fflate | undefined;

export function fflate(): typeof Fflate {
  return (loaded ??= createRequire(import.meta.url)('fflate') as typeof Fflate);
}
