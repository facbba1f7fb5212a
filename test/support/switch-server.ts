/** An http server on 127.0.0.1 whose answer the test switches (status code, delay). */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SwitchServer {
  url: string;
  status: number;
  delayMs: number;
  hits: number;
  /** The next this-many requests answer 503 whatever `status` says. */
  failNext: number;
  close(): Promise<void>;
}

export async function startSwitchServer(): Promise<SwitchServer> {
  const state = { status: 200, delayMs: 0, hits: 0, failNext: 0 };
  const server = http.createServer((_req, res) => {
    state.hits += 1;
    const failing = state.failNext > 0;
    if (failing) state.failNext -= 1;
    setTimeout(() => {
      res.statusCode = failing ? 503 : state.status;
      res.end(`status ${state.status}`);
    }, state.delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}
