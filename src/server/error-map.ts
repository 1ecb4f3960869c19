/**
 * Every failure a route can raise, as the status and body the client gets (see http-error.ts for the shapes).
 */
import type { FastifyError } from 'fastify';
import { ParseError } from '../errors.js';
import { fromParseCode, HttpError, tooManyRequests } from './http-error.js';
import { QueueFullError } from './limiter.js';
import { describeValidation } from './validation.js';

const MULTIPART_CODES: Record<string, [number, 'BAD_REQUEST' | 'RESOURCE_LIMIT', string]> = {
  FST_REQ_FILE_TOO_LARGE: [413, 'RESOURCE_LIMIT', 'The file is larger than the limit of 50 MB per request.'],
  FST_FILES_LIMIT: [400, 'BAD_REQUEST', 'Send exactly one file, in the multipart field "file".'],
  FST_PARTS_LIMIT: [400, 'BAD_REQUEST', 'Too many multipart parts: send "file" and optionally "options".'],
  FST_FIELDS_LIMIT: [400, 'BAD_REQUEST', 'Too many multipart fields: send "file" and optionally "options".'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [
    400,
    'BAD_REQUEST',
    'Expected a multipart/form-data request with the file in the field "file".',
  ],
  // A part typed application/json whose text is not JSON: the plugin refuses it while reading the body.
  FST_INVALID_JSON_FIELD_ERROR: [400, 'BAD_REQUEST', 'options: not valid JSON (the part is typed application/json).'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [400, 'BAD_REQUEST', 'Unsupported Content-Type for this route.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'RESOURCE_LIMIT', 'The request body is too large.'],
};

export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof ParseError) return fromParseCode(err.code, err.message);
  if (err instanceof QueueFullError) return tooManyRequests(err.message, err.retryAfterSeconds);
  const fe = err as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (Array.isArray(fe.validation)) {
    return new HttpError(
      400,
      'BAD_REQUEST',
      describeValidation(fe.validation as never, fe.validationContext ?? 'request'),
    );
  }
  const known = fe.code ? MULTIPART_CODES[fe.code] : undefined;
  if (known)
    return new HttpError(
      known[0],
      known[1],
      fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? `${known[2]} ${fe.message}` : known[2],
    );
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    // Malformed bodies (bad JSON, truncated multipart) and the like.
    return new HttpError(400, 'BAD_REQUEST', fe.message || 'Malformed request.');
  }
  return new HttpError(500, 'UNKNOWN_ERROR', fe.message || 'Unexpected server failure.');
}
