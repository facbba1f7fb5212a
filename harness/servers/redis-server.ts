/**
 * A real redis-server (Debian's `redis-server`) on 127.0.0.1 for the redis checker's tests and the
 * benchmark: a free port, a temporary directory, no persistence, optionally a password and a TLS
 * port with the farm's certificates. Stopped with SIGTERM (and its directory removed) by stop().
 */
import { writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Child, startChild, stopChild } from '../children';
import { freePort, removeDir, tempDir } from '../paths';
import type { KeyAndCert } from './certs';

export interface RedisServer {
  port: number;
  /** The TLS port, when started with a certificate. */
  tlsPort: number | null;
  stop(): Promise<void>;
}

export async function startRedis(opts: { password?: string; tls?: KeyAndCert } = {}): Promise<RedisServer> {
  const dir = tempDir('redis');
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
  args.push('--databases', '4');
  if (opts.password) args.push('--requirepass', opts.password);
  let tlsPort: number | null = null;
  if (opts.tls) {
    tlsPort = await freePort();
    writeFileSync(path.join(dir, 'key.pem'), opts.tls.key);
    writeFileSync(path.join(dir, 'cert.pem'), opts.tls.cert);
    args.push('--tls-port', String(tlsPort), '--tls-cert-file', path.join(dir, 'cert.pem'));
    args.push('--tls-key-file', path.join(dir, 'key.pem'), '--tls-auth-clients', 'no');
  }
  const child: Child = startChild('redis-server', args);
  await waitForPort(port, child);
  return {
    port,
    tlsPort,
    stop: async () => {
      await stopChild(child, 5000);
      removeDir(dir);
    },
  };
}

/** Waits until something accepts connections on the port (the server started), at most 10 s. */
export async function waitForPort(port: number, child: Child, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms:\n${child.tail()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
