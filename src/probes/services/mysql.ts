/**
 * mysql checks (MySQL and MariaDB) through `mysql2`, loaded only when a mysql monitor is first
 * checked: connect to the URL's server (TLS as `tls` says, verified by mysql2 against the URL's
 * host with our trust store), log in, run the query in a READ ONLY transaction (text protocol with
 * multiple statements off: one statement only), ROLLBACK, close. No pool.
 * Phases: dns, connect, ttfb (connection ready to the query's answer: TLS and login included, as
 * mysql2 upgrades its socket itself).
 */
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { Connection, ConnectionOptions } from 'mysql2/promise';
import type { CheckError, CheckResult } from '../check-result';
import type { CheckContext, MysqlSettings } from '../kinds';
import { clip } from '../judge/clip';
import { certInfo } from '../checkers/cert';
import { Deadline, lapTimer } from '../checkers/deadline';
import type { CheckerEnv } from '../checkers/env';
import { describeSocketError, hostPort } from '../checkers/net-errors';
import { failure } from '../checkers/result-builders';
import { ServiceUrl } from './service-url';
import { countAnswer, describeAnswer, resolveHost, runSqlCheck, SqlTrace } from './sql-check';
import { MYSQL_URL } from './url-rules';

type Mysql = typeof import('mysql2/promise');
let mysql: Mysql | undefined;

/** Loaded at the first check of a mysql monitor: a service without one never loads it (docs/checks.md). */
function loadMysql(): Mysql {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose: only when a mysql monitor exists
  mysql ??= require('mysql2/promise') as Mysql;
  return mysql;
}

export async function checkMysql(settings: MysqlSettings, ctx: CheckContext, env: CheckerEnv): Promise<CheckResult> {
  return runSqlCheck('mysql', MYSQL_URL, settings, ctx, env, probe);
}

async function probe(
  url: ServiceUrl,
  settings: MysqlSettings,
  ctx: CheckContext,
  env: CheckerEnv,
  deadline: Deadline,
  trace: SqlTrace,
): Promise<{ error: CheckError | null; detail: string | null }> {
  const where = hostPort(url.host, url.port);
  let socket: net.Socket | null = null;
  let connection: Connection | null = null;
  deadline.onExpire(() => socket?.destroy());
  try {
    const address = await resolveHost(url.host, ctx.allow_private_targets, trace);
    const lap = lapTimer();
    // Our socket, connected to the address our guarded lookup chose; mysql2 names the server by
    // `host` (the URL's name) for TLS: SNI and the certificate's name.
    socket = net.connect({ host: address, port: url.port });
    socket.once('connect', () => {
      trace.phases.connect_ms = lap();
      trace.stage = 'the login';
    });
    const config: ConnectionOptions = {
      host: url.host,
      port: url.port,
      user: url.username || 'root',
      password: settings.password ?? undefined,
      database: url.database || undefined,
      stream: socket,
      multipleStatements: false,
      rowsAsArray: true,
      ssl: settings.tls === 'off' ? undefined : sslOptions(settings.tls === 'verify', env),
    };
    connection = await loadMysql().createConnection(config);
    const stream = (connection as unknown as { connection: { stream: net.Socket } }).connection.stream;
    if (stream instanceof tls.TLSSocket) trace.cert = certInfo(stream.getPeerCertificate());
    trace.stage = 'the query';
    await connection.query('START TRANSACTION READ ONLY');
    let counting = true;
    countAnswer(stream, () => counting, trace);
    const [rows] = await connection.query({ sql: settings.query, rowsAsArray: true });
    counting = false;
    trace.phases.ttfb_ms = lap();
    await connection.query('ROLLBACK');
    const list = Array.isArray(rows) ? (rows as unknown[][]) : null;
    return { error: null, detail: describeAnswer(list ? list.length : null, list?.[0]?.[0], false) };
  } catch (err) {
    if (trace.cut) return { error: null, detail: describeAnswer(null, undefined, true) };
    return { error: mysqlError(err, where, settings), detail: null };
  } finally {
    connection?.destroy();
    socket?.destroy();
  }
}

/** verify: mysql2 checks chain and name against the system roots plus env.ca; require: any certificate. */
function sslOptions(verify: boolean, env: CheckerEnv): NonNullable<ConnectionOptions['ssl']> {
  const extra = env.ca === undefined ? [] : typeof env.ca === 'string' ? [env.ca] : env.ca.map((b) => b.toString());
  return {
    rejectUnauthorized: verify,
    verifyIdentity: verify,
    ...(verify && extra.length ? { ca: [...tls.rootCertificates, ...extra] } : {}),
  };
}

/** MySQL and MariaDB error numbers (https://dev.mysql.com/doc/mysql-errors/8.0/en/server-error-reference.html) in our words. */
export function mysqlError(err: unknown, where: string, settings: Pick<MysqlSettings, 'tls'>): CheckError {
  const e = err as { code?: string; errno?: number; sqlMessage?: string; message?: string } | null;
  const said = clip(String(e?.sqlMessage ?? e?.message ?? ''), 200);
  switch (e?.code ?? '') {
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
      return failure('auth_failed', `the server refused the login (${said})`);
    case 'ER_BAD_DB_ERROR':
      return failure('db_not_found', said);
    case 'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION':
      return failure('query_failed', `the query would write, and only reads are run (${said})`);
    case 'ER_SECURE_TRANSPORT_REQUIRED':
      if (settings.tls === 'off')
        return failure(
          'tls_required',
          `the server accepts logins only over TLS: set tls to require or verify (${said})`,
        );
      break;
    case 'HANDSHAKE_NO_SSL_SUPPORT':
      return failure('tls_required', `TLS was asked for, and ${where} does not offer it`);
    case 'HANDSHAKE_SSL_ERROR':
      // mysql2 replaces OpenSSL's code with its own; the message is still OpenSSL's (or Node's name check).
      if (/expired|not yet valid/i.test(said)) return failure('cert_expired', `the server's ${said}`);
      if (/certificate|self.signed|verify|altnames|hostname/i.test(said))
        return failure('cert_invalid', `the server's certificate is not valid: ${said}`);
      return failure('tls', `TLS handshake with ${where} failed: ${said}`);
    case 'PROTOCOL_CONNECTION_LOST':
      return failure('reset', `connection closed by ${where}`);
  }
  if (typeof e?.errno === 'number' && e.sqlMessage !== undefined)
    return failure('query_failed', `${said} (error ${e.errno})`);
  return describeSocketError(err, where);
}
