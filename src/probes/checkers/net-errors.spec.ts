import type { CheckError } from '../check-result';
import { describeSocketError, hostPort } from './net-errors';
import { CheckFailure } from './result-builders';

const socketError = (message: string, props: Record<string, unknown>): Error =>
  Object.assign(new Error(message), props);

describe('describeSocketError', () => {
  it.each<[string, unknown, CheckError]>([
    [
      'a refusal, naming the address',
      socketError('connect ECONNREFUSED', { code: 'ECONNREFUSED', address: '10.0.0.5', port: 4431 }),
      { code: 'refused', message: 'connection refused by 10.0.0.5:4431' },
    ],
    [
      'a reset',
      socketError('read ECONNRESET', { code: 'ECONNRESET' }),
      { code: 'reset', message: 'connection reset by web:80' },
    ],
    [
      'a broken pipe',
      socketError('write EPIPE', { code: 'EPIPE' }),
      { code: 'reset', message: 'connection closed by web:80' },
    ],
    [
      'an unreachable network',
      socketError('x', { code: 'ENETUNREACH', address: '2001:db8::1', port: 443 }),
      { code: 'unreachable', message: 'network unreachable for [2001:db8::1]:443' },
    ],
    [
      'an unreachable host',
      socketError('x', { code: 'EHOSTUNREACH', address: '10.0.0.9', port: 22 }),
      { code: 'unreachable', message: 'host unreachable: 10.0.0.9:22' },
    ],
    [
      'a kernel connect timeout',
      socketError('x', { code: 'ETIMEDOUT' }),
      { code: 'timeout', message: 'connection timed out to web:80' },
    ],
    [
      'a failed lookup',
      socketError('getaddrinfo ENOTFOUND', { code: 'ENOTFOUND', hostname: 'web.example' }),
      { code: 'dns', message: 'cannot resolve web.example (ENOTFOUND)' },
    ],
    [
      'a hang-up before the response',
      socketError('socket hang up', { code: 'ECONNRESET' }),
      { code: 'reset', message: 'connection closed by web:80 before a response' },
    ],
    [
      'a close in the middle of the body',
      socketError('aborted', { code: 'ECONNRESET' }),
      { code: 'reset', message: 'connection closed by web:80 in the middle of the response' },
    ],
    [
      'an HTTP parse error',
      socketError('Parse Error', { code: 'HPE_INVALID_CONSTANT' }),
      { code: 'protocol', message: 'web:80 did not answer with valid HTTP (HPE_INVALID_CONSTANT)' },
    ],
    [
      'a TLS protocol error',
      socketError('x', { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }),
      { code: 'tls', message: 'TLS handshake with web:80 failed (ERR_SSL_WRONG_VERSION_NUMBER)' },
    ],
    [
      'an expired certificate',
      socketError('x', { code: 'CERT_HAS_EXPIRED' }),
      { code: 'cert_expired', message: 'certificate has expired' },
    ],
    [
      'a self-signed certificate',
      socketError('x', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      { code: 'cert_invalid', message: 'certificate is self-signed' },
    ],
    [
      'an unknown certificate problem',
      socketError('x', { code: 'CERT_CHAIN_TOO_LONG' }),
      { code: 'cert_invalid', message: 'certificate is not valid (CERT_CHAIN_TOO_LONG)' },
    ],
    [
      'anything else',
      socketError('x', { code: 'EMFILE' }),
      { code: 'connect', message: 'connection to web:80 failed: EMFILE' },
    ],
    ['a value that is not an error', 'boom', { code: 'connect', message: 'connection to web:80 failed' }],
    [
      'a failure already judged',
      new CheckFailure({ code: 'private_target', message: 'no' }),
      { code: 'private_target', message: 'no' },
    ],
  ])('maps %s', (_name, err, expected) => {
    expect(describeSocketError(err, 'web:80')).toEqual(expected);
  });
});

describe('hostPort', () => {
  it.each<[string, number | undefined, string]>([
    ['127.0.0.1', 80, '127.0.0.1:80'],
    ['::1', 53, '[::1]:53'],
    ['example.com', undefined, 'example.com'],
  ])('writes %s and %p as %s', (host, port, text) => {
    expect(hostPort(host, port)).toBe(text);
  });
});
