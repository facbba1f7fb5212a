/**
 * A connection for the kinds that speak a service's protocol on our own socket (redis): TCP, or
 * TLS judged as the tls kind judges it (`verify`: chain, expiry and name; `require`: encrypted,
 * any certificate), with the phases of checkers/, and the reading of framed replies bounded in
 * size. The deadline of the check releases the socket (checkers/deadline.ts).
 */
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { CertInfo, CheckPhases } from '../check-result';
import type { CheckContext, DbTlsMode } from '../kinds';
import { clip } from '../judge/clip';
import { certInfo, judgePeer, skipNodeIdentityCheck, trustOptions } from '../checkers/cert';
import { checkAddress, guardedLookup } from '../checkers/connect-address';
import { Deadline, lapTimer } from '../checkers/deadline';
import type { CheckerEnv } from '../checkers/env';
import { hostPort } from '../checkers/net-errors';
import { CheckFailure, failure } from '../checkers/result-builders';

export interface SocketTrace {
  phases: CheckPhases;
  cert: CertInfo | null;
  /** The step the deadline found running, in words ("connecting", "the TLS handshake", "the PING answer"). */
  stage: string;
}

// What a TLS client meets when the server speaks plain text on the port: its first bytes are no TLS record.
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST']);

export async function openServiceSocket(
  target: { host: string; port: number; tls: DbTlsMode },
  ctx: CheckContext,
  env: CheckerEnv,
  deadline: Deadline,
  trace: SocketTrace,
): Promise<net.Socket> {
  if (net.isIP(target.host)) {
    const problem = checkAddress(target.host, 'auto', ctx.allow_private_targets);
    if (problem) throw new CheckFailure(problem);
  }
  const where = hostPort(target.host, target.port);
  const lap = lapTimer();
  const lookup = guardedLookup('auto', ctx.allow_private_targets);
  const secure = target.tls !== 'off';
  const socket = secure
    ? tls.connect({
        host: target.host,
        port: target.port,
        lookup,
        servername: net.isIP(target.host) ? '' : target.host,
        rejectUnauthorized: false,
        checkServerIdentity: skipNodeIdentityCheck,
        ...trustOptions(env),
      })
    : net.connect({ host: target.host, port: target.port, lookup });
  deadline.onExpire(() => socket.destroy());
  socket.once('lookup', () => {
    trace.phases.dns_ms = lap();
  });
  trace.stage = 'connecting';
  await new Promise<void>((resolve, reject) => {
    socket.once('error', (err: Error & { code?: string }) => {
      if (trace.stage === 'the TLS handshake' && (NOT_TLS.has(err.code ?? '') || err.code === 'ECONNRESET'))
        reject(
          new CheckFailure(failure('tls_required', `TLS was asked for, and ${where} does not speak TLS on that port`)),
        );
      else reject(err);
    });
    socket.once('connect', () => {
      trace.phases.connect_ms = lap();
      if (!secure) return resolve();
      trace.stage = 'the TLS handshake';
    });
    socket.once('secureConnect', () => {
      trace.phases.tls_ms = lap();
      const s = socket as tls.TLSSocket;
      trace.cert = certInfo(s.getPeerCertificate());
      const problem = target.tls === 'verify' ? judgePeer(s, target.host, trace.cert, null, true) : null;
      if (problem) reject(new CheckFailure(problem));
      else resolve();
    });
  });
  return socket;
}

/**
 * The next framed reply: `take` reads one from the text received so far (latin1, one character a
 * byte) and returns it with the rest, `{garbage}` for bytes that are not the protocol, or null
 * while incomplete. Rejects past `maxBytes`, on garbage and on a closed connection.
 */
export function readFramed<R>(
  socket: net.Socket,
  buffer: { text: string },
  take: (text: string) => { reply: R; rest: string } | { garbage: string } | null,
  maxBytes: number,
  where: string,
  protocol: string,
): Promise<R> {
  return new Promise((resolve, reject) => {
    const settle = (fn: () => void) => {
      socket.off('data', onData);
      socket.off('end', onClose);
      socket.off('close', onClose);
      socket.off('error', onError);
      fn();
    };
    const attempt = () => {
      const got = take(buffer.text);
      if (got === null) {
        if (buffer.text.length > maxBytes)
          settle(() =>
            reject(new CheckFailure(failure('protocol', `${where} sent a reply longer than ${maxBytes / 1024} KB`))),
          );
        return;
      }
      if ('garbage' in got) {
        const said = clip(got.garbage.replace(/[^\x20-\x7e]/g, '?'));
        return settle(() =>
          reject(new CheckFailure(failure('protocol', `${where} does not speak ${protocol}: "${said}"`))),
        );
      }
      buffer.text = got.rest;
      settle(() => resolve(got.reply));
    };
    const onData = (chunk: Buffer) => {
      buffer.text += chunk.toString('latin1');
      attempt();
    };
    // A TLS port closes on the plain text it cannot read: the likeliest reason for a close before any byte.
    const tlsHint =
      buffer.text === '' && !(socket instanceof tls.TLSSocket)
        ? ' (if that port wants TLS, set tls to require or verify)'
        : '';
    const onClose = () =>
      settle(() =>
        reject(new CheckFailure(failure('reset', `connection closed by ${where} before a reply${tlsHint}`))),
      );
    const onError = (err: Error & { code?: string }) =>
      err.code === 'ECONNRESET' && tlsHint ? onClose() : settle(() => reject(err));
    socket.on('data', onData);
    socket.once('end', onClose);
    socket.once('close', onClose);
    socket.once('error', onError);
    attempt();
  });
}
