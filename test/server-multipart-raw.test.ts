/**
 * POST /v2/parse with the raw multipart bodies real clients send: curl's `-F 'options=...;type=application/json'`
 * (the specification's own request: the part typed application/json), the same with a charset, a browser's
 * untyped form field, and a text/plain part. Each must reach the parser with its options applied.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_A, makeServer } from './server-helpers.js';

type App = Awaited<ReturnType<typeof makeServer>>['app'];

const HTML = '<html><head><title>Note</title></head><body><h1>Results</h1><p>Revenue grew.</p></body></html>';
const BOUNDARY = '------------------------d74496d66958873e';

/** A body byte for byte as curl writes it: CRLF line ends, one header block per part. */
function rawBody(optionsHeaders: string[], optionsText: string): Buffer {
  const crlf = '\r\n';
  return Buffer.from(
    [
      `--${BOUNDARY}`,
      'Content-Disposition: form-data; name="file"; filename="note.html"',
      'Content-Type: text/html',
      '',
      HTML,
      `--${BOUNDARY}`,
      'Content-Disposition: form-data; name="options"',
      ...optionsHeaders,
      '',
      optionsText,
      `--${BOUNDARY}--`,
      '',
    ].join(crlf),
  );
}

let app: App;
beforeAll(async () => {
  ({ app } = await makeServer());
});
afterAll(async () => {
  await app.close();
});

async function post(payload: Buffer) {
  return app.inject({
    method: 'POST',
    url: '/v2/parse',
    headers: { ...AUTH_A, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload,
  });
}

describe('the options part as clients send it', () => {
  const options = JSON.stringify({ formats: ['html', 'markdown'], timeout: 60000 });
  it.each([
    ['typed application/json (curl ;type=application/json, the specification)', ['Content-Type: application/json']],
    ['typed application/json with a charset', ['Content-Type: application/json; charset=utf-8']],
    ['untyped (a browser form field)', []],
    ['typed text/plain', ['Content-Type: text/plain; charset=UTF-8']],
  ])('%s', async (_name, headers) => {
    const res = await post(rawBody(headers, options));
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['html', 'markdown', 'metadata']);
    expect(data.markdown).toContain('# Results');
  });

  it('options typed application/json that are not JSON: 400 BAD_REQUEST naming the options', async () => {
    const res = await post(rawBody(['Content-Type: application/json'], '{"timeout": '));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringMatching(/options/) });
  });

  it('options typed application/json are validated like text options', async () => {
    const res = await post(rawBody(['Content-Type: application/json'], '{"timeout": 999999}'));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/options\.timeout: must be at most 300000/);
  });
});
