/**
 * grpc checks through `@grpc/grpc-js` (loaded only when a grpc monitor is first checked): the
 * standard health service's Check (grpc.health.v1.Health, defined in code: grpc-health.ts) for
 * `service`, with the monitor's metadata, over TLS as `tls` says. Up on SERVING. The name is
 * resolved by our guarded lookup and the channel connects to that address (the private-target rule
 * and DNS rebinding apply as for every kind), naming the server by its host for TLS and
 * :authority. One channel per check, closed at the end or at the deadline; no retries, no proxy,
 * at most 64 KB of answer. Phases: dns, connect (to the channel ready: TCP, TLS and HTTP/2's
 * settings), ttfb (ready to the answer).
 */
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { ChannelCredentials, Client, ServiceError } from '@grpc/grpc-js';
import type { CheckError, CheckResult } from '../check-result';
import type { CheckContext, GrpcSettings } from '../kinds';
import { clip } from '../judge/clip';
import { describeCertValidity } from '../judge/cert-validity';
import { certInfo } from '../checkers/cert';
import { Deadline, lapTimer, msSince, withDeadline } from '../checkers/deadline';
import type { CheckerEnv } from '../checkers/env';
import { describeSocketError, hostPort } from '../checkers/net-errors';
import { emptyPhases, failure, judged } from '../checkers/result-builders';
import {
  decodeHealthResponse,
  encodeHealthRequest,
  HEALTH_CHECK_PATH,
  judgeCallStatus,
  judgeServing,
  parseGrpcTarget,
  SERVING_STATUS,
} from './grpc-health';
import { newTrace, resolveHost, SqlTrace } from './sql-check';

type Grpc = typeof import('@grpc/grpc-js');
let grpc: Grpc | undefined;

/** Loaded at the first check of a grpc monitor: a service without one never loads it (docs/checks.md). */
function loadGrpc(): Grpc {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose: only when a grpc monitor exists
  grpc ??= require('@grpc/grpc-js') as Grpc;
  return grpc;
}

export const GRPC_MAX_BYTES = 64 * 1024;

export async function checkGrpc(settings: GrpcSettings, ctx: CheckContext, env: CheckerEnv): Promise<CheckResult> {
  const atMs = env.clock.now();
  const start = performance.now();
  const trace = newTrace(emptyPhases());
  const target = parseGrpcTarget(settings.target);
  const where = typeof target === 'string' ? 'grpc' : hostPort(target.host, target.port);
  const facts = (detail: string | null = null) => {
    const cert = trace.cert ? describeCertValidity(trace.cert, atMs) : null;
    return {
      latency_ms: msSince(start),
      phases: trace.phases,
      cert: trace.cert,
      detail: [detail, cert].filter(Boolean).join('; ') || null,
    };
  };
  if (typeof target === 'string') return judged(atMs, facts(), failure('protocol', `the target ${target}`));
  return withDeadline(
    ctx.timeout_ms,
    async (deadline) => {
      const { error, detail } = await probe(target, settings, ctx, env, deadline, trace);
      return judged(atMs, facts(detail), error);
    },
    () =>
      judged(
        atMs,
        facts(),
        failure('timeout', `timed out after ${ctx.timeout_ms} ms during ${trace.stage} (${where})${hint(trace)}`),
      ),
  );
}

async function probe(
  target: { host: string; port: number },
  settings: GrpcSettings,
  ctx: CheckContext,
  env: CheckerEnv,
  deadline: Deadline,
  trace: SqlTrace,
): Promise<{ error: CheckError | null; detail: string | null }> {
  const where = hostPort(target.host, target.port);
  let client: Client | null = null;
  try {
    const address = await resolveHost(target.host, ctx.allow_private_targets, trace);
    const g = loadGrpc();
    const lap = lapTimer();
    const name = net.isIP(target.host) ? null : target.host;
    client = new g.Client(hostPort(address, target.port), credentials(g, settings, name, env, trace), {
      'grpc.default_authority': where,
      ...(name && settings.tls !== 'off' ? { 'grpc.ssl_target_name_override': name } : {}),
      'grpc.enable_http_proxy': 0,
      'grpc.enable_retries': 0,
      // grpc-js shares subchannels between channels in a global pool and frees them later: a pool of
      // its own makes close() end the connection now, even one still waiting for HTTP/2's settings.
      'grpc.use_local_subchannel_pool': 1,
      'grpc.service_config_disable_resolution': 1,
      'grpc.max_receive_message_length': GRPC_MAX_BYTES,
      'grpc.max_send_message_length': GRPC_MAX_BYTES,
    });
    const c = client;
    // Closing a channel lets its calls run on: the call is cancelled too, so no socket outlives the check.
    let cancel: () => void = () => undefined;
    deadline.onExpire(() => {
      cancel();
      c.close();
    });
    trace.stage = settings.tls === 'off' ? 'connecting' : 'connecting and the TLS handshake';
    watchReady(c.getChannel(), g, () => {
      trace.phases.connect_ms = lap();
      trace.stage = 'the Check answer';
    });
    const metadata = new g.Metadata();
    for (const m of settings.metadata) metadata.add(m.name, m.value);
    const answer = await new Promise<{ status: number } | { error: CheckError }>((resolve) => {
      const call = c.makeUnaryRequest(
        HEALTH_CHECK_PATH,
        () => encodeHealthRequest(settings.service),
        (bytes: Buffer) => bytes,
        null,
        metadata,
        {},
        (err: ServiceError | null, bytes?: Buffer) => {
          if (err) return resolve({ error: callError(err, where, settings, trace) });
          const status = decodeHealthResponse(bytes ?? Buffer.alloc(0));
          resolve(
            typeof status === 'string'
              ? { error: failure('protocol', `${where} answered Check with a message that is not one: ${status}`) }
              : { status },
          );
        },
      );
      cancel = () => call.cancel();
    });
    if ('error' in answer) return { error: answer.error, detail: null };
    trace.phases.ttfb_ms = lap();
    const error = judgeServing(answer.status, settings.service);
    return { error, detail: error ? null : SERVING_STATUS[answer.status] };
  } catch (err) {
    return { error: describeSocketError(err, where), detail: null };
  } finally {
    client?.close();
  }
}

/** TLS as `tls` says; the certificate is kept when the handshake reaches the name check. */
function credentials(
  g: Grpc,
  settings: GrpcSettings,
  name: string | null,
  env: CheckerEnv,
  trace: SqlTrace,
): ChannelCredentials {
  if (settings.tls === 'off') return g.credentials.createInsecure();
  const verify = settings.tls === 'verify';
  const extra = env.ca === undefined ? [] : typeof env.ca === 'string' ? [env.ca] : env.ca.map((b) => b.toString());
  const roots = verify ? Buffer.from([...tls.rootCertificates, ...extra].join('\n')) : null;
  return g.credentials.createSsl(roots, null, null, {
    rejectUnauthorized: verify,
    checkServerIdentity: (host, cert) => {
      trace.cert = certInfo(cert);
      // An address has no name to check: the chain alone is verified (as for the tls kind).
      return verify && name !== null ? tls.checkServerIdentity(host, cert) : undefined;
    },
  });
}

/** Calls `ready` once the channel is READY (connected, TLS and HTTP/2 settings done). */
function watchReady(channel: ReturnType<Client['getChannel']>, g: Grpc, ready: () => void): void {
  const READY = g.connectivityState.READY;
  const SHUTDOWN = g.connectivityState.SHUTDOWN;
  const watch = (state: number) => {
    if (state === READY) return ready();
    if (state === SHUTDOWN) return;
    channel.watchConnectivityState(state, Infinity, () => watch(channel.getConnectivityState(false)));
  };
  watch(channel.getConnectivityState(true));
}

// OpenSSL's words when a TLS client meets a plain-text port.
const NOT_TLS = /wrong version number|packet length too long|http request|unknown protocol/i;

/** A failed call in our words: the connection's failures from UNAVAILABLE's details, the rest by status. */
function callError(err: ServiceError, where: string, settings: GrpcSettings, trace: SqlTrace): CheckError {
  if (err.code !== 14) return judgeCallStatus(err.code, err.details ?? '', settings.service);
  // grpc-js words it "No connection established. Last error: Error: <the socket's or TLS's>. Resolution note: …".
  const said = String(err.details ?? '')
    .replace(/^No connection established\. Last error: (?:Error: )?/, '')
    .replace(/\.? ?Resolution note:.*$/s, '');
  const code = /\b(E[A-Z]+)\b/.exec(said)?.[1];
  if (code && code !== 'EPROTO') {
    const problem = describeSocketError(Object.assign(new Error(said), { code }), where);
    if (problem.code === 'reset' && settings.tls === 'off') return { ...problem, message: problem.message + TLS_HINT };
    return problem;
  }
  if (NOT_TLS.test(said))
    return failure('tls_required', `TLS was asked for, and ${where} does not speak TLS on that port`);
  if (/expired|not yet valid/i.test(said)) return failure('cert_expired', `the server's certificate: ${said}`);
  if (/certificate|self.signed|altnames|issuer/i.test(said))
    return failure('cert_invalid', `the server's certificate is not valid: ${said}`);
  if (trace.phases.connect_ms === null && settings.tls === 'off')
    return failure('reset', `connection closed by ${where} before HTTP/2 began${TLS_HINT}`);
  return failure('connect', `${where} is unavailable: ${clip(said.replace(/[^\x20-\x7e]/g, '?'), 200)}`);
}

const TLS_HINT = ' (if that port wants TLS, set tls to require or verify)';

/** A plain-text port given a TLS ClientHello may wait for more, which never comes. */
function hint(trace: SqlTrace): string {
  return trace.stage === 'connecting and the TLS handshake' ? ': does the server speak TLS on that port?' : '';
}
