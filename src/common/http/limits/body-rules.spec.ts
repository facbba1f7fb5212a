import { ApiError } from '../api-error';
import {
  BodyHeaders,
  ENCODING_NOT_ACCEPTED,
  formatBytes,
  MB,
  NOT_JSON,
  NOT_JSON_TYPE,
  parseJsonBody,
  planBody,
} from './body-rules';

const JSON_TYPE = 'application/json';
const answerOf = (r: unknown) => (r instanceof ApiError ? { status: r.status, ...r.toBody().error } : r);

describe('planBody', () => {
  it.each<[string, BodyHeaders, unknown]>([
    ['plain JSON', { 'content-type': JSON_TYPE, 'content-length': '10' }, { encoding: 'identity', limit: MB }],
    ['a +json type, any case', { 'content-type': 'Application/Problem+JSON' }, { encoding: 'identity', limit: MB }],
    [
      'UTF-8 named in any spelling',
      { 'content-type': 'application/json; charset="UTF-8"' },
      { encoding: 'identity', limit: MB },
    ],
    ['utf8', { 'content-type': 'application/json;charset=utf8' }, { encoding: 'identity', limit: MB }],
    ['gzip', { 'content-type': JSON_TYPE, 'content-encoding': 'gzip' }, { encoding: 'gzip', limit: MB }],
    [
      'DEFLATE, spaced',
      { 'content-type': JSON_TYPE, 'content-encoding': ' DEFLATE ' },
      { encoding: 'deflate', limit: MB },
    ],
    ['br', { 'content-type': JSON_TYPE, 'content-encoding': 'br' }, { encoding: 'br', limit: MB }],
    [
      'identity said out loud',
      { 'content-type': JSON_TYPE, 'content-encoding': 'identity' },
      { encoding: 'identity', limit: MB },
    ],
    [
      'exactly the limit',
      { 'content-type': JSON_TYPE, 'content-length': String(MB) },
      { encoding: 'identity', limit: MB },
    ],
    ['no Content-Type', {}, { status: 400, code: 'bad_request', message: NOT_JSON_TYPE }],
    ['text', { 'content-type': 'text/plain' }, { status: 400, code: 'bad_request', message: NOT_JSON_TYPE }],
    [
      'a form',
      { 'content-type': 'application/x-www-form-urlencoded' },
      { status: 400, code: 'bad_request', message: NOT_JSON_TYPE },
    ],
    [
      'latin1',
      { 'content-type': 'application/json; charset=latin1' },
      { status: 400, code: 'bad_request', message: 'send the body in UTF-8 (charset "latin1" is not read)' },
    ],
    [
      'UTF-16',
      { 'content-type': 'application/json; charset=utf-16le' },
      { status: 400, code: 'bad_request', message: 'send the body in UTF-8 (charset "utf-16le" is not read)' },
    ],
    [
      'a long charset is cut',
      { 'content-type': `application/json; charset=${'x'.repeat(100)}` },
      { status: 400, code: 'bad_request', message: `send the body in UTF-8 (charset "${'x'.repeat(40)}" is not read)` },
    ],
    [
      'compress',
      { 'content-type': JSON_TYPE, 'content-encoding': 'compress' },
      { status: 415, code: 'bad_request', message: ENCODING_NOT_ACCEPTED },
    ],
    [
      'x-gzip',
      { 'content-type': JSON_TYPE, 'content-encoding': 'x-gzip' },
      { status: 415, code: 'bad_request', message: ENCODING_NOT_ACCEPTED },
    ],
    [
      'zstd (not on every Node)',
      { 'content-type': JSON_TYPE, 'content-encoding': 'zstd' },
      { status: 415, code: 'bad_request', message: ENCODING_NOT_ACCEPTED },
    ],
    [
      'two encodings stacked',
      { 'content-type': JSON_TYPE, 'content-encoding': 'gzip, br' },
      { status: 415, code: 'bad_request', message: ENCODING_NOT_ACCEPTED },
    ],
    [
      'a length past the limit',
      { 'content-type': JSON_TYPE, 'content-length': String(MB + 1) },
      { status: 400, code: 'bad_request', message: 'the request body is larger than 1 MB' },
    ],
    [
      'a compressed length past the limit',
      { 'content-type': JSON_TYPE, 'content-encoding': 'gzip', 'content-length': String(50 * MB) },
      { status: 400, code: 'bad_request', message: 'the request body is larger than 1 MB' },
    ],
  ])('%s', (_, headers, want) => {
    expect(answerOf(planBody(headers, MB))).toEqual(want);
  });

  it('names the accepted encodings', () =>
    expect(ENCODING_NOT_ACCEPTED).toBe(
      "the request body's Content-Encoding is not accepted: send it uncompressed, or as gzip, deflate or br",
    ));
});

describe('parseJsonBody', () => {
  it.each<[string, string, unknown]>([
    ['an object', '{"a": 1}', { a: 1 }],
    ['null (the route answers 422 on body)', 'null', null],
    ['a number', '42', 42],
    ['an empty body', '', {}],
    ['unicode', '{"name": "Ünïcødé ✓"}', { name: 'Ünïcødé ✓' }],
  ])('reads %s', (_, text, want) => expect(parseJsonBody(Buffer.from(text))).toEqual(want));

  it.each<[string, string, string]>([
    ['broken JSON', '{"a": ', NOT_JSON],
    ['a BOM', '\ufeff{}', NOT_JSON],
    ['__proto__', '{"__proto__": {"admin": true}}', 'the request body uses a reserved key: __proto__'],
    [
      'a nested constructor',
      '{"a": {"constructor": {"prototype": 1}}}',
      'the request body uses a reserved key: prototype',
    ],
  ])('refuses %s with 400', (_, text, message) => {
    let thrown: unknown;
    try {
      parseJsonBody(Buffer.from(text));
    } catch (err) {
      thrown = err;
    }
    expect(answerOf(thrown)).toEqual({ status: 400, code: 'bad_request', message });
  });
});

describe('formatBytes', () => {
  it.each([
    [MB, '1 MB'],
    [10 * MB, '10 MB'],
    [65536, '64 KB'],
    [1572864, '1536 KB'],
    [1000, '1000 bytes'],
  ])('%i is %s', (n, text) => expect(formatBytes(n)).toBe(text));
});
