/**
 * A real MariaDB (Debian's mariadb-server: mariadb-install-db and mariadbd) on 127.0.0.1 for the
 * mysql checker's tests and the benchmark: a free port, a data directory in a temporary
 * directory, TLS with the farm's certificate, root with a password. mariadbd refuses root unless
 * told `--user=root`, which a throwaway server in a temporary directory may be told.
 */
import { writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { createConnection } from 'mysql2/promise';
import { Child, startChild, stopChild } from '../children';
import { freePort, removeDir, tempDir } from '../paths';
import type { KeyAndCert } from './certs';
import { waitForPort } from './redis-server';

export const MARIADB_ROOT_PASSWORD = 'root-pw';

export interface MariadbServer {
  port: number;
  /** Runs SQL as root. */
  sql(text: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startMariadb(tls: KeyAndCert): Promise<MariadbServer> {
  const dir = tempDir('mariadb');
  const data = path.join(dir, 'data');
  const user = process.getuid?.() === 0 ? 'root' : (process.env.USER ?? 'nobody');
  execFileSync(
    'mariadb-install-db',
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--user=${user}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ],
    { stdio: 'pipe' },
  );
  writeFileSync(path.join(dir, 'key.pem'), tls.key, { mode: 0o600 });
  writeFileSync(path.join(dir, 'cert.pem'), tls.cert);
  const port = await freePort();
  const child: Child = startChild('mariadbd', [
    '--no-defaults',
    `--datadir=${data}`,
    `--user=${user}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--socket=${path.join(dir, 'sock')}`,
    '--skip-log-bin',
    '--innodb-buffer-pool-size=16M',
    '--skip-name-resolve',
    `--ssl-cert=${path.join(dir, 'cert.pem')}`,
    `--ssl-key=${path.join(dir, 'key.pem')}`,
  ]);
  await waitForPort(port, child, 30_000);
  let password = '';
  const sql = async (text: string) => {
    const c = await createConnection({ host: '127.0.0.1', port, user: 'root', password, multipleStatements: true });
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  await sql(
    `ALTER USER IF EXISTS root@localhost IDENTIFIED BY '${MARIADB_ROOT_PASSWORD}';` +
      `CREATE USER IF NOT EXISTS root@'127.0.0.1';` +
      `ALTER USER root@'127.0.0.1' IDENTIFIED BY '${MARIADB_ROOT_PASSWORD}';` +
      `GRANT ALL ON *.* TO root@'127.0.0.1' WITH GRANT OPTION`,
  );
  password = MARIADB_ROOT_PASSWORD;
  return {
    port,
    sql,
    stop: async () => {
      await stopChild(child, 15_000);
      removeDir(dir);
    },
  };
}
