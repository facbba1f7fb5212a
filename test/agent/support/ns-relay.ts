/**
 * Run inside a network namespace (`ip netns exec <ns> node ns-relay.js <json options>`; bundled
 * and started by startScriptInNamespace of test/faults/support/ns-process.ts). Each relay listens
 * on a host:port of the namespace, over TLS when it is given a key and certificate (files), and
 * pipes every connection to a unix socket the test listens on: unix sockets live in the file
 * system, which namespaces do not separate, so the test reaches into the namespace without any
 * address, route or link in its own (test/faults/support/netns.ts).
 *
 * It prints {"ready":true} when every relay listens.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as tls from 'node:tls';

export interface Relay {
  host: string;
  port: number;
  /** The unix socket each connection is piped to. */
  to: string;
  /** PEM files: the relay ends TLS (the agent verifies it), and pipes the plain bytes on. */
  tls?: { key: string; cert: string };
}

function pipe(client: net.Socket, to: string): void {
  const upstream = net.connect(to);
  client.pipe(upstream).pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  for (const s of [client, upstream]) {
    s.on('error', end);
    s.on('close', end);
  }
}

async function main(relays: Relay[]): Promise<void> {
  for (const r of relays) {
    const server = r.tls
      ? tls.createServer({ key: fs.readFileSync(r.tls.key), cert: fs.readFileSync(r.tls.cert) }, (s) => pipe(s, r.to))
      : net.createServer((s) => pipe(s, r.to));
    // A handshake cut short by the link going down is the test's doing, not the relay's failure.
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(r.port, r.host, () => resolve());
    });
  }
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  process.once('SIGTERM', () => process.exit(0));
}

main(JSON.parse(process.argv[2]) as Relay[]).catch((err: unknown) => {
  process.stderr.write(`ns-relay: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
