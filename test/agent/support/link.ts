/**
 * A TCP link on 127.0.0.1 between agents and the service that the test can cut and mend: cut, it
 * drops every open connection and resets new ones (as a dead uplink or a stopped service looks
 * to the agent), without the service restarting on another port.
 */
import * as net from 'node:net';

export interface Link {
  url: string;
  cut(): void;
  mend(): void;
  close(): Promise<void>;
}

export async function startLink(targetPort: number): Promise<Link> {
  let open = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!open) return client.resetAndDestroy();
    relay(client, targetPort, sockets);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    cut: () => {
      open = false;
      for (const s of sockets) s.destroy();
    },
    mend: () => {
      open = true;
    },
    close: () => closeAll(server, sockets),
  };
}

/** Pipes `client` to the service on 127.0.0.1:<targetPort> and back; both sockets are kept in `sockets`. */
function relay(client: net.Socket, targetPort: number, sockets: Set<net.Socket>): void {
  const upstream = net.connect(targetPort, '127.0.0.1');
  for (const s of [client, upstream]) {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  }
  client.pipe(upstream).pipe(client);
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
}

function closeAll(server: net.Server, sockets: Set<net.Socket>): Promise<void> {
  return new Promise<void>((r) => {
    for (const s of sockets) s.destroy();
    server.close(() => r());
  });
}

export interface TappedLink {
  /** Every `"seq":N` the agents sent through it, in the order the service received them. */
  seqs: number[];
  close(): Promise<void>;
}

/**
 * A link on a unix socket (where test/agent/support/ns-relay.ts pipes an agent's connections out
 * of its network namespace) to the service on 127.0.0.1:<targetPort>, which reads the plain
 * requests going by: the results' seqs in the order they reach the service, to see that a spool
 * is sent in order (requests are plain JSON past the relay, which ends TLS).
 */
export async function startTappedLink(socketPath: string, targetPort: number): Promise<TappedLink> {
  const seqs: number[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    // Only complete matches (the number followed by its `,` or `}`): a chunk may end mid-number.
    const re = /"seq":(\d+)[,}]/g;
    let text = '';
    client.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      let read = 0;
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        seqs.push(Number(m[1]));
        read = re.lastIndex;
      }
      // What is left may hold the start of the next match; the rest was read.
      text = text.slice(Math.max(read, text.length - 64));
    });
    relay(client, targetPort, sockets);
  });
  await new Promise<void>((r) => server.listen(socketPath, r));
  return {
    seqs,
    close: () => closeAll(server, sockets),
  };
}
