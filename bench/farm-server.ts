/**
 * The target farm process (`npm run bench -- farm --port P --endpoints N --tcp-ports K`): loopback
 * targets that count every request per endpoint and remember when it came, so the farm measures
 * whatever monitors point at it (this service or another monitor run for comparison):
 *
 *   HTTP  GET /e/<i>  (i < N)           200 "ok"; any other path 404 (counted too)
 *   DNS   A e<i>.farm.test on UDP P     192.0.2.1; other names NXDOMAIN (the DNS wire code of harness/servers)
 *   TCP   K extra ports                 accept, say nothing (the client closes); each port is an endpoint
 *
 *   GET /__counts                        {total, endpoints: {key: hits}} (keys: /e/<i>, dns:e<i>, tcp:<port>)
 *   GET /__lateness?interval_s&from&to   p50/p99/max of |gap between consecutive hits of an endpoint − interval|
 *                                        over the gaps ending in [from, to] (epoch ms), in ms
 *   POST /__reset                        forget everything counted so far
 *
 * A monitor checks its endpoint every interval, so the gaps between hits show how late checks ran
 * (plus the few ms a check takes, since the next one is due an interval after the previous ended).
 * The farm prints one JSON line when it is ready: {"farm":"ready","port":P,"tcp":[...]}.
 */
import * as dgram from 'node:dgram';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { startTcpTarget, TcpTarget } from '../harness/servers/tcp-farm';
import { decodeQuery, encodeResponse, RCODE, RR_TYPE } from '../harness/servers/dns-wire';
import { spread } from '../harness/stats';

export interface FarmOptions {
  port: number;
  endpoints: number;
  tcpPorts: number;
}

/** Hits per endpoint key, with the time of each (bounded: the newest MAX_TIMES per endpoint). */
class HitLog {
  private readonly times = new Map<string, number[]>();
  total = 0;

  hit(key: string): void {
    this.total += 1;
    const now = performance.timeOrigin + performance.now();
    let list = this.times.get(key);
    if (!list) this.times.set(key, (list = []));
    list.push(now);
    if (list.length > MAX_TIMES) list.splice(0, list.length - MAX_TIMES);
  }

  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [key, list] of this.times) out[key] = list.length;
    return out;
  }

  /**
   * |gap − interval| for consecutive hits of one endpoint, for every gap that ends in [from, to]
   * (its first hit may be earlier: a window of one interval still gives one gap per endpoint).
   */
  drift(intervalMs: number, from: number, to: number): { drift: number[]; endpoints: number } {
    const drift: number[] = [];
    let endpoints = 0;
    for (const list of this.times.values()) {
      let prev: number | null = null;
      let counted = false;
      for (const t of list) {
        if (t > to) break;
        if (prev !== null && t >= from) {
          drift.push(Math.abs(t - prev - intervalMs));
          counted = true;
        }
        prev = t;
      }
      if (counted) endpoints += 1;
    }
    return { drift, endpoints };
  }

  reset(): void {
    this.times.clear();
    this.total = 0;
  }
}

const MAX_TIMES = 10_000;
const DNS_NAME = /^e(\d+)\.farm\.test$/;

export async function runFarm(o: FarmOptions): Promise<void> {
  const log = new HitLog();
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://farm');
    if (url.pathname.startsWith('/__')) return control(log, url, req, res);
    log.hit(url.pathname);
    const m = /^\/e\/(\d+)$/.exec(url.pathname);
    const ok = m !== null && Number(m[1]) < o.endpoints;
    res.writeHead(ok ? 200 : 404, { 'content-type': 'text/plain' }).end(ok ? 'ok' : 'not found');
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.listen(o.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as { port: number }).port;

  // DNS on the same port number over UDP, so one --port names the whole farm.
  const udp = dgram.createSocket('udp4');
  udp.on('message', (message, peer) => {
    const q = decodeQuery(message);
    if (!q) return;
    const m = DNS_NAME.exec(q.name);
    const known = m !== null && Number(m[1]) < o.endpoints;
    log.hit(`dns:${m ? `e${m[1]}` : q.name}`);
    const answers =
      known && q.type === RR_TYPE.A
        ? [{ name: q.name, ttl: 60, data: { type: 'A' as const, address: '192.0.2.1' } }]
        : [];
    udp.send(encodeResponse(q, known ? RCODE.NOERROR : RCODE.NXDOMAIN, answers), peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, '127.0.0.1', () => resolve());
  });

  const tcp: TcpTarget[] = [];
  for (let i = 0; i < o.tcpPorts; i++) {
    // The port is only known once listening, so the handler looks it up through the target.
    const target: TcpTarget = await startTcpTarget(() => log.hit(`tcp:${target.port}`));
    tcp.push(target);
  }

  process.stdout.write(`${JSON.stringify({ farm: 'ready', port, tcp: tcp.map((t) => t.port) })}\n`);

  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  for (const s of sockets) s.destroy();
  await Promise.all([
    new Promise<void>((resolve) => server.close(() => resolve())),
    new Promise<void>((resolve) => udp.close(() => resolve())),
    ...tcp.map((t) => t.close()),
  ]);
}

function control(log: HitLog, url: URL, req: http.IncomingMessage, res: http.ServerResponse): void {
  const json = (value: unknown): void => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  };
  switch (url.pathname) {
    case '/__counts':
      return json({ total: log.total, endpoints: log.counts() });
    case '/__lateness': {
      const intervalMs = Number(url.searchParams.get('interval_s') ?? '60') * 1000;
      const from = Number(url.searchParams.get('from') ?? '0');
      const to = Number(url.searchParams.get('to') ?? String(Number.MAX_SAFE_INTEGER));
      const { drift, endpoints } = log.drift(intervalMs, from, to);
      return json({ endpoints, ...spread(drift) });
    }
    case '/__reset':
      if (req.method !== 'POST') break;
      log.reset();
      return json({ ok: true });
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('unknown control route');
}
