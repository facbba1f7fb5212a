/**
 * postgres checks through `pg` (loaded only when a postgres monitor is first checked): connect to
 * the URL's server (TLS as `tls` says), log in, and run the query in a READ ONLY transaction
 * through the extended protocol (one statement only), then ROLLBACK and close. No pool: one
 * connection per check, closed at the end or at the deadline.
 * Phases: dns, connect, tls, ttfb (connection ready to the query's answer, login included).
 */
import * as net from 'node:net';
import type * as tls from 'node:tls';
import type { Client, ClientConfig, QueryArrayConfig, QueryArrayResult } from 'pg';
import type { CheckError, CheckResult } from '../check-result';
import type { CheckContext, PostgresSettings } from '../kinds';
import { clip } from '../judge/clip';
import { skipNodeIdentityCheck, trustOptions } from '../checkers/cert';
import { Deadline, lapTimer } from '../checkers/deadline';
import type { CheckerEnv } from '../checkers/env';
import { describeSocketError, hostPort } from '../checkers/net-errors';
import { CheckFailure, failure } from '../checkers/result-builders';
import { ServiceUrl } from './service-url';
import { countAnswer, describeAnswer, judgeHandshake, resolveHost, runSqlCheck, SqlTrace, timedOut } from './sql-check';
import { POSTGRES_URL } from './url-rules';

type Pg = typeof import('pg');
let pg: Pg | undefined;

/** Loaded at the first check of a postgres monitor: a service without one never loads it (docs/checks.md). */
function loadPg(): Pg {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose: only when a postgres monitor exists
  pg ??= require('pg') as Pg;
  return pg;
}

export async function checkPostgres(
  settings: PostgresSettings,
  ctx: CheckContext,
  env: CheckerEnv,
): Promise<CheckResult> {
  return runSqlCheck('postgres', POSTGRES_URL, settings, ctx, env, probe);
}

async function probe(
  url: ServiceUrl,
  settings: PostgresSettings,
  ctx: CheckContext,
  env: CheckerEnv,
  deadline: Deadline,
  trace: SqlTrace,
): Promise<{ error: CheckError | null; detail: string | null }> {
  const where = hostPort(url.host, url.port);
  let client: Client | null = null;
  let socket: net.Socket | null = null;
  deadline.onExpire(() => socket?.destroy());
  try {
    const address = await resolveHost(url.host, ctx.allow_private_targets, trace);
    const lap = lapTimer();
    let counting = false;
    const config: ClientConfig = {
      host: address,
      port: url.port,
      user: url.username || 'postgres',
      password: settings.password ?? undefined,
      database: url.database || undefined,
      application_name: 'farsight',
      // The server gives up the query too when our deadline would: nothing runs on after the check.
      statement_timeout: ctx.timeout_ms,
      // The socket is ours: its events give the phases, the deadline destroys it.
      stream: () => {
        socket = new net.Socket();
        socket.once('connect', () => {
          trace.phases.connect_ms = lap();
          trace.stage = settings.tls === 'off' ? 'the login' : 'the TLS handshake';
        });
        countAnswer(socket, () => counting, trace);
        return socket;
      },
      ssl: settings.tls === 'off' ? false : sslOptions(url.host, env),
    };
    client = new (loadPg().Client)(config);
    client.on('error', () => undefined); // after the check, a closing connection may still report
    if (settings.tls !== 'off') watchTls(client, url.host, settings.tls === 'verify', trace, lap);
    trace.stage = 'connecting';
    await client.connect();
    trace.stage = 'the query';
    await client.query('BEGIN READ ONLY');
    counting = true;
    // Extended protocol (Parse, Bind, Execute): the server takes exactly one statement.
    const query: QueryArrayConfig & { queryMode: 'extended' } = {
      text: settings.query,
      rowMode: 'array',
      queryMode: 'extended',
    };
    const answer: QueryArrayResult = await client.query(query);
    counting = false;
    trace.phases.ttfb_ms = lap();
    await client.query('ROLLBACK');
    const first: unknown = answer.rows[0]?.[0];
    return { error: null, detail: describeAnswer(answer.rowCount, first, false) };
  } catch (err) {
    if (trace.cut) return { error: null, detail: describeAnswer(null, undefined, true) };
    // The server's statement_timeout is the monitor's timeout: when its cancel is read before our
    // deadline's timer runs (a busy event loop), the check still timed out, and says so alike.
    if (isStatementTimeout(err)) return { error: timedOut(ctx.timeout_ms, trace, where), detail: null };
    return { error: trace.problem ?? pgError(err, where, settings), detail: null };
  } finally {
    (socket as net.Socket | null)?.destroy();
  }
}

function sslOptions(name: string, env: CheckerEnv): tls.ConnectionOptions {
  return {
    // Verified in watchTls, as the tls kind verifies, so a failure says which way it failed.
    rejectUnauthorized: false,
    checkServerIdentity: skipNodeIdentityCheck,
    servername: net.isIP(name) ? undefined : name,
    ...trustOptions(env),
  };
}

/** pg swaps in a TLS socket after the server's yes ('S'): judge its certificate when its handshake ends. */
function watchTls(client: Client, name: string, verify: boolean, trace: SqlTrace, lap: () => number): void {
  const connection = (client as unknown as { connection: NodeJS.EventEmitter & { stream: tls.TLSSocket } }).connection;
  connection.once('sslconnect', () => {
    const socket = connection.stream;
    socket.once('secureConnect', () => {
      trace.phases.tls_ms = lap();
      trace.stage = 'the login';
      const problem = judgeHandshake(socket, name, verify, trace);
      if (problem) {
        trace.problem = problem;
        socket.destroy(new CheckFailure(problem));
      }
    });
  });
}

/** The server cancelled the query at the statement_timeout we gave it (SQLSTATE 57014, not a user's cancel). */
export function isStatementTimeout(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '57014' && typeof e.message === 'string' && /statement timeout/i.test(e.message);
}

/** PostgreSQL's error codes (SQLSTATE, https://www.postgresql.org/docs/current/errcodes-appendix.html) in our words. */
export function pgError(err: unknown, where: string, settings: Pick<PostgresSettings, 'tls'>): CheckError {
  const e = err as { code?: string; message?: string } | null;
  const said = clip(String(e?.message ?? ''), 200);
  switch (e?.code ?? '') {
    case '28P01':
      return failure('auth_failed', `the server refused the password (${said})`);
    case '28000':
      if (settings.tls === 'off' && /no encryption/i.test(said))
        return failure(
          'tls_required',
          `the server accepts this login only over TLS: set tls to require or verify (${said})`,
        );
      return failure('auth_failed', `the server refused the login (${said})`);
    case '3D000':
      return failure('db_not_found', said);
    case '25006':
      return failure('query_failed', `the query would write, and only reads are run (${said})`);
    case '57014':
      return failure('query_failed', `the query was cancelled (${said})`);
  }
  if (e?.message === 'The server does not support SSL connections')
    return failure('tls_required', `TLS was asked for, and ${where} does not offer it`);
  if (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))
    return failure('query_failed', `${said} (SQLSTATE ${e.code})`);
  if (e?.message === 'Connection terminated unexpectedly') return failure('reset', `connection closed by ${where}`);
  return describeSocketError(err, where);
}
