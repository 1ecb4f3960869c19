/**
 * What a client generated from /v2/openapi.json, or one retrying after a 429, needs: the options part
 * described as ParseOptions, the response document's members, and Retry-After on every 429.
 */
import { describe, expect, it } from 'vitest';
import { normalizeOptions } from '../src/options/schema.js';
import { KeyLimiter, QueueFullError } from '../src/server/limiter.js';
import { AUTH_A, GatedParser, fileForm, makeServer, until } from './server-helpers.js';

describe('429 Retry-After', () => {
  it('a full queue answers 429 with a Retry-After of whole seconds', async () => {
    const parser = new GatedParser();
    const { app } = await makeServer({ concurrencyPerKey: 1, queueLength: 0 }, { parser });
    const form = await fileForm('<p>x</p>', 'a.html');
    const send = () =>
      app.inject({ method: 'POST', url: '/v2/parse', headers: { ...AUTH_A, ...form.headers }, payload: form.payload });
    const first = send();
    await until(() => parser.started === 1);
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    parser.finishOne();
    expect((await first).statusCode).toBe(200);
    await app.close();
  });

  it('Retry-After follows how long slots are held', async () => {
    const l = new KeyLimiter(1, 0);
    const held = l.acquire('k');
    await new Promise((r) => setTimeout(r, 1100));
    held.release();
    l.acquire('k');
    let refusal: unknown;
    try {
      l.acquire('k');
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(QueueFullError);
    // A slot was held for over a second: waiting one second would most likely be refused again.
    expect((refusal as QueueFullError).retryAfterSeconds).toBeGreaterThanOrEqual(2);
    expect((refusal as QueueFullError).retryAfterSeconds).toBeLessThanOrEqual(60);
  });
});

describe('/v2/openapi.json for generated clients', () => {
  it('describes the options part with the ParseOptions schema and data with its members', async () => {
    const { app } = await makeServer();
    const doc = (await app.inject({ method: 'GET', url: '/v2/openapi.json', headers: AUTH_A })).json();
    const parse = doc.paths['/v2/parse'].post;
    const options = parse.requestBody.content['multipart/form-data'].schema.properties.options;
    expect(options.type).toBe('object');
    expect(options.additionalProperties).toBe(false);
    expect(Object.keys(options.properties)).toEqual(
      expect.arrayContaining(['formats', 'timeout', 'parsers', 'redactPII', 'removeBase64Images', 'zeroDataRetention']),
    );
    expect(options.properties.timeout).toMatchObject({ type: 'integer', maximum: 300000 });
    expect(JSON.stringify(options.properties.proxy)).toContain('basic');

    const data = parse.responses['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(data.properties)).toEqual(
      expect.arrayContaining(['markdown', 'pages', 'blocks', 'html', 'links', 'images', 'metadata', 'warning']),
    );
    const block = data.properties.blocks.anyOf[0].items.properties.items.items;
    expect(Object.keys(block.properties)).toEqual(
      expect.arrayContaining(['id', 'type', 'bbox', 'content', 'markdownSpan', 'readingOrder', 'confidence']),
    );
    expect(Object.keys(data.properties.metadata.properties)).toEqual(
      expect.arrayContaining(['title', 'numPages', 'totalPages', 'contentType', 'error']),
    );
    await app.close();
  });

  it('the documented options schema accepts what the validator accepts', async () => {
    const { app } = await makeServer();
    const doc = (await app.inject({ method: 'GET', url: '/v2/openapi.json', headers: AUTH_A })).json();
    const props = doc.paths['/v2/parse'].post.requestBody.content['multipart/form-data'].schema.properties.options
      .properties as Record<string, unknown>;
    // Every documented member is one normalizeOptions knows (it refuses unknown members).
    for (const key of Object.keys(props)) {
      expect(() => normalizeOptions({ [key]: undefined }), key).not.toThrow();
    }
    await app.close();
  });
});
