/**
 * Each benchmark owns one section of bench/README.md between `<!-- name:start -->` and
 * `<!-- name:end -->`; writing replaces that section (or appends it) and leaves the others alone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './corpus.js';

const README = path.join(REPO_ROOT, 'bench', 'README.md');

export function writeReadmeSection(name: string, section: string): void {
  const current = existsSync(README) ? readFileSync(README, 'utf8') : '# Benchmarks\n';
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${section.trimEnd()}\n${end}`;
  const next =
    current.includes(start) && current.includes(end)
      ? current.replace(new RegExp(`${start}[\\s\\S]*?${end}`), () => block)
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(README, next);
}
