/**
 * http checks: probe (http-exchange, following redirects), then judge (judge/http-response).
 * One deadline covers every hop. Secrets never reach a message: URLs are shown without
 * credentials or query, and header values are never quoted.
 */
import { isIP } from 'node:net';
import { version } from '../../../package.json';
import type { CheckError, CheckResult } from '../check-result';
import type { CheckContext, HttpAuth, HttpSettings } from '../kinds';
import { judgeHttpResponse, rulesNeedBody } from '../judge/http-response';
import { trustOptions } from './cert';
import { Deadline, msSince, withDeadline } from './deadline';
import type { CheckerEnv } from './env';
import { HopTarget, HopTrace, Stage, startHop } from './http-exchange';
import { describeUrl, Hop, hopKey, nextStep } from './http-redirect';
import { describeSocketError, hostPort } from './net-errors';
import { emptyPhases, failure, judged } from './result-builders';
import { bareHost, checkAddress, guardedLookup } from './connect-address';

const USER_AGENT = `Farsight/${version}`;

const STAGE_TEXT: Record<Stage, string> = {
  resolving: 'while resolving the host name',
  connecting: 'while connecting',
  tls: 'during the TLS handshake',
  waiting: 'waiting for the response',
  reading: 'while reading the body',
};

interface Verdict {
  error: CheckError | null;
  latency_ms: number;
  detail: string | null;
}

export function checkHttp(settings: HttpSettings, ctx: CheckContext, env: CheckerEnv): Promise<CheckResult> {
  const atMs = env.clock.now();
  const start = performance.now();
  const trace: HopTrace = { phases: emptyPhases(), cert: null, status: null, stage: 'resolving' };
  // No named closures on this path: the bundle names each one as it is made (keepNames), about
  // half a microsecond apiece, several per check.
  return withDeadline(
    ctx.timeout_ms,
    (deadline) => probe(settings, ctx, env, trace, deadline, start).then((v) => resultOf(atMs, trace, v)),
    () =>
      resultOf(atMs, trace, {
        error: failure('timeout', `timed out after ${ctx.timeout_ms} ms ${STAGE_TEXT[trace.stage]}`),
        latency_ms: msSince(start),
        detail: null,
      }),
  );
}

function resultOf(atMs: number, trace: HopTrace, { error, latency_ms, detail }: Verdict): CheckResult {
  return judged(atMs, { latency_ms, detail, phases: trace.phases, status: trace.status, cert: trace.cert }, error);
}

function verdict(start: number, error: CheckError | null, detail: string | null = null): Verdict {
  return { error, latency_ms: msSince(start), detail };
}

async function probe(
  settings: HttpSettings,
  ctx: CheckContext,
  env: CheckerEnv,
  trace: HopTrace,
  deadline: Deadline,
  start: number,
): Promise<Verdict> {
  const first = parseUrl(settings.url);
  if ('code' in first) return verdict(start, first);
  let hop: Hop = { url: first, method: settings.method, sendBody: settings.body !== null };
  const visited = new Set<string>();
  for (;;) {
    visited.add(hopKey(hop));
    const target = hopTarget(hop, first, settings, ctx, env);
    if ('code' in target) return verdict(start, target);
    trace.phases = emptyPhases(); // phases describe the last hop; latency covers them all
    const where = hostPort(target.connectHost, Number(hop.url.port) || (hop.url.protocol === 'https:' ? 443 : 80));
    try {
      const response = await startHop(target, trace, deadline);
      const step = settings.follow_redirects
        ? nextStep(hop, response.status, response.headers.location, visited)
        : ({ kind: 'final' } as const);
      if (step.kind !== 'final') {
        response.discard();
        if (step.kind === 'error') return verdict(start, step.error);
        hop = step.hop;
        continue;
      }
      const { body, truncated } = await response.readBody(rulesNeedBody(settings));
      const latency = msSince(start);
      const error = judgeHttpResponse(settings, {
        status: response.status,
        headers: response.headers,
        body,
        truncated,
        latency_ms: latency,
      });
      const redirects = visited.size - 1;
      const detail =
        redirects > 0 ? `followed ${redirects} redirect${redirects > 1 ? 's' : ''} to ${describeUrl(hop.url)}` : null;
      return { error, latency_ms: latency, detail };
    } catch (err) {
      return verdict(start, describeSocketError(err, where));
    }
  }
}

function parseUrl(text: string): URL | CheckError {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return failure('protocol', 'url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return failure('protocol', 'url must start with http:// or https://');
  return url;
}

/** Where and how one hop connects. resolve_to applies only to the monitored URL's host. */
function hopTarget(
  hop: Hop,
  first: URL,
  settings: HttpSettings,
  ctx: CheckContext,
  env: CheckerEnv,
): HopTarget | CheckError {
  const hostname = bareHost(hop.url.hostname);
  const connectHost = settings.resolve_to && hop.url.hostname === first.hostname ? settings.resolve_to : hostname;
  if (isIP(connectHost)) {
    const problem = checkAddress(connectHost, settings.ip_version, ctx.allow_private_targets);
    if (problem) return problem;
  }
  return {
    url: hop.url,
    method: hop.method,
    headers: requestHeaders(settings, hop, hop.url.origin === first.origin),
    body: hop.sendBody ? settings.body : null,
    connectHost,
    identity: hostname,
    lookup: guardedLookup(settings.ip_version, ctx.allow_private_targets),
    tlsVerify: settings.tls_verify,
    pin: hop.url.origin === first.origin ? (settings.cert_sha256 ?? null) : null,
    trust: trustOptions(env),
  };
}

/**
 * The user's headers, then ours where the user set none. A redirect to another origin gets no
 * credentials: neither `auth` nor secret headers nor a custom Host.
 */
function requestHeaders(settings: HttpSettings, hop: Hop, sameOrigin: boolean): Record<string, string> {
  const headers = new Map<string, [string, string]>();
  for (const header of settings.headers) {
    if (sameOrigin || (!header.secret && header.name.toLowerCase() !== 'host'))
      setHeader(headers, header.name, header.value);
  }
  if (!headers.has('user-agent')) setHeader(headers, 'User-Agent', USER_AGENT);
  if (!headers.has('host')) setHeader(headers, 'Host', hop.url.host);
  if (hop.sendBody && settings.content_type) setHeader(headers, 'Content-Type', settings.content_type);
  if (sameOrigin && settings.auth) setHeader(headers, 'Authorization', authorization(settings.auth));
  return Object.fromEntries(headers.values());
}

function setHeader(headers: Map<string, [string, string]>, name: string, value: string): void {
  headers.set(name.toLowerCase(), [name, value]);
}

function authorization(auth: HttpAuth): string {
  if (auth.type === 'bearer') return `Bearer ${auth.token}`;
  return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
}
