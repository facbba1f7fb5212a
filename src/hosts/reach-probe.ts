/**
 * Asks an address, on port 80 as a CA does, for an HTTP-01 challenge under a host's name: the
 * service's own pre-check before it tells the CA to validate, and the proof that an address the
 * DNS names reaches this server (a token only this process knows comes back). Connects to the
 * address given (read at the zone's nameservers), never to a name: nothing here resolves.
 */
import * as http from 'node:http';
import { isIP } from 'node:net';
import { CHALLENGE_PREFIX } from './challenges';

const MAX_BODY = 4096;

/**
 * `unreachable`: no HTTP answer at all (refused, timed out: also what a router without NAT
 * loopback does to its own public address); `wrong`: another server answered.
 */
export type Reach = { ok: true } | { ok: false; kind: 'unreachable' | 'wrong'; detail: string };

export async function fetchChallenge(
  ip: string,
  port: number,
  host: string,
  token: string,
  expected: string,
  timeoutMs: number,
): Promise<Reach> {
  const where = `http://${host}${CHALLENGE_PREFIX}${token} at ${isIP(ip) === 6 ? `[${ip}]` : ip}${port === 80 ? '' : `:${port}`}`;
  return new Promise<Reach>((resolve) => {
    const req = http.request({
      host: ip,
      port,
      path: `${CHALLENGE_PREFIX}${token}`,
      method: 'GET',
      headers: { Host: host },
      agent: false,
      timeout: timeoutMs,
    });
    const done = (r: Reach) => {
      req.destroy();
      resolve(r);
    };
    req.on('timeout', () =>
      done({
        ok: false,
        kind: 'unreachable',
        detail: `${where}: no answer within ${timeoutMs} ms (is port 80 forwarded to FARSIGHT_ACME_HTTP_LISTEN?)`,
      }),
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({
        ok: false,
        kind: 'unreachable',
        detail: `${where}: ${err.code === 'ECONNREFUSED' ? 'connection refused (nothing listens on port 80 there)' : (err.code ?? err.message)}`,
      }),
    );
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY)
          return done({ ok: false, kind: 'wrong', detail: `${where}: answered something else than the challenge` });
        chunks.push(c);
      });
      res.on('end', () => {
        if (res.statusCode !== 200)
          return done({
            ok: false,
            kind: 'wrong',
            detail: `${where}: answered HTTP ${res.statusCode}, not the challenge (another server answers there)`,
          });
        const body = Buffer.concat(chunks).toString('utf8').trim();
        done(
          body === expected
            ? { ok: true }
            : {
                ok: false,
                kind: 'wrong',
                detail: `${where}: answered something else than the challenge (another server answers there)`,
              },
        );
      });
      res.on('error', () => done({ ok: false, kind: 'unreachable', detail: `${where}: the answer broke off` }));
    });
    req.end();
  });
}
