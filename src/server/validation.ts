/**
 * Route validators. Bodies are validated strictly (no type coercion, unknown members refused); query
 * strings and path parameters arrive as text and are coerced to the declared types.
 */
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';

type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

function make(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = make(false);
const textAjv = make(true);

/** Marks a body schema that only documents a multipart request: the handler reads and checks the parts. */
export const MULTIPART = 'x-docmill-multipart';

export function validatorCompiler({
  schema,
  httpPart,
}: {
  schema: Record<string, unknown>;
  httpPart?: string;
}): (data: unknown) => boolean {
  if (schema[MULTIPART]) return () => true;
  return (httpPart === 'body' ? bodyAjv : textAjv).compile(schema);
}

/** "body/targets/0/urls must NOT have fewer than 1 items" → "targets[0].urls: must NOT have fewer than 1 items". */
export function describeValidation(errors: ErrorObject[], context: string): string {
  const e = errors[0];
  if (!e) return 'invalid request';
  let where = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('')
    .replace(/^\./, '');
  if (e.keyword === 'required')
    where = where ? `${where}.${String(e.params['missingProperty'])}` : String(e.params['missingProperty']);
  if (e.keyword === 'additionalProperties') {
    const extra = String(e.params['additionalProperty']);
    return `${where ? `${where}.` : ''}${extra}: unknown member (no other members are allowed)`;
  }
  let message = e.message ?? 'is invalid';
  if (e.keyword === 'required') message = 'required';
  if (e.keyword === 'enum')
    message = `must be one of ${(e.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (e.keyword === 'pattern' && where.endsWith('url')) message = 'must be an http(s) URL';
  return `${where || context}: ${message}`;
}
