import type { CheckError } from '../check-result';
import { HttpFacts, HttpRules, judgeHttpResponse, rulesNeedBody } from './http-response';

const rules = (over: Partial<HttpRules> = {}): HttpRules => ({
  expect_status: '200-399',
  expect_header: null,
  body_contains: null,
  body_not_contains: null,
  json: [],
  max_ms: null,
  ...over,
});

const facts = (over: Partial<HttpFacts> = {}): HttpFacts => ({
  status: 200,
  headers: { 'content-type': 'application/json', 'set-cookie': ['sid=abc123'] },
  body: Buffer.from('{"status":"ok","n":3}'),
  truncated: false,
  latency_ms: 120,
  ...over,
});

describe('judgeHttpResponse', () => {
  it.each<[string, Partial<HttpRules>, Partial<HttpFacts>]>([
    ['a status in the default range', {}, { status: 301 }],
    ['a status listed singly', { expect_status: '200-299, 503' }, { status: 503 }],
    ['a header that contains the text', { expect_header: { name: 'Content-Type', contains: 'json' } }, {}],
    ['a body that contains the text', { body_contains: '"ok"' }, {}],
    ['a body without the forbidden text', { body_not_contains: 'error' }, {}],
    [
      'json rules that all hold',
      {
        json: [
          { path: '$.status', op: '==', value: 'ok' },
          { path: '$.n', op: '>', value: 2 },
        ],
      },
      {},
    ],
    ['a latency equal to max_ms', { max_ms: 120 }, {}],
  ])('passes %s', (_name, r, f) => {
    expect(judgeHttpResponse(rules(r), facts(f))).toBeNull();
  });

  it.each<[string, Partial<HttpRules>, Partial<HttpFacts>, CheckError]>([
    [
      'a status outside the range',
      {},
      { status: 503 },
      { code: 'status', message: 'expected status 200-399, got 503' },
    ],
    [
      'a status with spaces in the rule',
      { expect_status: '200 - 299, 401' },
      { status: 500 },
      { code: 'status', message: 'expected status 200-299,401, got 500' },
    ],
    [
      'an expect_status that does not parse',
      { expect_status: '2xx' },
      {},
      {
        code: 'status',
        message:
          'expect_status is not valid: "2xx" is not a status code or range; use codes and ranges like 200-299,401',
      },
    ],
    [
      'a missing header',
      { expect_header: { name: 'X-Version', contains: '1' } },
      {},
      { code: 'header', message: 'header x-version is missing' },
    ],
    [
      'a header without the text',
      { expect_header: { name: 'content-type', contains: 'xml' } },
      {},
      { code: 'header', message: 'header content-type: expected to contain "xml", got "application/json"' },
    ],
    [
      'a credential header, without quoting it',
      { expect_header: { name: 'Set-Cookie', contains: 'theme' } },
      {},
      { code: 'header', message: 'header set-cookie: expected to contain "theme"' },
    ],
    [
      'a body without the text',
      { body_contains: 'healthy' },
      {},
      { code: 'body', message: 'body does not contain "healthy"' },
    ],
    [
      'a truncated body without the text',
      { body_contains: 'healthy' },
      { truncated: true },
      { code: 'body', message: 'the first 1 MB of the body does not contain "healthy"' },
    ],
    [
      'a body with forbidden text',
      { body_not_contains: 'status' },
      {},
      { code: 'body', message: 'body contains "status"' },
    ],
    [
      'a json rule that does not hold',
      { json: [{ path: '$.status', op: '==', value: 'degraded' }] },
      {},
      { code: 'json', message: '$.status: expected == "degraded", got "ok"' },
    ],
    [
      'the first failing json rule',
      {
        json: [
          { path: '$.n', op: '>', value: 5 },
          { path: '$.x', op: 'exists' },
        ],
      },
      {},
      { code: 'json', message: '$.n: expected > 5, got 3' },
    ],
    [
      'a body that is not JSON',
      { json: [{ path: '$', op: 'exists' }] },
      { body: Buffer.from('<html>') },
      { code: 'json', message: 'body is not JSON (it starts with "<html>")' },
    ],
    [
      'an empty body under json rules',
      { json: [{ path: '$', op: 'exists' }] },
      { body: Buffer.alloc(0) },
      { code: 'json', message: 'body is empty, not JSON' },
    ],
    [
      'a body over 1 MB under json rules',
      { json: [{ path: '$', op: 'exists' }] },
      { truncated: true },
      { code: 'json', message: 'body is larger than 1 MB, so it cannot be read as JSON' },
    ],
    [
      'a check slower than max_ms',
      { max_ms: 100 },
      { latency_ms: 100.4 },
      { code: 'too_slow', message: 'took 100 ms, more than max_ms 100' },
    ],
    [
      'status before body before max_ms',
      { body_contains: 'nope', max_ms: 1 },
      { status: 500 },
      { code: 'status', message: 'expected status 200-399, got 500' },
    ],
  ])('fails %s', (_name, r, f, error) => {
    expect(judgeHttpResponse(rules(r), facts(f))).toEqual(error);
  });

  it('reads a JSON body that starts with a byte order mark', () => {
    const body = Buffer.from('\uFEFF{"a":1}');
    expect(judgeHttpResponse(rules({ json: [{ path: '$.a', op: '==', value: 1 }] }), facts({ body }))).toBeNull();
  });
});

describe('rulesNeedBody', () => {
  it.each<[Partial<HttpRules>, boolean]>([
    [{}, false],
    [{ expect_header: { name: 'a', contains: 'b' }, max_ms: 5 }, false],
    [{ body_contains: '' }, true],
    [{ body_not_contains: 'x' }, true],
    [{ json: [{ path: '$', op: 'exists' }] }, true],
  ])('%j needs the body: %s', (r, expected) => {
    expect(rulesNeedBody(rules(r))).toBe(expected);
  });
});
