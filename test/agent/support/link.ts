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
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
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
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
