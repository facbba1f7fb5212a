/**
 * `farsight health [--timeout SECONDS]`: asks the running service whether it is healthy, the way a
 * container's HEALTHCHECK or a script does without curl (the OCI image has no shell and no curl,
 * docs/install.md). It GETs /api/health at the address FARSIGHT_LISTEN names (0.0.0.0 and :: are
 * asked on loopback, where the service also listens) and:
 *  - exit 0 and one line on stdout when the answer is 200 with `{"ok":true,...}`;
 *  - exit 1 and one line on stderr saying why not (nothing listens, no answer in time, another
 *    status, an answer that is not Farsight's health), so `docker inspect` shows the reason;
 *  - exit 2 for a bad FARSIGHT_LISTEN or a bad option, as the other commands do.
 * It reads no other variable (a bad FARSIGHT_SMTP is `serve`'s to report) and writes nothing: it
 * runs beside a `serve` in any state, and a health check must never change anything. The whole request is bounded by the
 * timeout (default 5 s), and the answer read is capped, since whatever answers on that port
 * may not be Farsight at all.
 */
import * as http from 'node:http';
import { ConfigError, ListenAddress, readListen } from './config/config';

export const HEALTH_USAGE = 'usage: farsight health [--timeout SECONDS]';
const DEFAULT_TIMEOUT_MS = 5000;
/** Farsight's health answer is under 100 bytes; more than this is not it. */
const MAX_ANSWER_BYTES = 16 * 1024;

export interface HealthAnswer {
  status: number;
  body: string;
}

export type HealthVerdict = { healthy: true; line: string } | { healthy: false; reason: string };

/** The URL to ask: the listen address itself, or loopback when it listens on every address. */
export function healthUrl(listen: ListenAddress): string {
  const host = listen.host === '0.0.0.0' ? '127.0.0.1' : listen.host === '::' ? '::1' : listen.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${listen.port}/api/health`;
}

/** `--timeout S` (0.1 to 60 s) or nothing; anything else is a usage error (exit 2). */
export function parseHealthArgs(args: string[]): { timeoutMs: number } | { usage: string } {
  if (args.length === 0) return { timeoutMs: DEFAULT_TIMEOUT_MS };
  if (args.length !== 2 || args[0] !== '--timeout') return { usage: HEALTH_USAGE };
  const s = Number(args[1]);
  if (!/^\d+(\.\d+)?$/.test(args[1]) || s < 0.1 || s > 60)
    return { usage: `--timeout: expected seconds from 0.1 to 60, got "${printable(args[1])}"` };
  return { timeoutMs: Math.round(s * 1000) };
}

/** What the answer says about the service; the remote text is shortened and made printable. */
export function judgeHealth(url: string, answer: HealthAnswer): HealthVerdict {
  if (answer.status !== 200) return { healthy: false, reason: `${url} answered HTTP ${answer.status}` };
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return { healthy: false, reason: `${url} answered something that is not JSON: "${printable(answer.body)}"` };
  }
  const h = body as { ok?: unknown; version?: unknown; uptime_s?: unknown } | null;
  if (h === null || typeof h !== 'object' || h.ok !== true)
    return { healthy: false, reason: `${url} did not answer {"ok":true}: "${printable(answer.body)}"` };
  const version = typeof h.version === 'string' ? ` ${printable(h.version)}` : '';
  const up = typeof h.uptime_s === 'number' && Number.isFinite(h.uptime_s) ? `, up ${Math.floor(h.uptime_s)} s` : '';
  return { healthy: true, line: `healthy: Farsight${version} at ${url}${up}` };
}

/** One line for a request that got no answer. */
export function requestFailure(url: string, err: unknown, timeoutMs: number): string {
  const code = (err as { code?: string }).code;
  switch (code) {
    case 'ETIMEDOUT':
      return `no answer from ${url} within ${timeoutMs / 1000} s`;
    case 'ECONNREFUSED':
      return `nothing listens at ${url} (connection refused): is \`farsight serve\` running with this FARSIGHT_LISTEN?`;
    case 'ETOOBIG':
      return `${url} answered more than ${MAX_ANSWER_BYTES} bytes: not Farsight's health`;
    default:
      return `cannot reach ${url}: ${code ?? printable(String((err as Error).message ?? err))}`;
  }
}

/** Control characters out, at most 120 characters: a remote answer is shown, never trusted. */
function printable(text: string): string {
  const flat = text.replace(/[\x00-\x1f\x7f]+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}

function get(url: string, timeoutMs: number): Promise<HealthAnswer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      fn();
    };
    const abort = (code: string) => {
      settle(() => reject(Object.assign(new Error(code), { code })));
      req.destroy();
    };
    // One deadline for the whole exchange (connect, head and body), not per socket event.
    const deadline = setTimeout(() => abort('ETIMEDOUT'), timeoutMs);
    const req = http.get(url, { headers: { accept: 'application/json' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_ANSWER_BYTES) abort('ETOOBIG');
        else chunks.push(chunk);
      });
      res.on('end', () =>
        settle(() => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })),
      );
      res.on('error', (err) => settle(() => reject(err)));
    });
    req.on('error', (err) => settle(() => reject(err)));
  });
}

export interface HealthIo {
  out(line: string): void;
  err(line: string): void;
}

export async function healthCommand(args: string[], env: NodeJS.ProcessEnv, io: HealthIo): Promise<number> {
  const parsed = parseHealthArgs(args);
  if ('usage' in parsed) {
    io.err(`farsight: ${parsed.usage}`);
    return 2;
  }
  let listen: ListenAddress;
  try {
    listen = readListen(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(`farsight: ${err.message}`);
    return 2;
  }
  const url = healthUrl(listen);
  let verdict: HealthVerdict;
  try {
    verdict = judgeHealth(url, await get(url, parsed.timeoutMs));
  } catch (err) {
    verdict = { healthy: false, reason: requestFailure(url, err, parsed.timeoutMs) };
  }
  if (verdict.healthy) io.out(verdict.line);
  else io.err(`farsight: unhealthy: ${verdict.reason}`);
  return verdict.healthy ? 0 : 1;
}
