import { ParseError } from '../errors.js';
import type { RedactOptions } from '../options/schema.js';
import type { ParseDocument } from '../types.js';

/**
 * Redacts PII from every text member of the response document (markdown, pages, block contents).
 * Until redaction lands, asking for it is refused rather than returning the document unredacted.
 */
export async function redactDocument(_doc: ParseDocument, _options: RedactOptions): Promise<ParseDocument> {
  throw new ParseError('BAD_REQUEST', 'options.redactPII: PII redaction is not yet supported by this version of docmill.');
}
