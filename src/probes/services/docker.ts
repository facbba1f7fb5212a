/**
 * docker checks: the Docker Engine API's inspect answer for one container (GET
 * /containers/{id}/json), over the local unix socket or tcp:// / https://, judged by
 * docker-state.ts. No dependency: HTTP over a unix socket is node:http with socketPath.
 * Phases: dns and connect (tcp, https), tls (https), ttfb (the answer's first byte).
 */
import { isIP } from 'node:net';
import type { CheckError, CheckResult } from '../check-result';
import type { CheckContext, DockerSettings } from '../kinds';
import { trustOptions } from '../checkers/cert';
import { checkAddress, guardedLookup } from '../checkers/connect-address';
import { Deadline, msSince, withDeadline } from '../checkers/deadline';
import type { CheckerEnv } from '../checkers/env';
import { HopTarget, HopTrace, startHop } from '../checkers/http-exchange';
import { describeSocketError, hostPort } from '../checkers/net-errors';
import { emptyPhases, failure, judged } from '../checkers/result-builders';
import { clip } from '../judge/clip';
import { DockerEndpoint, parseDockerEndpoint } from './docker-endpoint';
import { containerFacts, describeContainer, judgeContainer } from './docker-state';

// The restart count each container had at its last check, per env: a checker keeps no other
// state, and a restart between two checks is only seen by comparing counts. Bounded: the oldest
// entries go first past MAX_REMEMBERED (a count forgotten only loses one "+n" note).
const MAX_REMEMBERED = 10_000;
const restartsByEnv = new WeakMap<CheckerEnv, Map<string, number>>();

export async function checkDocker(settings: DockerSettings, ctx: CheckContext, env: CheckerEnv): Promise<CheckResult> {
  const atMs = env.clock.now();
  const start = performance.now();
  const trace: HopTrace = { phases: emptyPhases(), cert: null, status: null, stage: 'connecting' };
  return withDeadline(
    ctx.timeout_ms,
    async (deadline) => {
      const { error, detail } = await probe(settings, ctx, env, deadline, trace);
      return judged(atMs, { latency_ms: msSince(start), phases: trace.phases, cert: trace.cert, detail }, error);
    },
    () => {
      const stage =
        trace.stage === 'reading' || trace.stage === 'waiting' ? 'waiting for the Docker API' : `while ${trace.stage}`;
      const error = failure('timeout', `timed out after ${ctx.timeout_ms} ms ${stage} (${settings.endpoint})`);
      return judged(atMs, { latency_ms: msSince(start), phases: trace.phases, cert: trace.cert }, error);
    },
  );
}

async function probe(
  settings: DockerSettings,
  ctx: CheckContext,
  env: CheckerEnv,
  deadline: Deadline,
  trace: HopTrace,
): Promise<{ error: CheckError | null; detail: string | null }> {
  const endpoint = parseDockerEndpoint(settings.endpoint);
  if (typeof endpoint === 'string') return { error: failure('connect', `endpoint ${endpoint}`), detail: null };
  const refused = privateProblem(endpoint, ctx.allow_private_targets);
  if (refused) return { error: refused, detail: null };
  const name = settings.container.replace(/^\//, '');
  const where = endpoint.transport === 'unix' ? endpoint.socketPath : hostPort(endpoint.host, endpoint.port);
  try {
    const res = await startHop(hopTarget(endpoint, name, ctx, env), trace, deadline);
    const { body, truncated } = await res.readBody(true);
    if (res.status === 404)
      return { error: failure('not_found', `no container named ${name} at ${where}`), detail: null };
    if (res.status === 401 || res.status === 403) {
      return {
        error: failure('auth_failed', `the Docker API at ${where} refused us (HTTP ${res.status})`),
        detail: null,
      };
    }
    const facts = res.status === 200 && !truncated ? containerFacts(parseJson(body)) : null;
    if (res.status !== 200) {
      return {
        error: failure('status', `the Docker API at ${where} answered HTTP ${res.status}${apiMessage(body)}`),
        detail: null,
      };
    }
    if (!facts)
      return { error: failure('protocol', `${where} did not answer like the Docker Engine API`), detail: null };
    const key = `${settings.endpoint}|${name}`;
    const detail = describeContainer(facts, remember(env, key, facts.restarts));
    return { error: judgeContainer(name, facts, settings.require_healthy), detail };
  } catch (err) {
    return { error: socketProblem(err, endpoint, where), detail: null };
  }
}

function hopTarget(endpoint: DockerEndpoint, name: string, ctx: CheckContext, env: CheckerEnv): HopTarget {
  const path = `/containers/${encodeURIComponent(name)}/json`;
  const lookup = guardedLookup('auto', ctx.allow_private_targets);
  const common = { method: 'GET', body: null, lookup, tlsVerify: true, pin: null, trust: trustOptions(env) };
  // The Host header of a unix-socket request is a formality: Docker's own client sends "docker".
  if (endpoint.transport === 'unix') {
    const url = new URL(`http://docker${path}`);
    return {
      ...common,
      url,
      headers: { host: 'docker' },
      connectHost: '127.0.0.1',
      identity: 'docker',
      socketPath: endpoint.socketPath,
    };
  }
  const scheme = endpoint.transport === 'https' ? 'https' : 'http';
  const url = new URL(`${scheme}://${hostPort(endpoint.host, endpoint.port)}${path}`);
  return { ...common, url, headers: {}, connectHost: endpoint.host, identity: endpoint.host };
}

function privateProblem(endpoint: DockerEndpoint, allowPrivate: boolean): CheckError | null {
  if (endpoint.transport === 'unix') {
    if (allowPrivate) return null;
    return failure(
      'private_target',
      `${endpoint.socketPath} is a socket on this machine, and private targets are not allowed`,
    );
  }
  return isIP(endpoint.host) ? checkAddress(endpoint.host, 'auto', allowPrivate) : null;
}

/** A unix socket's own failures say what to do: the docker group, or Docker not running. */
export function socketProblem(err: unknown, endpoint: DockerEndpoint, where: string): CheckError {
  const code = (err as { code?: string } | null)?.code;
  if (endpoint.transport === 'unix') {
    if (code === 'EACCES' || code === 'EPERM') {
      return failure(
        'permission',
        `permission denied on ${where}: the service user needs the docker group (docs/checks.md, "docker")`,
      );
    }
    if (code === 'ENOENT')
      return failure('connect', `no Docker socket at ${where}: is Docker (or podman's API service) running here?`);
    if (code === 'ECONNREFUSED') return failure('refused', `nothing listens on ${where}: is Docker running?`);
  }
  return describeSocketError(err, where);
}

function parseJson(body: Buffer | null): unknown {
  try {
    return body ? JSON.parse(body.toString('utf8')) : null;
  } catch {
    return null;
  }
}

/** Docker's errors are `{"message": "..."}`. */
function apiMessage(body: Buffer | null): string {
  const parsed = parseJson(body) as { message?: unknown } | null;
  return typeof parsed?.message === 'string' ? `: ${clip(parsed.message)}` : '';
}

function remember(env: CheckerEnv, key: string, restarts: number): number | undefined {
  let seen = restartsByEnv.get(env);
  if (!seen) restartsByEnv.set(env, (seen = new Map()));
  const previous = seen.get(key);
  seen.delete(key);
  seen.set(key, restarts);
  if (seen.size > MAX_REMEMBERED) seen.delete(seen.keys().next().value as string);
  return previous;
}
