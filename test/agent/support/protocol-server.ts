/**
 * A stand-in for the service's side of agent protocol v1, written from docs/agents.md, for the
 * tests of the agent as a process before (and beside) the real service: it holds one location's
 * assignment, answers the config long poll, stores results by seq and acknowledges them, and can
 * be told to hold, refuse or drop requests. What it records is what an agent really sent.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  seq: number;
  monitor_id: number;
  at: string;
  result: { outcome: string; at_ms: number };
}

export interface Post {
  /** When it arrived (epoch ms). */
  at: number;
  blind: boolean;
  version: string;
  seqs: number[];
  /** The acked_seq answered, or null when the request was held or refused. */
  acked: number | null;
}

export type Mode = 'normal' | 'hold-results' | 'refuse' | 'unauthorized';

export class ProtocolServer {
  readonly posts: Post[] = [];
  /** Stored results by seq (a repeat is ignored, as the service does). */
  readonly stored = new Map<number, Received>();
  ackedSeq = 0;
  mode: Mode = 'normal';
  token: string;
  private revision = 1;
  private monitors: unknown[] = [];
  private pollers: (() => void)[] = [];
  private held: http.ServerResponse[] = [];
  private server: http.Server;

  constructor(token: string) {
    this.token = token;
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** A new assignment: waiting polls answer at once, as the service's revision bump does. */
  assign(monitors: unknown[]): void {
    this.monitors = monitors;
    this.revision += 1;
    for (const wake of this.pollers.splice(0)) wake();
  }

  private send(res: http.ServerResponse, status: number, body?: unknown): void {
    if (body === undefined) {
      res.writeHead(status).end();
      return;
    }
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (this.mode === 'refuse') return this.send(res, 503, { error: { code: 'unavailable', message: 'down' } });
    if (this.mode === 'unauthorized' || req.headers.authorization !== `Bearer ${this.token}`)
      return this.send(res, 401, { error: { code: 'sign_in', message: 'unknown token' } });
    if (req.method === 'GET' && url.pathname === '/api/agent/config') {
      const waitS = Number(url.searchParams.get('wait_s') ?? 25);
      if (url.searchParams.get('revision') === String(this.revision)) {
        const changed = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), waitS * 1000).unref();
          this.pollers.push(() => {
            clearTimeout(timer);
            resolve(true);
          });
        });
        if (!changed) return this.send(res, 204);
      }
      return this.send(res, 200, {
        revision: String(this.revision),
        location: { id: 1, name: 'emulated' },
        server_time: new Date().toISOString(),
        allow_private_targets: true,
        monitors: this.monitors,
      });
    }
    if (req.method === 'POST' && url.pathname === '/api/agent/results') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        agent: { version: string; blind: boolean };
        results: Received[];
      };
      const post: Post = {
        at: Date.now(),
        blind: body.agent.blind,
        version: body.agent.version,
        seqs: body.results.map((r) => r.seq),
        acked: null,
      };
      this.posts.push(post);
      if (this.mode === 'hold-results') {
        // Stored but never answered: the agent cannot know, and must send them again.
        for (const r of body.results) if (r.seq > this.ackedSeq) this.stored.set(r.seq, r);
        this.held.push(res);
        return;
      }
      for (const r of body.results) if (r.seq > this.ackedSeq) this.stored.set(r.seq, r);
      this.ackedSeq = Math.max(this.ackedSeq, ...post.seqs);
      post.acked = this.ackedSeq;
      return this.send(res, 200, { acked_seq: this.ackedSeq, stored: post.seqs.length, ignored: [] });
    }
    this.send(res, 404, { error: { code: 'not_found', message: 'no such route' } });
  }
}
