/**
 * "The internet" of the namespace tests, run inside the NET namespace as its own process
 * (`ip netns exec <net> node ns-farm.js <json options>`; bundled by ns-process.ts). Listens on:
 *
 *   DNS      UDP <dnsHost>:53: each name in `dns` answers A with its addresses in turn (one per
 *            query: public then private, a broken route then a good one); AAAA: empty; others NXDOMAIN
 *   canaries TCP on each of `canaries` (host:port): accept, then close
 *   targets  HTTP on each of `targets` (host:port): GET /t/<i> is 200, or 500 while i is failing
 *   receiver HTTP on `receiver` (host:port): records each alert message
 *   control  HTTP on the unix socket `control`: GET /state, POST /fail/<i>, POST /heal/<i>
 *
 * It prints one line, {"ready":true}, when everything listens.
 */
import * as dgram from 'node:dgram';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import { decodeQuery, encodeResponse, RCODE, RR_TYPE } from '../../../harness/servers/dns-wire';

export interface FarmOptions {
  control: string;
  dnsHost: string;
  dns: Record<string, string[]>;
  canaries: string[];
  targets: string[];
  receiver: string;
}

export interface FarmState {
  /** DNS A queries per name. */
  queries: Record<string, number>;
  /** Hits per target host:port and path. */
  hits: Record<string, number>;
  /** Canary connections per host:port. */
  canary: Record<string, number>;
  messages: { at: number; id: string; types: string[]; monitors: (number | null)[]; texts: string[] }[];
  failing: number[];
}

function hostPort(s: string): { host: string; port: number } {
  const i = s.lastIndexOf(':');
  return { host: s.slice(0, i), port: Number(s.slice(i + 1)) };
}

function listen(server: net.Server, at: string): Promise<void> {
  const { host, port } = hostPort(at);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

async function main(o: FarmOptions): Promise<void> {
  const state: FarmState = { queries: {}, hits: {}, canary: {}, messages: [], failing: [] };

  const udp = dgram.createSocket('udp4');
  udp.on('message', (message, peer) => {
    const q = decodeQuery(message);
    if (!q) return;
    const list = o.dns[q.name];
    if (!list) return void udp.send(encodeResponse(q, RCODE.NXDOMAIN, []), peer.port, peer.address);
    if (q.type !== RR_TYPE.A) return void udp.send(encodeResponse(q, RCODE.NOERROR, []), peer.port, peer.address);
    const n = state.queries[q.name] ?? 0;
    state.queries[q.name] = n + 1;
    const address = list[n % list.length];
    udp.send(
      encodeResponse(q, RCODE.NOERROR, [{ name: q.name, ttl: 0, data: { type: 'A', address } }]),
      peer.port,
      peer.address,
    );
  });
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(53, o.dnsHost, () => resolve());
  });

  for (const c of o.canaries) {
    const server = net.createServer((s) => {
      state.canary[c] = (state.canary[c] ?? 0) + 1;
      s.destroy();
    });
    await listen(server, c);
  }

  for (const t of o.targets) {
    const server = http.createServer((req, res) => {
      const key = `${t}${req.url ?? ''}`;
      state.hits[key] = (state.hits[key] ?? 0) + 1;
      const m = /^\/t\/(\d+)$/.exec(req.url ?? '');
      const bad = m !== null && state.failing.includes(Number(m[1]));
      res.writeHead(bad ? 500 : 200, { 'Content-Type': 'text/plain' }).end(bad ? 'failing on purpose' : 'ok');
    });
    await listen(server, t);
  }

  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          events: { type: string; monitor: { id: number } | null; message: string }[];
        };
        state.messages.push({
          at: Date.now(),
          id: String(req.headers['x-service-message-id']),
          types: body.events.map((e) => e.type),
          monitors: body.events.map((e) => e.monitor?.id ?? null),
          texts: body.events.map((e) => e.message),
        });
      } catch {
        state.messages.push({
          at: Date.now(),
          id: String(req.headers['x-service-message-id']),
          types: ['<not json>'],
          monitors: [],
          texts: [],
        });
      }
      res.writeHead(200).end('ok');
    });
  });
  await listen(receiver, o.receiver);

  fs.rmSync(o.control, { force: true });
  const control = http.createServer((req, res) => {
    const m = /^\/(fail|heal)\/(\d+)$/.exec(req.url ?? '');
    if (req.method === 'POST' && m) {
      const i = Number(m[2]);
      state.failing = state.failing.filter((x) => x !== i);
      if (m[1] === 'fail') state.failing.push(i);
    } else if (req.url !== '/state') {
      return void res.writeHead(404).end();
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(state));
  });
  await new Promise<void>((resolve) => control.listen(o.control, resolve));
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  process.once('SIGTERM', () => process.exit(0));
}

main(JSON.parse(process.argv[2]) as FarmOptions).catch((err: unknown) => {
  process.stderr.write(`ns-farm: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
