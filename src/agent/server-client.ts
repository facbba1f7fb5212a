/**
 * The agent's two requests to the service (agent protocol v1, docs/agents.md), over one kept-alive
 * connection pool: the config long poll and the results POST. The token goes only to the
 * configured server's /api/agent/ routes: redirects are not followed (one could carry the
 * Authorization header to another host), and TLS is verified (FARSIGHT_AGENT_CA_FILE adds a
 * private CA, never turns verification off). Answers are read as hostile: bounded in size and time,
 * parsed by protocol.ts.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as tls from 'node:tls';
import { VERSION } from '../common/version';
import { withoutSecret } from './agent-log';
import { type Ack, type Assignment, MAX_WAIT_S, parseAck, parseAssignment, ProtocolError } from './protocol';

/** A config answer holds every assigned monitor: 10,000 monitors of 2 KB each fit with room. */
const MAX_CONFIG_ANSWER_BYTES = 64 * 1024 * 1024;
const MAX_RESULTS_ANSWER_BYTES = 64 * 1024;
/** Beyond the long poll's own wait: the service answers within wait_s plus a moment. */
const POLL_GRACE_MS = 15_000;
const POST_TIMEOUT_MS = 30_000;

export class ServerError extends Error {
  constructor(
    message: string,
    /** The HTTP status, or null when no answer came (refused, reset, timed out, TLS). */
    readonly status: number | null,
    /** A 429's or 503's Retry-After, in ms: the next try waits at least this long. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }

  /** The token was refused: rotated, or the location removed. */
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

export interface ServerClientOptions {
  server: string;
  token: string;
  /** PEM text of extra trusted CAs (FARSIGHT_AGENT_CA_FILE), added to the system's. */
  ca: string | null;
}

export class ServerClient {
  private readonly base: URL;
  private readonly agent: http.Agent;
  private readonly secure: boolean;

  constructor(private readonly o: ServerClientOptions) {
    this.base = new URL(o.server.endsWith('/') ? o.server : `${o.server}/`);
    this.secure = this.base.protocol === 'https:';
    this.agent = this.secure
      ? new https.Agent({
          keepAlive: true,
          maxSockets: 4,
          ca: o.ca === null ? undefined : [...tls.rootCertificates, o.ca],
        })
      : new http.Agent({ keepAlive: true, maxSockets: 4 });
  }

  static withCaFile(o: Omit<ServerClientOptions, 'ca'>, caFile: string | null): ServerClient {
    return new ServerClient({ ...o, ca: caFile === null ? null : fs.readFileSync(caFile, 'utf8') });
  }

  /** GET /api/agent/config: the new assignment, or null when nothing changed within waitS (204). */
  async config(revision: string | null, waitS: number): Promise<Assignment | null> {
    const wait = Math.max(0, Math.min(MAX_WAIT_S, Math.floor(waitS)));
    const query = new URLSearchParams({ wait_s: String(wait) });
    if (revision !== null) query.set('revision', revision);
    const answer = await this.request(
      'GET',
      `api/agent/config?${query.toString()}`,
      null,
      wait * 1000 + POLL_GRACE_MS,
      MAX_CONFIG_ANSWER_BYTES,
    );
    if (answer.status === 204) return null;
    return parseAssignment(answer.body);
  }

  /** POST /api/agent/results with a body already made: the acked_seq of the answer. */
  async results(body: string): Promise<Ack> {
    const answer = await this.request('POST', 'api/agent/results', body, POST_TIMEOUT_MS, MAX_RESULTS_ANSWER_BYTES);
    return parseAck(answer.body);
  }

  close(): void {
    this.agent.destroy();
  }

  private request(
    method: 'GET' | 'POST',
    route: string,
    body: string | null,
    timeoutMs: number,
    maxBytes: number,
  ): Promise<{ status: number; body: unknown }> {
    const url = new URL(route, this.base);
    const where = `${method} ${url.pathname}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.o.token}`,
      accept: 'application/json',
      'user-agent': `farsight-agent/${VERSION}`,
    };
    if (body !== null) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const send = this.secure ? https.request : http.request;
    return new Promise((resolve, reject) => {
      const fail = (message: string, status: number | null, retryAfterMs: number | null = null) =>
        reject(new ServerError(`${where}: ${withoutSecret(message, [this.o.token])}`, status, retryAfterMs));
      const req = send(url, { method, headers, agent: this.agent, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy();
            fail(`the answer is larger than ${maxBytes} bytes`, res.statusCode ?? null);
          } else chunks.push(chunk);
        });
        res.on('error', (err) => fail(err.message, res.statusCode ?? null));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          if (status === 204) return resolve({ status, body: null });
          if (status < 200 || status >= 300)
            return fail(refusal(status, text), status, retryAfter(res.headers['retry-after']));
          try {
            resolve({ status, body: JSON.parse(text) as unknown });
          } catch {
            reject(new ProtocolError(`${where}: the answer is not JSON`));
          }
        });
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)));
      req.on('error', (err: NodeJS.ErrnoException) =>
        fail(err.code ? `${err.code} ${err.message}` : err.message, null),
      );
      req.end(body ?? undefined);
    });
  }
}

/** What a refusal says, in the service's error envelope ({error: {code, message}}) when it has one. */
function refusal(status: number, text: string): string {
  let said = '';
  try {
    const e = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
    if (e && typeof e.message === 'string') said = `: ${typeof e.code === 'string' ? `${e.code}: ` : ''}${e.message}`;
  } catch {
    // Not the envelope (a proxy's page): the status says enough.
  }
  if (status === 401)
    return `the service refused the token (401${said}); it was rotated or the location removed: put the current token in FARSIGHT_AGENT_TOKEN and restart the agent`;
  if (status >= 300 && status < 400)
    return `answered ${status} (a redirect, not followed: set FARSIGHT_AGENT_SERVER to the service's own address)`;
  return `answered ${status}${said}`;
}

/** Retry-After in seconds (the form the service sends), capped at an hour; an HTTP date is not used here. */
export function retryAfter(header: string | undefined): number | null {
  if (header === undefined || !/^\d{1,6}$/.test(header.trim())) return null;
  return Math.min(3_600, Number(header.trim())) * 1000;
}
