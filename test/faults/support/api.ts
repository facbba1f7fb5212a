/**
 * An HTTP client for the service under test, over TCP (`http://127.0.0.1:<port>`) or over a unix
 * socket (a service inside a network namespace is reached through a bridge on a socket file, so
 * the test's own namespace needs no address, no route and no link to the namespaces).
 */
import * as http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or Buffer as it is. */
  body?: unknown;
  timeoutMs?: number;
  agent?: http.Agent;
}

export class Api {
  private constructor(private readonly base: { url: string } | { socketPath: string; host: string }) {}

  static tcp(url: string): Api {
    return new Api({ url });
  }

  /** Requests go to the unix socket; `host` is what the Host header says. */
  static unix(socketPath: string, host: string): Api {
    return new Api({ socketPath, host });
  }

  request(method: string, pathAndQuery: string, o: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    let payload: Buffer | null = null;
    if (o.body !== undefined) {
      payload = Buffer.isBuffer(o.body)
        ? o.body
        : Buffer.from(typeof o.body === 'string' ? o.body : JSON.stringify(o.body));
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
        headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(payload.length);
    }
    const started = performance.now();
    const target: http.RequestOptions =
      'url' in this.base
        ? { ...urlParts(this.base.url), path: pathAndQuery }
        : { socketPath: this.base.socketPath, path: pathAndQuery, headers: { Host: this.base.host } };
    return new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        { ...target, method, headers: { ...target.headers, ...headers }, agent: o.agent ?? false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
              ms: performance.now() - started,
            }),
          );
          res.on('error', reject);
        },
      );
      req.setTimeout(o.timeoutMs ?? 30_000, () =>
        req.destroy(new Error(`${method} ${pathAndQuery}: no answer in time`)),
      );
      req.on('error', reject);
      req.end(payload ?? undefined);
    });
  }

  /** A JSON answer with a status in `ok`, or an error carrying the status and the body. */
  async json<T>(method: string, pathAndQuery: string, o: RequestOptions = {}, ok: number[] = [200, 201]): Promise<T> {
    const a = await this.request(method, pathAndQuery, o);
    if (!ok.includes(a.status)) throw new Error(`${method} ${pathAndQuery}: HTTP ${a.status} ${a.body.slice(0, 300)}`);
    return JSON.parse(a.body) as T;
  }
}

function urlParts(url: string): http.RequestOptions {
  const u = new URL(url);
  return { hostname: u.hostname, port: u.port };
}
