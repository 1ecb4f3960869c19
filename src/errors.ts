/**
 * Every failure docmill reports carries a stable code. The HTTP layer maps codes to statuses with
 * `httpStatus`; library users switch on `code`, never on the message.
 */
export type ParseErrorCode =
  /** The request or its options are invalid. */
  | 'BAD_REQUEST'
  /** The bytes are none of the supported formats (or a supported format not read yet). */
  | 'UNSUPPORTED_FILE_TYPE'
  /** The file is password protected and cannot be opened without the password. */
  | 'ENCRYPTED'
  /** The file claims a supported format but its structure cannot be read. */
  | 'MALFORMED'
  /** A safety limit was hit: decompressed size, entry count, nesting, page count, file size. */
  | 'RESOURCE_LIMIT'
  /** The parse took longer than `timeout`. */
  | 'TIMEOUT'
  /** The caller's AbortSignal fired. */
  | 'ABORTED'
  /** The parser was closed while work was pending. */
  | 'CLOSED'
  /** Anything else: a defect, reported with its message. */
  | 'UNKNOWN_ERROR';

const STATUS: Record<ParseErrorCode, number> = {
  BAD_REQUEST: 400,
  UNSUPPORTED_FILE_TYPE: 415,
  ENCRYPTED: 422,
  MALFORMED: 422,
  RESOURCE_LIMIT: 413,
  TIMEOUT: 408,
  ABORTED: 499,
  CLOSED: 503,
  UNKNOWN_ERROR: 500,
};

export interface ParseErrorDetails {
  /** The option path for BAD_REQUEST errors, e.g. `parsers[0].maxPages`. */
  field?: string;
  [key: string]: unknown;
}

export class ParseError extends Error {
  override readonly name = 'ParseError';
  readonly code: ParseErrorCode;
  /** The HTTP status this error maps to. */
  readonly status: number;
  readonly details: ParseErrorDetails | undefined;

  constructor(code: ParseErrorCode, message: string, options?: { cause?: unknown; details?: ParseErrorDetails }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = STATUS[code];
    this.details = options?.details;
  }

  toJSON(): { code: ParseErrorCode; error: string; details?: ParseErrorDetails } {
    return this.details
      ? { code: this.code, error: this.message, details: this.details }
      : { code: this.code, error: this.message };
  }
}

export function httpStatusOf(code: ParseErrorCode): number {
  return STATUS[code];
}

/** Wraps anything thrown into a ParseError, keeping ParseErrors as they are. */
export function toParseError(err: unknown): ParseError {
  if (err instanceof ParseError) return err;
  if (err instanceof Error && err.name === 'AbortError')
    return new ParseError('ABORTED', 'The parse was aborted.', { cause: err });
  const message = err instanceof Error ? err.message : String(err);
  return new ParseError('UNKNOWN_ERROR', message || 'Unknown error', { cause: err });
}
