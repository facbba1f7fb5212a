/**
 * A real MQTT broker (Debian's `mosquitto`) on 127.0.0.1 for the mqtt checker's tests: a free
 * port, a temporary directory with its configuration, no persistence; optionally users (a
 * password file made by `mosquitto_passwd`, anonymous logins then refused), an access list, and a
 * TLS listener with the farm's certificates. Stopped with SIGTERM (and its directory removed).
 * Configuration as mosquitto.conf(5) of mosquitto 2.0 describes it.
 */
import { execFileSync } from 'node:child_process';
import { userInfo } from 'node:os';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Child, startChild, stopChild } from '../children';
import { freePort, removeDir, tempDir } from '../paths';
import type { KeyAndCert } from './certs';
import { waitForPort } from './redis-server';

export interface MosquittoServer {
  port: number;
  /** The TLS port, when started with a certificate. */
  tlsPort: number | null;
  stop(): Promise<void>;
}

export interface MosquittoOptions {
  /** user → password; with any, anonymous clients are refused. */
  users?: Record<string, string>;
  /** The access list's text (mosquitto.conf(5), acl_file). */
  acl?: string;
  tls?: KeyAndCert;
}

export async function startMosquitto(opts: MosquittoOptions = {}): Promise<MosquittoServer> {
  const dir = tempDir('mosquitto');
  const port = await freePort();
  const file = (name: string) => path.join(dir, name);
  // Started as root, mosquitto drops to the `mosquitto` user, which could not read this directory.
  const lines = [`user ${userInfo().username}`, 'persistence false', 'log_dest stderr', 'per_listener_settings false'];
  lines.push(`listener ${port} 127.0.0.1`);
  let tlsPort: number | null = null;
  if (opts.tls) {
    tlsPort = await freePort();
    writeFileSync(file('key.pem'), opts.tls.key);
    writeFileSync(file('cert.pem'), opts.tls.cert);
    lines.push(`listener ${tlsPort} 127.0.0.1`, `certfile ${file('cert.pem')}`, `keyfile ${file('key.pem')}`);
  }
  const users = Object.entries(opts.users ?? {});
  if (users.length > 0) {
    writeFileSync(file('passwd'), '');
    for (const [user, password] of users) execFileSync('mosquitto_passwd', ['-b', file('passwd'), user, password]);
    lines.push(`password_file ${file('passwd')}`, 'allow_anonymous false');
  } else {
    lines.push('allow_anonymous true');
  }
  if (opts.acl !== undefined) {
    writeFileSync(file('acl'), opts.acl);
    lines.push(`acl_file ${file('acl')}`);
  }
  writeFileSync(file('mosquitto.conf'), `${lines.join('\n')}\n`);
  const child: Child = startChild('mosquitto', ['-c', file('mosquitto.conf')]);
  await waitForPort(port, child);
  if (tlsPort !== null) await waitForPort(tlsPort, child);
  return {
    port,
    tlsPort,
    stop: async () => {
      await stopChild(child, 5000);
      removeDir(dir);
    },
  };
}
