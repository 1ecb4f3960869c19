#!/usr/bin/env node
/**
 * docmill FILE [--json] [--options JSON] [--mode fast|auto|ocr] [--pages] [--blocks]
 * docmill serve
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ParseError, toParseError } from '../errors.js';
import type { ParseOptions } from '../options/schema.js';
import { createParser } from '../parser.js';

const USAGE = `Usage:
  docmill FILE [--json] [--options JSON] [--mode fast|auto|ocr] [--pages] [--blocks] [--max-pages N]
  docmill serve

Converts FILE to markdown on standard output.
  --json          print the whole response document {success, data} as JSON
  --options JSON  ParseOptions as JSON text (the same as the options field of POST /v2/parse)
  --mode MODE     PDF mode: fast (text only), auto (text, OCR where needed; default), ocr (every page)
  --pages         per-page markdown (pages in --json; page separators in markdown output)
  --blocks        layout blocks (in --json output)
  --max-pages N   parse at most N pages of a PDF
Exit status: 0 on success, 1 when the file could not be parsed, 2 on a usage error.`;

function fail(code: string, message: string, status: number): never {
  process.stderr.write(`docmill: ${code}: ${message}\n`);
  process.exit(status);
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'serve') {
    const { serve } = await import('../server/serve.js');
    await serve(argv.slice(1));
    return;
  }
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        options: { type: 'string' },
        mode: { type: 'string' },
        pages: { type: 'boolean' },
        blocks: { type: 'boolean' },
        'max-pages': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    fail('BAD_REQUEST', `${(err as Error).message}\n${USAGE}`, 2);
  }
  if (args.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const file = args.positionals[0];
  if (!file || args.positionals.length > 1) fail('BAD_REQUEST', `expected exactly one FILE.\n${USAGE}`, 2);

  let options: Record<string, unknown> = {};
  if (args.values.options) {
    try {
      options = JSON.parse(args.values.options) as Record<string, unknown>;
    } catch (err) {
      fail('BAD_REQUEST', `--options is not valid JSON: ${(err as Error).message}`, 2);
    }
  }
  const { mode, pages, blocks } = args.values;
  const maxPages = args.values['max-pages'];
  if (mode !== undefined || pages || blocks || maxPages !== undefined) {
    const parsers = Array.isArray(options['parsers']) ? (options['parsers'] as unknown[]) : [];
    const base = parsers[0] && typeof parsers[0] === 'object' ? (parsers[0] as Record<string, unknown>) : { type: 'pdf' };
    options['parsers'] = [{
      ...base,
      ...(mode !== undefined ? { mode } : {}),
      ...(pages ? { pages: true } : {}),
      ...(blocks ? { blocks: true } : {}),
      ...(maxPages !== undefined ? { maxPages: Number(maxPages) } : {}),
    }];
  }

  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    fail('BAD_REQUEST', `cannot read ${file}: ${(err as Error).message}`, 2);
  }

  const parser = createParser();
  try {
    const data = await parser.parseFile(bytes, options as ParseOptions, { filename: path.basename(file) });
    if (args.values.json) {
      process.stdout.write(`${JSON.stringify({ success: true, data }, null, 2)}\n`);
    } else if (pages && data.pages) {
      process.stdout.write(data.pages.map((p) => `<!-- page ${p.pageNumber} -->\n\n${p.markdown}\n`).join('\n'));
    } else {
      process.stdout.write(data.markdown ?? '');
    }
    if (data.warning) process.stderr.write(`docmill: warning: ${data.warning}\n`);
  } catch (err) {
    const e = err instanceof ParseError ? err : toParseError(err);
    if (args.values.json) process.stdout.write(`${JSON.stringify({ success: false, code: e.code, error: e.message }, null, 2)}\n`);
    fail(e.code, e.message, 1);
  } finally {
    await parser.close();
  }
}

// A reader that stops early (`docmill big.pdf | head`) is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

main(process.argv.slice(2)).catch((err: unknown) => {
  const e = toParseError(err);
  fail(e.code, e.message, 1);
});
