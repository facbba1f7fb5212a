/**
 * A real PostgreSQL (Debian's postgresql-15: initdb and postgres from /usr/lib/postgresql/15/bin)
 * on 127.0.0.1 for the postgres checker's tests and the benchmark: a free port, a cluster in a
 * temporary directory, TLS with the farm's certificate, SCRAM passwords, and an hba file where the
 * role `tlsonly` may only log in over TLS. PostgreSQL refuses to run as root: as root, the cluster
 * belongs to the `postgres` user (made by the Debian package) and both programs run as it.
 */
import { chmodSync, chownSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { Client } from 'pg';
import { Child, startChild, stopChild } from '../children';
import { freePort, removeDir, tempDir } from '../paths';
import type { KeyAndCert } from './certs';
import { waitForPort } from './redis-server';

export const PG_BIN = '/usr/lib/postgresql/15/bin';
export const PG_SUPER_PASSWORD = 'super-pw';

export interface PostgresServer {
  port: number;
  /** Runs SQL as the superuser (database postgres, or `database`). */
  sql(text: string, database?: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startPostgres(tls: KeyAndCert): Promise<PostgresServer> {
  const dir = tempDir('postgres');
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? Number(execFileSync('id', ['-u', 'postgres']).toString().trim()) : null;
  const run = (cmd: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  writeFileSync(path.join(dir, 'pw'), PG_SUPER_PASSWORD);
  writeFileSync(path.join(dir, 'server.key'), tls.key, { mode: 0o600 });
  writeFileSync(path.join(dir, 'server.crt'), tls.cert);
  if (owner !== null) {
    chmodSync(dir, 0o755);
    for (const f of ['', 'pw', 'server.key', 'server.crt']) chownSync(path.join(dir, f), owner, -1);
  }
  const [initCmd, initArgs] = run(path.join(PG_BIN, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=scram-sha-256',
    `--pwfile=${path.join(dir, 'pw')}`,
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  execFileSync(initCmd, initArgs, { stdio: 'pipe' });
  writeFileSync(
    path.join(data, 'pg_hba.conf'),
    [
      'hostnossl all tlsonly 127.0.0.1/32 reject',
      'host all all 127.0.0.1/32 scram-sha-256',
      'host all all ::1/128 scram-sha-256',
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const [cmd, args] = run(path.join(PG_BIN, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'ssl=on',
    '-c',
    `ssl_cert_file=${path.join(dir, 'server.crt')}`,
    '-c',
    `ssl_key_file=${path.join(dir, 'server.key')}`,
  ]);
  const child: Child = startChild(cmd, args);
  await waitForPort(port, child, 30_000);
  const sql = async (text: string, database = 'postgres') => {
    const c = new Client({ host: '127.0.0.1', port, user: 'postgres', password: PG_SUPER_PASSWORD, database });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  // The port opens a moment before logins are accepted ("the database system is starting up").
  for (let i = 0; ; i++) {
    try {
      await sql('SELECT 1');
      break;
    } catch (err) {
      if (i > 100) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port,
    sql,
    stop: async () => {
      await stopChild(child, 10_000);
      removeDir(dir);
    },
  };
}
