/**
 * The `json` format without a language model: values for the schema's top-level properties are taken
 * from "label: value" lines and two-column table rows whose label matches the property name. What cannot
 * be found is left out, and the warning says so; nothing is made up.
 */
export interface JsonExtraction {
  json: Record<string, unknown> | null;
  warning?: string;
}

const norm = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

function pairs(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  const add = (k: string, v: string): void => {
    const key = norm(k.replace(/[*_`]/g, ''));
    const value = v.replace(/[*_`]/g, '').trim();
    if (key && value && !out.has(key)) out.set(key, value);
  };
  for (const line of markdown.split('\n')) {
    const row = /^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*$/.exec(line);
    if (row) add(row[1]!, row[2]!);
    const kv = /^[-*]?\s*([^:|]{1,60}):\s+(.+)$/.exec(line.trim());
    if (kv) add(kv[1]!, kv[2]!);
  }
  return out;
}

function coerce(value: string, type: unknown): unknown {
  if (type === 'number' || type === 'integer') {
    const n = Number(value.replace(/[^0-9.eE+-]/g, ''));
    return Number.isFinite(n) ? (type === 'integer' ? Math.trunc(n) : n) : undefined;
  }
  if (type === 'boolean')
    return /^(yes|true|y|1)$/i.test(value) ? true : /^(no|false|n|0)$/i.test(value) ? false : undefined;
  return value;
}

export function extractJson(markdown: string, schema: Record<string, unknown> | undefined): JsonExtraction {
  const properties = schema?.['properties'];
  if (!properties || typeof properties !== 'object') {
    return {
      json: null,
      warning: 'json format: structured extraction needs a schema with properties; no language model runs locally.',
    };
  }
  const found = pairs(markdown);
  const json: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [name, def] of Object.entries(properties as Record<string, { type?: unknown }>)) {
    const raw = found.get(norm(name));
    const value = raw === undefined ? undefined : coerce(raw, def?.type);
    if (value === undefined) missing.push(name);
    else json[name] = value;
  }
  return missing.length
    ? { json, warning: `json format: no value found in the document for ${missing.map((m) => `"${m}"`).join(', ')}.` }
    : { json };
}
