/**
 * The node flags the docmill command and service run under, read from the command's shebang
 * (`#!/usr/bin/env -S node FLAGS`), so that benchmarks start docmill as it starts itself and the two
 * cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './corpus.js';

export function cliNodeFlags(): string[] {
  const first = readFileSync(path.join(REPO_ROOT, 'src', 'cli', 'main.ts'), 'utf8').split('\n', 1)[0]!;
  const m = /^#!\S*env\s+(?:-S\s+)?node\b(.*)$/.exec(first);
  return m ? m[1]!.trim().split(/\s+/).filter(Boolean) : [];
}
