/**
 * redis checks: connect (TLS as `tls` says), AUTH when a password is set, SELECT the URL's
 * database, PING; up on PONG. Then the socket is closed (a QUIT would only cost a round trip).
 *
 * Why not the `redis` client: a check is three commands on one connection, and the client is built
 * for the opposite (a connection kept open, reconnects with back-off, offline queues, a cluster and
 * sentinel map). Bounding it needs its connect timeout, its reconnect strategy off, its error
 * events caught and every queued command given up at the deadline, and loading it costs about
 * 40 modules. A minimal RESP exchange on our own socket (resp.ts, the protocol's spec) is bounded
 * by the same single deadline as every checker, reads at most 64 KB, and loads nothing.
 * Phases: dns, connect, tls, ttfb (connection ready to the PING answer, AUTH and SELECT included).
 */
import type { Socket } from 'node:net';
import type { CheckError, CheckResult } from '../check-result';
import type { CheckContext, RedisSettings } from '../kinds';
import { describeCertValidity } from '../judge/cert-validity';
import { lapTimer, msSince, withDeadline, Deadline } from '../checkers/deadline';
import type { CheckerEnv } from '../checkers/env';
import { describeSocketError, hostPort } from '../checkers/net-errors';
import { emptyPhases, failure, judged } from '../checkers/result-builders';
import { encodeCommand, judgeAuth, judgePing, judgeSelect, RESP_MAX_BYTES, RespReply, takeRespReply } from './resp';
import { openServiceSocket, readFramed, SocketTrace } from './service-socket';
import { parseServiceUrl, ServiceUrl } from './service-url';
import { REDIS_URL } from './url-rules';

export async function checkRedis(settings: RedisSettings, ctx: CheckContext, env: CheckerEnv): Promise<CheckResult> {
  const atMs = env.clock.now();
  const start = performance.now();
  const trace: SocketTrace = { phases: emptyPhases(), cert: null, stage: 'connecting' };
  const url = parseServiceUrl(settings.url, REDIS_URL);
  const where = typeof url === 'string' ? 'redis' : hostPort(url.host, url.port);
  const facts = (detail: string | null = null) => {
    const cert = trace.cert ? describeCertValidity(trace.cert, atMs) : null;
    return {
      latency_ms: msSince(start),
      phases: trace.phases,
      cert: trace.cert,
      detail: [detail, cert].filter(Boolean).join('; ') || null,
    };
  };
  if (typeof url === 'string') return judged(atMs, facts(), failure('protocol', `the URL ${url}`));
  return withDeadline(
    ctx.timeout_ms,
    async (deadline) => {
      const error = await probe(url, settings, ctx, env, deadline, trace);
      return judged(atMs, facts(error ? null : 'PONG'), error);
    },
    () =>
      judged(
        atMs,
        facts(),
        failure('timeout', `timed out after ${ctx.timeout_ms} ms during ${trace.stage} (${where})${hint(trace.stage)}`),
      ),
  );
}

async function probe(
  url: ServiceUrl,
  settings: RedisSettings,
  ctx: CheckContext,
  env: CheckerEnv,
  deadline: Deadline,
  trace: SocketTrace,
): Promise<CheckError | null> {
  const where = hostPort(url.host, url.port);
  let socket: Socket | null = null;
  try {
    socket = await openServiceSocket({ host: url.host, port: url.port, tls: settings.tls }, ctx, env, deadline, trace);
    const lap = lapTimer();
    const buffer = { text: '' };
    const ask = (args: string[], stage: string): Promise<RespReply> => {
      trace.stage = stage;
      const s = socket as Socket;
      s.write(encodeCommand(args));
      return readFramed(s, buffer, takeRespReply, RESP_MAX_BYTES, where, 'RESP (Redis)');
    };
    if (settings.password !== null) {
      const auth = url.username ? ['AUTH', url.username, settings.password] : ['AUTH', settings.password];
      const refused = judgeAuth(await ask(auth, 'the AUTH answer'));
      if (refused) return refused;
    }
    if (url.database !== '' && url.database !== '0') {
      const missing = judgeSelect(await ask(['SELECT', url.database], 'the SELECT answer'), url.database);
      if (missing) return missing;
    }
    const pong = judgePing(await ask(['PING'], 'the PING answer'));
    trace.phases.ttfb_ms = lap();
    return pong;
  } catch (err) {
    return describeSocketError(err, where);
  } finally {
    socket?.destroy();
  }
}

/** A plain-text redis port given a TLS ClientHello waits for the line's end, which never comes. */
function hint(stage: string): string {
  return stage === 'the TLS handshake' ? ': does the server speak TLS on that port?' : '';
}
