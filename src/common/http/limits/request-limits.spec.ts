import { clientErrorAnswer } from './request-limits';

const packet = (text: string) => Buffer.from(text, 'latin1');

describe('clientErrorAnswer', () => {
  it.each<[string, string | undefined, Buffer | undefined, { status: number; message: string } | null]>([
    [
      'headers past 16 KB',
      'HPE_HEADER_OVERFLOW',
      packet(`GET /x HTTP/1.1\r\nX-Pad: ${'a'.repeat(17000)}`),
      { status: 431, message: 'the request headers are larger than 16 KB' },
    ],
    [
      'a request line past 16 KB',
      'HPE_HEADER_OVERFLOW',
      packet(`GET /${'a'.repeat(17000)}`),
      { status: 414, message: 'the URL is longer than 8 KB' },
    ],
    [
      'a request line of 9 KB ending before long headers',
      'HPE_HEADER_OVERFLOW',
      packet(`POST /${'a'.repeat(9000)} HTTP/1.1\r\nX: ${'b'.repeat(8000)}`),
      { status: 414, message: 'the URL is longer than 8 KB' },
    ],
    [
      'an overflow seen in a later packet (no request line)',
      'HPE_HEADER_OVERFLOW',
      packet(`${'a'.repeat(9000)}\r\n`),
      { status: 431, message: 'the request headers are larger than 16 KB' },
    ],
    [
      'an overflow without a packet',
      'HPE_HEADER_OVERFLOW',
      undefined,
      { status: 431, message: 'the request headers are larger than 16 KB' },
    ],
    [
      'a bad method',
      'HPE_INVALID_METHOD',
      packet('FOO\u0001 / HTTP/1.1\r\n'),
      { status: 400, message: 'malformed HTTP request' },
    ],
    ['a header with a bare LF', 'HPE_LF_EXPECTED', undefined, { status: 400, message: 'malformed HTTP request' }],
    [
      'too large chunk extensions',
      'HPE_CHUNK_EXTENSIONS_OVERFLOW',
      undefined,
      { status: 413, message: 'the chunk extensions of the body are too large' },
    ],
    [
      "a body cut short by the sender's end of the connection",
      'HPE_INVALID_EOF_STATE',
      undefined,
      { status: 400, message: 'the request ended before its body was complete' },
    ],
    [
      'a request that took too long',
      'ERR_HTTP_REQUEST_TIMEOUT',
      undefined,
      { status: 408, message: 'the request took too long to arrive' },
    ],
    ['a reset connection', 'ECONNRESET', undefined, null],
    ['a broken pipe', 'EPIPE', undefined, null],
  ])('answers %s', (_label, code, raw, expected) => {
    expect(clientErrorAnswer(code, raw)).toEqual(expected);
  });
});
