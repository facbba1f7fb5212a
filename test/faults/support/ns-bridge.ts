/**
 * Run inside the service's namespace (`ip netns exec <svc> node ns-bridge.js <json options>`;
 * bundled by ns-process.ts):
 *
 *   api      a unix socket whose connections are piped to 127.0.0.1:<servicePort> in the
 *            namespace, so the test reaches the service without any route into the namespace
 *   private  an HTTP server on 127.0.0.1:<privatePort> in the namespace: a private service on
 *            the service's own host (what a DNS rebinding attack would aim at); it counts hits
 *   control  HTTP on a unix socket: GET /state answers {privateHits}
 *
 * It prints {"ready":true} when everything listens.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';

interface BridgeOptions {
  api: string;
  servicePort: number;
  control: string;
  privatePort: number;
}

async function main(o: BridgeOptions): Promise<void> {
  let privateHits = 0;
  for (const f of [o.api, o.control]) fs.rmSync(f, { force: true });
  const pipe = net.createServer((client) => {
    const upstream = net.connect(o.servicePort, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((r) => pipe.listen(o.api, r));
  const secret = http.createServer((_req, res) => {
    privateHits += 1;
    res.writeHead(200).end('the private admin panel');
  });
  await new Promise<void>((r) => secret.listen(o.privatePort, '127.0.0.1', r));
  const control = http.createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ privateHits })),
  );
  await new Promise<void>((r) => control.listen(o.control, r));
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  process.once('SIGTERM', () => process.exit(0));
}

main(JSON.parse(process.argv[2]) as BridgeOptions).catch((err: unknown) => {
  process.stderr.write(`ns-bridge: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
