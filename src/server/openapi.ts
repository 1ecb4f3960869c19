/**
 * What the OpenAPI document says about POST /v2/parse beyond the route schemas: the `options` part as the
 * ParseOptions schema (generated from the same zod schema that validates it) and the members of the response
 * document. These are documentation only: the route's own response schema stays loose, because Fastify
 * serializes with it and a declared member type would coerce values (metadata members are string or array).
 */
import { parseOptionsJsonSchema } from '../options/schema.js';

const nullable = (schema: Record<string, unknown>): Record<string, unknown> => ({
  anyOf: [schema, { type: 'null' }],
});
const stringOrList = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] };

const layoutBlock = {
  type: 'object',
  required: ['id', 'type', 'label', 'bbox', 'content', 'markdownSpan', 'readingOrder', 'source', 'confidence'],
  properties: {
    id: { type: 'string', description: '`p<page>.b<index in reading order>`, stable within one response.' },
    type: {
      type: 'string',
      description:
        'title, section_header, text, list_item, table, formula, figure, caption, code, page_number, page_header, page_footer; new types may appear.',
    },
    label: nullable({ type: 'string' }),
    bbox: {
      ...nullable({ type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 }),
      description: '[x0, y0, x1, y1] normalised 0..1 to the page as displayed (rotation applied).',
    },
    content: { type: 'string' },
    markdownSpan: {
      ...nullable({ type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 }),
      description: '[start, end) offsets into markdown.',
    },
    readingOrder: { type: 'integer' },
    source: nullable({ type: 'string' }),
    confidence: {
      type: 'object',
      properties: { layout: nullable({ type: 'number' }), ocr: nullable({ type: 'number' }) },
    },
  },
};

const metadata = {
  type: 'object',
  additionalProperties: true,
  description: 'Other keys (HTML meta tags, document properties) are strings or arrays of strings.',
  properties: {
    title: stringOrList,
    description: stringOrList,
    keywords: stringOrList,
    language: nullable(stringOrList),
    sourceURL: { type: 'string', description: 'The uploaded file name.' },
    numPages: { type: 'integer', description: 'Pages parsed, after maxPages.' },
    totalPages: {
      type: 'integer',
      description: 'True page count; when greater than numPages the result is truncated.',
    },
    contentType: { type: 'string' },
    error: { ...nullable({ type: 'string' }), description: 'Per-page problems, joined.' },
    concurrencyLimited: { type: 'boolean' },
    concurrencyQueueDurationMs: { type: 'number' },
  },
};

/** The response document (`data`) of a successful parse. */
export const parseDocumentJsonSchema = {
  type: 'object',
  required: ['metadata'],
  properties: {
    markdown: { type: 'string', description: 'When markdown is in formats (the default).' },
    pages: {
      ...nullable({
        type: 'array',
        items: {
          type: 'object',
          required: ['pageNumber', 'markdown'],
          properties: { pageNumber: { type: 'integer' }, markdown: { type: 'string' } },
        },
      }),
      description: 'When the pdf parser option pages is true.',
    },
    blocks: {
      ...nullable({
        type: 'array',
        items: {
          type: 'object',
          required: ['pageNumber', 'width', 'height', 'status', 'items'],
          properties: {
            pageNumber: { type: 'integer' },
            width: { ...nullable({ type: 'number' }), description: 'Page width as displayed, in pixels at 72 dpi.' },
            height: { ...nullable({ type: 'number' }), description: 'Page height as displayed.' },
            status: { type: 'string', enum: ['ok', 'partial', 'failed'] },
            items: { type: 'array', items: layoutBlock },
          },
        },
      }),
      description: 'When the pdf parser option blocks is true: one entry per page.',
    },
    summary: nullable({ type: 'string' }),
    html: nullable({ type: 'string' }),
    rawHtml: nullable({ type: 'string' }),
    links: { type: 'array', items: { type: 'string' } },
    images: { type: 'array', items: { type: 'string' } },
    json: { description: 'Result of the json format.' },
    metadata,
    warning: { ...nullable({ type: 'string' }), description: 'Problems that did not stop the parse.' },
  },
};

/** The `options` multipart part, documented as the ParseOptions object it carries. */
export function optionsPartJsonSchema(): Record<string, unknown> {
  return {
    ...parseOptionsJsonSchema(),
    description: 'ParseOptions, sent as JSON text (part content type application/json, text/plain or none).',
  };
}

/** Swaps the documented shapes into the /v2/parse route schema for the OpenAPI document. */
export function documentParseRoute(schema: Record<string, unknown>): Record<string, unknown> {
  const body = schema['body'] as { properties?: Record<string, unknown> } | undefined;
  const response = schema['response'] as Record<string, { properties?: Record<string, unknown> }> | undefined;
  const ok = response?.['200'];
  return {
    ...schema,
    ...(body ? { body: { ...body, properties: { ...body.properties, options: optionsPartJsonSchema() } } } : {}),
    ...(response && ok
      ? { response: { ...response, 200: { ...ok, properties: { ...ok.properties, data: parseDocumentJsonSchema } } } }
      : {}),
  };
}
