/**
 * Error bodies of the service. The specification fixes four of them:
 *   400 {success:false, code:"BAD_REQUEST", error}   402 {error}   429 {error}   500 {success:false, code:"UNKNOWN_ERROR", error}
 * Every other failure uses the 400/500 shape `{success:false, code, error}` with the library's stable code
 * and the status `httpStatusOf(code)` gives (415, 422, 413, 408, 503), plus 401 `{success:false, error}`
 * for authentication and 404 `{success:false, code:"NOT_FOUND", error}` for unknown monitors and routes.
 */
import { httpStatusOf, type ParseErrorCode } from '../errors.js';

export type ServiceErrorCode = ParseErrorCode | 'NOT_FOUND' | 'UNAUTHORIZED' | 'PAYMENT_REQUIRED' | 'RATE_LIMITED';

export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: ServiceErrorCode,
    message: string,
    /** Sent as the Retry-After header (429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    if (this.status === 402 || this.status === 429) return { error: this.message };
    if (this.status === 401) return { success: false, error: this.message };
    return { success: false, code: this.code, error: this.message };
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, 'BAD_REQUEST', message);
export const notFound = (message: string): HttpError => new HttpError(404, 'NOT_FOUND', message);
export const unauthorized = (message: string): HttpError => new HttpError(401, 'UNAUTHORIZED', message);
export const paymentRequired = (message: string): HttpError => new HttpError(402, 'PAYMENT_REQUIRED', message);
export const tooManyRequests = (message: string, retryAfterSeconds = 1): HttpError =>
  new HttpError(429, 'RATE_LIMITED', message, retryAfterSeconds);

export function fromParseCode(code: ParseErrorCode, message: string): HttpError {
  return new HttpError(httpStatusOf(code), code, message);
}

/** JSON schemas of the error bodies, for the OpenAPI document. */
export const errorSchemas = {
  coded: {
    type: 'object',
    required: ['success', 'code', 'error'],
    properties: { success: { type: 'boolean', const: false }, code: { type: 'string' }, error: { type: 'string' } },
  },
  plain: {
    type: 'object',
    required: ['error'],
    properties: { error: { type: 'string' } },
  },
  unauthorized: {
    type: 'object',
    required: ['success', 'error'],
    properties: { success: { type: 'boolean', const: false }, error: { type: 'string' } },
  },
} as const;
