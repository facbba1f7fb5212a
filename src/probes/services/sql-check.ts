/**
 * What the SQL kinds (postgres, mysql) share: where they connect (the URL's host resolved by our
 * own guarded lookup, so the private-target rule and DNS rebinding apply as for every kind), the
 * bytes of an answer counted on the socket (at most 64 KB is read), the certificate judged as the
 * tls kind judges it, and the detail line of an answer.
 */
import * as net from 'node:net';
import type * as tls from 'node:tls';
import type { CertInfo, CheckError, CheckPhases, CheckResult } from '../check-result';
import type { CheckContext } from '../kinds';
import { clip } from '../judge/clip';
import { describeCertValidity } from '../judge/cert-validity';
import { certInfo, judgePeer } from '../checkers/cert';
import { checkAddress, guardedLookup } from '../checkers/connect-address';
import { Deadline, lapTimer, msSince, withDeadline } from '../checkers/deadline';
import type { CheckerEnv } from '../checkers/env';
import { hostPort } from '../checkers/net-errors';
import { CheckFailure, emptyPhases, failure, judged } from '../checkers/result-builders';
import { parseServiceUrl, ServiceUrl, UrlRules } from './service-url';
import { readOnlyProblem } from './sql-statement';

/** At most this much of a query's answer is read; the rest is not waited for. */
export const ANSWER_MAX_BYTES = 64 * 1024;

export interface SqlTrace {
  phases: CheckPhases;
  cert: CertInfo | null;
  stage: string;
  /** Bytes received since the query was sent. */
  answerBytes: number;
  /** Set when the answer passed ANSWER_MAX_BYTES and the connection was cut on purpose. */
  cut: boolean;
  /** A verdict reached inside a socket listener (the certificate), reported instead of the library's error. */
  problem: CheckError | null;
}

export function newTrace(phases: CheckPhases): SqlTrace {
  return { phases, cert: null, stage: 'connecting', answerBytes: 0, cut: false, problem: null };
}

/** The address to connect to: a literal IP checked, a name resolved once by the guarded lookup. */
export async function resolveHost(host: string, allowPrivate: boolean, trace: SqlTrace): Promise<string> {
  if (net.isIP(host)) {
    const problem = checkAddress(host, 'auto', allowPrivate);
    if (problem) throw new CheckFailure(problem);
    return host;
  }
  trace.stage = 'the name lookup';
  const lap = lapTimer();
  const address = await new Promise<string>((resolve, reject) =>
    guardedLookup('auto', allowPrivate)(host, {}, (err, a) => (err ? reject(err) : resolve(a as string))),
  );
  trace.phases.dns_ms = lap();
  return address;
}

/** Judges a TLS handshake as the tls kind does; `verify` false accepts any certificate. */
export function judgeHandshake(
  socket: tls.TLSSocket,
  name: string,
  verify: boolean,
  trace: SqlTrace,
): CheckError | null {
  trace.cert = certInfo(socket.getPeerCertificate());
  if (!verify) return null;
  if (!trace.cert) return { code: 'tls', message: 'the server presented no certificate' };
  return judgePeer(socket, name, trace.cert, null, true);
}

/** Counts the answer's bytes on `socket` once `counting()` says so, and cuts it past the limit. */
export function countAnswer(socket: net.Socket, counting: () => boolean, trace: SqlTrace): void {
  socket.prependListener('data', (chunk: Buffer) => {
    if (!counting()) return;
    trace.answerBytes += chunk.length;
    if (trace.answerBytes > ANSWER_MAX_BYTES && !trace.cut) {
      trace.cut = true;
      socket.destroy();
    }
  });
}

/** The detail of an answer: its row count and the first row's first value. */
export function describeAnswer(rows: number | null, first: unknown, cut: boolean): string {
  if (cut) return `answered more than ${ANSWER_MAX_BYTES / 1024} KB; the rest was not read`;
  const count = rows === null ? 'answered' : rows === 1 ? '1 row' : `${rows} rows`;
  if (first === undefined) return count;
  const text =
    first === null
      ? 'NULL'
      : first instanceof Date
        ? first.toISOString()
        : Buffer.isBuffer(first)
          ? `${first.length} bytes`
          : String(first);
  return `${count}: ${clip(text.replace(/[\x00-\x1f]/g, ' '))}`;
}

/** One kind's exchange with its server: connect, log in, run the query; its error or the answer's detail. */
export type SqlProbe<S> = (
  url: ServiceUrl,
  settings: S,
  ctx: CheckContext,
  env: CheckerEnv,
  deadline: Deadline,
  trace: SqlTrace,
) => Promise<{ error: CheckError | null; detail: string | null }>;

/**
 * A check of a SQL kind, the part postgres and mysql share: the URL and the query refused before
 * any connection, the whole exchange bounded by the monitor's timeout (which names the stage it
 * stopped in), the certificate's validity beside the answer's detail.
 */
export async function runSqlCheck<S extends { url: string; query: string }>(
  kind: 'postgres' | 'mysql',
  rules: UrlRules,
  settings: S,
  ctx: CheckContext,
  env: CheckerEnv,
  probe: SqlProbe<S>,
): Promise<CheckResult> {
  const atMs = env.clock.now();
  const start = performance.now();
  const trace = newTrace(emptyPhases());
  const url = parseServiceUrl(settings.url, rules);
  const where = typeof url === 'string' ? kind : hostPort(url.host, url.port);
  const facts = (detail: string | null = null) => {
    const cert = trace.cert ? describeCertValidity(trace.cert, atMs) : null;
    const text = [detail, cert].filter(Boolean).join('; ') || null;
    return { latency_ms: msSince(start), phases: trace.phases, cert: trace.cert, detail: text };
  };
  if (typeof url === 'string') return judged(atMs, facts(), failure('protocol', `the URL ${url}`));
  const refused = readOnlyProblem(settings.query, kind);
  if (refused) return judged(atMs, facts(), failure('query_failed', `the query ${refused}`));
  return withDeadline(
    ctx.timeout_ms,
    async (deadline) => {
      const { error, detail } = await probe(url, settings, ctx, env, deadline, trace);
      return judged(atMs, facts(detail), error);
    },
    () => judged(atMs, facts(), timedOut(ctx.timeout_ms, trace, where)),
  );
}

/** A check stopped by the monitor's timeout, named by the stage it was in. */
export function timedOut(timeoutMs: number, trace: SqlTrace, where: string): CheckError {
  return failure('timeout', `timed out after ${timeoutMs} ms during ${trace.stage} (${where})`);
}
