/**
 * One HTTP request and response on a fresh connection (agent: false, so no socket outlives the
 * check). Phases are consecutive laps taken from socket events: dns (lookup), connect, tls
 * (handshake), ttfb (connection ready to first response byte); body download is the rest.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, LookupFunction, Socket } from 'node:net';
import type { SecureContext, TLSSocket } from 'node:tls';
import type { CertInfo, CheckPhases } from '../check-result';
import { certInfo, judgePeer, skipNodeIdentityCheck } from './cert';
import { Deadline, lapTimer } from './deadline';
import { CheckFailure, failure } from './result-builders';

export const BODY_LIMIT = 1024 * 1024;

export type Stage = 'resolving' | 'connecting' | 'tls' | 'waiting' | 'reading';

/** What a hop has learnt so far. Mutable and shared, because the deadline handler reports it. */
export interface HopTrace {
  phases: CheckPhases;
  /** The first certificate seen during the check. */
  cert: CertInfo | null;
  status: number | null;
  stage: Stage;
}

export interface HopTarget {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  /** Where to connect: the URL's host or resolve_to. */
  connectHost: string;
  /** The name the certificate must match (the URL's host); sent as SNI unless it is an IP. */
  identity: string;
  lookup: LookupFunction;
  tlsVerify: boolean;
  /** `cert_sha256` on the monitored URL's origin (a redirect elsewhere is verified as tls_verify says). */
  pin: string | null;
  trust: { secureContext?: SecureContext };
  /** A unix socket to speak HTTP on instead of connectHost (the docker kind's local Engine API). */
  socketPath?: string;
}

export interface BodyPrefix {
  /** The first BODY_LIMIT bytes when asked to keep them, else null. */
  body: Buffer | null;
  truncated: boolean;
}

export interface HopResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Reads at most BODY_LIMIT bytes, then drops the connection; never buffers more. */
  readBody(keep: boolean): Promise<BodyPrefix>;
  /** Drops the connection without reading the body (a redirect that is followed). */
  discard(): void;
}

/** Resolves at the response headers; rejects with the socket's error or a CheckFailure. */
export function startHop(target: HopTarget, trace: HopTrace, deadline: Deadline): Promise<HopResponse> {
  return new Promise((resolve, reject) => {
    const secure = target.url.protocol === 'https:';
    trace.stage = isIP(target.connectHost) ? 'connecting' : 'resolving';
    const options: https.RequestOptions = {
      host: target.connectHost,
      port: target.url.port || (secure ? 443 : 80),
      path: `${target.url.pathname}${target.url.search}`,
      method: target.method,
      headers: target.headers,
      agent: false,
      lookup: target.lookup,
      ...(target.socketPath === undefined ? {} : { socketPath: target.socketPath }),
    };
    if (secure) {
      Object.assign(options, target.trust, {
        servername: isIP(target.identity) ? '' : target.identity,
        rejectUnauthorized: false,
        checkServerIdentity: skipNodeIdentityCheck,
      });
    }
    let req: http.ClientRequest;
    try {
      req = (secure ? https : http).request(options);
    } catch (err) {
      // Node validates header names and values here; its message names the header, not the value.
      reject(new CheckFailure(failure('protocol', `request not sent: ${(err as Error).message}`)));
      return;
    }
    req.on('error', reject);
    // What the deadline does to a request: it goes, with whatever it has opened.
    deadline.onExpire(() => req.destroy(new Error('the check reached its deadline')));
    req.on('socket', (socket) => watchSocket(socket, secure, target, trace));
    req.on('response', (res) => {
      trace.stage = 'reading';
      trace.status = res.statusCode ?? null;
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        readBody: (keep) => readBody(req, res, keep),
        discard: () => req.destroy(),
      });
    });
    req.end(target.body ?? undefined);
  });
}

function watchSocket(socket: Socket, secure: boolean, target: HopTarget, trace: HopTrace): void {
  const lap = lapTimer();
  socket.once('lookup', () => {
    trace.phases.dns_ms = lap();
    trace.stage = 'connecting';
  });
  socket.once('connect', () => {
    trace.phases.connect_ms = lap();
    trace.stage = secure ? 'tls' : 'waiting';
  });
  socket.once('data', () => {
    trace.phases.ttfb_ms = lap();
  });
  if (!secure) return;
  socket.once('secureConnect', () => {
    trace.phases.tls_ms = lap();
    trace.stage = 'waiting';
    const tlsSocket = socket as TLSSocket;
    const cert = certInfo(tlsSocket.getPeerCertificate());
    trace.cert ??= cert;
    // Runs before the request is flushed, so nothing is sent to a server that fails verification.
    const problem = judgePeer(tlsSocket, target.identity, cert, target.pin, target.tlsVerify);
    if (problem) socket.destroy(new CheckFailure(problem));
  });
}

function readBody(req: http.ClientRequest, res: http.IncomingMessage, keep: boolean): Promise<BodyPrefix> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      if (keep && size < BODY_LIMIT) chunks.push(chunk.subarray(0, BODY_LIMIT - size));
      size += chunk.length;
      if (size > BODY_LIMIT) resolve(bodyRead(req, keep, chunks, true));
    });
    res.on('end', () => resolve(bodyRead(req, keep, chunks, false)));
    res.on('error', reject);
    res.on('close', () => {
      if (!res.complete)
        reject(new CheckFailure(failure('reset', 'connection closed in the middle of the response body')));
    });
  });
}

/** The body is read (or past the limit): the connection goes, and what was kept is the answer. */
function bodyRead(req: http.ClientRequest, keep: boolean, chunks: Buffer[], truncated: boolean): BodyPrefix {
  req.destroy();
  return { body: keep ? Buffer.concat(chunks) : null, truncated };
}
