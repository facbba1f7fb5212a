/**
 * A client that speaks the agent protocol v1 (docs/agents.md) and nothing more: the tests of the
 * service's agent routes and the benchmark use it where the real `farsight agent` is not the
 * subject. It keeps no spool: the caller says what to send.
 */
import { Answer, request } from './http-client';

export interface AgentResult {
  seq: number;
  monitor_id: number;
  at: string;
  result: unknown;
}

export class AgentClient {
  constructor(
    readonly server: string,
    public token: string,
    readonly version = '0.0.0-test',
  ) {}

  private headers(): Record<string, string> {
    return { Authorization: `Bearer ${this.token}`, 'User-Agent': `farsight-agent/${this.version}` };
  }

  /** GET /api/agent/config; `revision` and `wait_s` as given. */
  config(revision?: string, waitS?: number): Promise<Answer> {
    const q = new URLSearchParams();
    if (revision !== undefined) q.set('revision', revision);
    if (waitS !== undefined) q.set('wait_s', String(waitS));
    return request('GET', `${this.server}/api/agent/config${q.size ? `?${q}` : ''}`, {
      headers: this.headers(),
      timeoutMs: 40_000,
    });
  }

  /** POST /api/agent/results with `body` as given (an object, or raw text for hostile tests). */
  send(body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return request('POST', `${this.server}/api/agent/results`, { headers: { ...this.headers(), ...headers }, body });
  }

  /** A batch of results as the agent sends them. */
  results(results: AgentResult[], blind = false): Promise<Answer> {
    return this.send({ agent: { version: this.version, blind }, results });
  }
}

/** A result as the checkers make it (src/probes/check-result.ts), up or down. */
export function checkResult(outcome: 'up' | 'down', latencyMs = 12): Record<string, unknown> {
  return {
    outcome,
    latency_ms: latencyMs,
    phases: { dns_ms: null, connect_ms: 1, tls_ms: null, ttfb_ms: 10 },
    status: outcome === 'up' ? 200 : 503,
    error: outcome === 'up' ? null : { code: 'status', message: 'HTTP 503, expected 200-399' },
    cert: null,
    detail: null,
  };
}
