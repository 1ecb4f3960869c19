/**
 * The command line's flags, checked and turned into what a run does. Every mistake is a UsageError that
 * names the flag as it was typed (`--mode: must be one of fast, auto, ocr (got "turbo")`), and the
 * command exits with status 2 for all of them.
 */
import { parseArgs } from 'node:util';
import type { ParseOptions } from '../options/schema.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CliRun {
  /** Paths to convert; `-` is standard input. */
  files: string[];
  options: ParseOptions;
  /** Milliseconds, or undefined for no deadline. */
  timeoutMs: number | undefined;
  json: boolean;
  pages: boolean;
  blocks: boolean;
  quiet: boolean;
  /** Directory for one output file per input (several inputs). */
  outDir: string | undefined;
  /** Name (or extension) given to standard input, whose content cannot always tell its type. */
  stdinName: string | undefined;
}

const MODES = ['fast', 'auto', 'ocr'];

function integer(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`${flag}: must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`);
  return n;
}

export function parseCliArgs(argv: string[]): CliRun | 'help' | 'version' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        options: { type: 'string' },
        mode: { type: 'string' },
        pages: { type: 'boolean' },
        blocks: { type: 'boolean' },
        'max-pages': { type: 'string' },
        timeout: { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        output: { type: 'string', short: 'o' },
        filename: { type: 'string' },
        type: { type: 'string' },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    // node:util names the flag already ("Unknown option '--colour'", "Option '--mode <value>' argument missing").
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  if (v.version) return 'version';
  const files = parsed.positionals;
  if (files.length === 0) throw new UsageError('expected a FILE to convert (or - for standard input)');
  if (files.length > 1 && v.output === undefined)
    throw new UsageError(`${files.length} files given: convert several at once with -o DIR (one .md file each)`);
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('-: standard input can be read only once');

  let options: Record<string, unknown> = {};
  if (v.options !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(v.options);
    } catch (err) {
      throw new UsageError(`--options: not valid JSON (${(err as Error).message})`);
    }
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      throw new UsageError('--options: expected a JSON object');
    options = raw as Record<string, unknown>;
  }
  if (v.mode !== undefined && !MODES.includes(v.mode))
    throw new UsageError(`--mode: must be one of ${MODES.join(', ')} (got ${JSON.stringify(v.mode)})`);
  const maxPages = v['max-pages'] === undefined ? undefined : integer('--max-pages', v['max-pages'], 1, 10000);
  let timeoutMs = v.timeout === undefined ? undefined : integer('--timeout', v.timeout, 1, 300000);
  if (timeoutMs === undefined && typeof options['timeout'] === 'number') timeoutMs = options['timeout'];
  if (timeoutMs !== undefined) options['timeout'] = timeoutMs;
  if (v.mode !== undefined || v.pages || v.blocks || maxPages !== undefined) {
    const parsers = Array.isArray(options['parsers']) ? (options['parsers'] as unknown[]) : [];
    const base =
      parsers[0] && typeof parsers[0] === 'object' ? (parsers[0] as Record<string, unknown>) : { type: 'pdf' };
    options['parsers'] = [
      {
        ...base,
        ...(v.mode !== undefined ? { mode: v.mode } : {}),
        ...(v.pages ? { pages: true } : {}),
        ...(v.blocks ? { blocks: true } : {}),
        ...(maxPages !== undefined ? { maxPages } : {}),
      },
    ];
  }
  if (v.filename !== undefined && v.type !== undefined) throw new UsageError('--filename and --type: give one of them');
  if ((v.filename !== undefined || v.type !== undefined) && !files.includes('-'))
    throw new UsageError(`${v.filename !== undefined ? '--filename' : '--type'}: names standard input, read with -`);
  const type = v.type?.replace(/^\./, '');
  if (type !== undefined && !/^[a-z0-9]{1,8}$/i.test(type))
    throw new UsageError(`--type: expected a file extension such as csv or docx (got ${JSON.stringify(v.type)})`);
  return {
    files,
    options: options as ParseOptions,
    timeoutMs,
    json: v.json ?? false,
    pages: v.pages ?? false,
    blocks: v.blocks ?? false,
    quiet: v.quiet ?? false,
    outDir: v.output,
    stdinName: v.filename ?? (type !== undefined ? `stdin.${type}` : undefined),
  };
}
