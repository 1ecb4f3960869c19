/**
 * POST /v2/parse: multipart `file` + `options` (JSON text of ParseOptions) → the response document.
 *
 * Order of work, chosen so that refused requests cost next to nothing:
 *   auth (hook) → page quota (402) → concurrency slot or queue place (429) → read the upload into memory
 *   → validate options (400) → wait for the slot → parse → account pages → audit line.
 * The upload is held in memory only (never a temporary file), nothing is cached, and no log line carries
 * file content; with zeroDataRetention even the file name is left out of the logs.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { ParseError } from '../../errors.js';
import { normalizeOptions, type NormalizedOptions, type ParseOptions } from '../../options/schema.js';
import type { ParseDocument } from '../../types.js';
import type { ServiceContext } from '../context.js';
import { badRequest, errorSchemas, HttpError, paymentRequired } from '../http-error.js';
import { toHttpError } from '../error-map.js';
import type { Slot } from '../limiter.js';
import { MULTIPART } from '../validation.js';

const MAX_OPTIONS_BYTES = 1024 * 1024;

interface Upload {
  bytes: Buffer;
  filename: string;
  mimetype: string | undefined;
  options: OptionsPart | undefined;
}

/**
 * The `options` part as it arrived. The multipart plugin hands a part typed `application/json` (what the
 * specification sends, with or without a charset) over already parsed; an untyped or `text/plain` part, or
 * one sent as a file (a Blob), arrives as text.
 */
type OptionsPart = { text: string } | { parsed: unknown };

async function readUpload(request: FastifyRequest): Promise<Upload> {
  try {
    return await readParts(request);
  } catch (err) {
    // Busboy reports a damaged body (no boundary, truncated part) as a plain Error: that is a malformed request.
    if (err instanceof HttpError || String((err as { code?: unknown }).code ?? '').startsWith('FST_')) throw err;
    throw badRequest(`Malformed multipart/form-data body: ${(err as Error).message}`);
  }
}

async function readParts(request: FastifyRequest): Promise<Upload> {
  let upload: Omit<Upload, 'options'> | undefined;
  let options: OptionsPart | undefined;
  for await (const part of request.parts() as AsyncIterableIterator<Multipart>) {
    if (part.type === 'file' && part.fieldname === 'options') {
      // Some clients send the options as a JSON "file" part (a Blob with type application/json).
      if (options !== undefined) throw badRequest('The multipart field "options" is given twice.');
      const text = await part.toBuffer();
      if (text.byteLength > MAX_OPTIONS_BYTES) throw badRequest('The multipart field "options" is larger than 1 MB.');
      options = { text: text.toString('utf8') };
    } else if (part.type === 'file') {
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw badRequest(`Unexpected file field "${part.fieldname}": send the file in the multipart field "file".`);
      }
      if (upload) throw badRequest('Send exactly one file, in the multipart field "file".');
      const bytes = await part.toBuffer();
      upload = { bytes, filename: part.filename || 'file', mimetype: part.mimetype || undefined };
    } else if (part.fieldname === 'options') {
      if (options !== undefined) throw badRequest('The multipart field "options" is given twice.');
      options = typeof part.value === 'string' ? { text: part.value } : { parsed: part.value };
    } else {
      throw badRequest(`Unexpected multipart field "${part.fieldname}": only "file" and "options" are accepted.`);
    }
  }
  if (!upload) throw badRequest('Missing file: send it in the multipart field "file".');
  if (upload.bytes.byteLength === 0) throw badRequest('The file is empty.');
  return { ...upload, options };
}

function parseOptionsPart(part: OptionsPart | undefined): { raw: ParseOptions; normalized: NormalizedOptions } {
  let raw: unknown = {};
  if (part && 'parsed' in part) raw = part.parsed;
  else if (part && part.text.trim() !== '') {
    try {
      raw = JSON.parse(part.text);
    } catch (err) {
      throw badRequest(`options: not valid JSON (${(err as Error).message}).`);
    }
  }
  return { raw: raw as ParseOptions, normalized: normalizeOptions(raw) };
}

/** Pages a parse counts against the quota: pages parsed for paged inputs, else one. */
export function pagesOf(doc: ParseDocument): number {
  const n = doc.metadata.numPages;
  if (typeof n === 'number' && Number.isFinite(n) && n > 0) return Math.floor(n);
  if (Array.isArray(doc.pages) && doc.pages.length > 0) return doc.pages.length;
  return 1;
}

const parseBodySchema = {
  [MULTIPART]: true,
  type: 'object',
  required: ['file'],
  properties: {
    file: {
      type: 'string',
      format: 'binary',
      description:
        'The file bytes (at most 50 MB). Supported: .html .htm .xhtml .pdf .docx .doc .docm .odt .ods .odp .rtf .xlsx .xls .xlsm .xlsb .pptx .ppt .pptm .epub .csv',
    },
    options: { type: 'string', description: 'JSON text of ParseOptions (content type application/json).' },
  },
};

const parseResponseSchema = {
  type: 'object',
  required: ['success', 'data'],
  properties: {
    success: { type: 'boolean' },
    data: {
      type: 'object',
      additionalProperties: true,
      description:
        'The response document: markdown, pages, blocks, html, rawHtml, links, images, summary, json, metadata, warning.',
    },
  },
};

export async function parseRoutes(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  const { config, store, parser, limiter } = ctx;

  app.post(
    '/v2/parse',
    {
      schema: {
        summary: 'Parse an uploaded file',
        consumes: ['multipart/form-data'],
        body: parseBodySchema,
        response: {
          200: parseResponseSchema,
          400: { ...errorSchemas.coded, description: 'Malformed request or invalid options (code BAD_REQUEST)' },
          401: { ...errorSchemas.unauthorized, description: 'Missing or unknown API key' },
          402: { ...errorSchemas.plain, description: 'The page quota of the API key is spent' },
          408: { ...errorSchemas.coded, description: 'The parse did not finish within options.timeout (code TIMEOUT)' },
          413: {
            ...errorSchemas.coded,
            description: 'The file is over 50 MB or a safety limit was hit (code RESOURCE_LIMIT)',
          },
          415: { ...errorSchemas.coded, description: 'Not a supported file type (code UNSUPPORTED_FILE_TYPE)' },
          422: { ...errorSchemas.coded, description: 'Encrypted or damaged file (code ENCRYPTED or MALFORMED)' },
          429: { ...errorSchemas.plain, description: 'Concurrency limit and queue of the API key are full' },
          500: { ...errorSchemas.coded, description: 'Unexpected failure (code UNKNOWN_ERROR)' },
          503: { ...errorSchemas.coded, description: 'The service is shutting down (code CLOSED)' },
        },
      },
    },
    async (request, reply) => {
      const started = performance.now();
      const keyId = request.keyId;

      const refused = (status: number, code: string): void => {
        request.log.info(
          {
            audit: {
              event: 'parse',
              keyId,
              username: null,
              status,
              code,
              pages: 0,
              durationMs: Math.round(performance.now() - started),
            },
          },
          'audit',
        );
      };
      if (config.pageQuota > 0) {
        const used = await store.pagesUsed(keyId);
        if (used >= config.pageQuota) {
          refused(402, 'PAYMENT_REQUIRED');
          throw paymentRequired(
            `Page quota spent: ${used} of ${config.pageQuota} pages used this month by this API key.`,
          );
        }
      }

      let slot: Slot;
      try {
        slot = limiter.acquire(keyId);
      } catch (err) {
        refused(429, 'RATE_LIMITED');
        throw err;
      }
      const abort = new AbortController();
      const onClose = (): void => {
        if (!reply.raw.writableFinished) abort.abort(new ParseError('ABORTED', 'The client closed the connection.'));
      };
      reply.raw.on('close', onClose);
      let options: NormalizedOptions | undefined;
      let upload: Upload | undefined;
      let status = 500;
      let code: string | undefined;
      let pages = 0;
      try {
        upload = await readUpload(request);
        const parsed = parseOptionsPart(upload.options);
        options = parsed.normalized;
        request.zeroDataRetention = options.zeroDataRetention;

        if (slot.waited) {
          await Promise.race([
            slot.ready,
            new Promise<never>((_, reject) => {
              if (abort.signal.aborted) reject(abort.signal.reason as Error);
              abort.signal.addEventListener('abort', () => reject(abort.signal.reason as Error), { once: true });
            }),
          ]);
        }

        const data = await parser.parseFile(upload.bytes, parsed.raw, {
          filename: upload.filename,
          contentType: upload.mimetype,
          signal: abort.signal,
        });
        data.metadata.sourceURL = upload.filename;
        if (slot.waited) {
          data.metadata.concurrencyLimited = true;
          data.metadata.concurrencyQueueDurationMs = Math.round(slot.queueMs);
        }
        pages = pagesOf(data);
        // Usage is written only where a quota needs it: one write per request is the dearest part of a small parse.
        if (config.pageQuota > 0) await store.addPages(keyId, pages);
        status = 200;
        return reply.code(200).send({ success: true, data });
      } catch (err) {
        const mapped = toHttpError(err);
        status = mapped.status;
        code = mapped.code;
        throw err;
      } finally {
        slot.release();
        reply.raw.off('close', onClose);
        const zdr = options?.zeroDataRetention ?? false;
        // One structured audit line per parse: who (key id, never the key; the caller's username when given),
        // what happened, how long. File content never appears; with zero data retention the file name neither.
        request.log.info(
          {
            audit: {
              event: 'parse',
              keyId,
              username: options?.auditMetadata?.username ?? null,
              status,
              code: code ?? null,
              pages,
              bytes: upload?.bytes.byteLength ?? null,
              filename: zdr ? null : (upload?.filename ?? null),
              zeroDataRetention: zdr,
              concurrencyLimited: slot.waited,
              queueMs: Math.round(slot.queueMs),
              durationMs: Math.round(performance.now() - started),
            },
          },
          'audit',
        );
        if (upload) upload.bytes = Buffer.alloc(0);
      }
    },
  );
}
