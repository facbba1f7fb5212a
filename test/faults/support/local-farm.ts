/**
 * Loopback targets and alert receivers for the fault tests, in the test's own process.
 *
 * Targets: GET /t/<i> answers 200, except for flapping targets, which answer 500 during every
 * other window of `flapMs` (shifted per target so they do not all flip together) until
 * `freeze()`; then every target answers 200. Hits per target are counted.
 *
 * Receivers: a webhook receiver that records every message (its X-Service-Message-Id, the event
 * types, when it arrived) and answers 200 after a random delay, so a kill often lands while a
 * message is in flight.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Random } from './random';

export interface Targets {
  url(i: number): string;
  isFlapping(i: number): boolean;
  hits(i: number): number;
  /** Every target answers 200 from now on. */
  freeze(): void;
  close(): Promise<void>;
}

export async function startTargets(o: {
  flapping: (i: number) => boolean;
  flapMs: number;
  host?: string;
  port?: number;
}): Promise<Targets> {
  let frozen = false;
  const hits = new Map<number, number>();
  const down = (i: number): boolean =>
    !frozen && o.flapping(i) && Math.floor((Date.now() + i * 7919) / o.flapMs) % 2 === 1;
  const server = http.createServer((req, res) => {
    const m = /^\/t\/(\d+)$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end('no such target');
    const i = Number(m[1]);
    hits.set(i, (hits.get(i) ?? 0) + 1);
    const bad = down(i);
    res.writeHead(bad ? 500 : 200, { 'Content-Type': 'text/plain' }).end(bad ? 'flapping: down' : 'ok');
  });
  const close = track(server);
  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((r) => server.listen(o.port ?? 0, host, r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (i) => `http://${host}:${port}/t/${i}`,
    isFlapping: o.flapping,
    hits: (i) => hits.get(i) ?? 0,
    freeze: () => {
      frozen = true;
    },
    close,
  };
}

export interface Hit {
  messageId: string;
  /** When the request body had arrived (before the delayed answer). */
  at: number;
  types: string[];
  raw: string;
}

export interface WebhookReceiver {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(random: Random, delayMs: [number, number]): Promise<WebhookReceiver> {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let types: string[] = [];
      try {
        types = (JSON.parse(raw) as { events: { type: string }[] }).events.map((e) => e.type);
      } catch {
        types = ['<not json>'];
      }
      hits.push({ messageId: String(req.headers['x-service-message-id']), at: Date.now(), types, raw });
      setTimeout(() => res.writeHead(200).end('ok'), random.int(delayMs[0], delayMs[1]));
    });
  });
  const close = track(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits, close };
}

/** close() that also ends kept-alive and hanging connections. */
function track(server: http.Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
}
