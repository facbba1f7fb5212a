/**
 * Turns what Node's sockets report into a documented error code and a message a person can act
 * on. Messages name the address and port, never URLs, header values or credentials.
 */
import type { CheckError, CheckErrorCode } from '../check-result';
import { certFailure } from './cert';
import { CheckFailure, failure } from './result-builders';

type SocketError = Error & { code?: string; address?: string; port?: number; hostname?: string };

const BY_ERRNO: Record<string, [CheckErrorCode, string]> = {
  ECONNREFUSED: ['refused', 'connection refused by'],
  ECONNRESET: ['reset', 'connection reset by'],
  EPIPE: ['reset', 'connection closed by'],
  ENETUNREACH: ['unreachable', 'network unreachable for'],
  EHOSTUNREACH: ['unreachable', 'host unreachable:'],
  ENETDOWN: ['unreachable', 'network down for'],
  EHOSTDOWN: ['unreachable', 'host down:'],
  ETIMEDOUT: ['timeout', 'connection timed out to'],
  EADDRNOTAVAIL: ['connect', 'cannot connect from a local address to'],
};

// Our own lookup reports its failures already judged; these come from a lookup Node made itself.
const DNS_ERRNO = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'ENODATA']);

/** `target` is what we meant to reach (host:port); the error's own address wins when it has one. */
export function describeSocketError(err: unknown, target: string): CheckError {
  if (err instanceof CheckFailure) return err.failure;
  // Duck-typed: errors from Node's core may come from another realm (jest's vm), failing instanceof.
  if (typeof err !== 'object' || err === null || !('message' in err)) {
    return failure('connect', `connection to ${target} failed`);
  }
  const e = err as SocketError;
  const code = e.code ?? '';
  const where = e.address ? hostPort(e.address, e.port) : target;
  // Node's http client reports an early close as ECONNRESET with these messages; they say more.
  if (e.message === 'socket hang up') return failure('reset', `connection closed by ${target} before a response`);
  if (e.message === 'aborted') return failure('reset', `connection closed by ${target} in the middle of the response`);
  const known = BY_ERRNO[code];
  if (known) return failure(known[0], `${known[1]} ${where}`);
  if (DNS_ERRNO.has(code)) return failure('dns', `cannot resolve ${e.hostname ?? target} (${code})`);
  if (code.startsWith('HPE_')) return failure('protocol', `${target} did not answer with valid HTTP (${code})`);
  const cert = certFailure(code, null);
  if (cert) return cert;
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code === 'EPROTO') {
    return failure('tls', `TLS handshake with ${target} failed (${code})`);
  }
  return failure('connect', `connection to ${target} failed: ${code || e.message}`);
}

/** `host:port`, with IPv6 addresses in brackets. */
export function hostPort(host: string, port: number | undefined): string {
  const shown = host.includes(':') ? `[${host}]` : host;
  return port === undefined ? shown : `${shown}:${port}`;
}
