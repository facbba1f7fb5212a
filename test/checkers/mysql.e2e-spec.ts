/**
 * mysql checks against a real MariaDB 10.11 (Debian's, started once for the suite on a free port,
 * in a temporary directory): up over plain TCP and verified TLS, each documented failure (wrong
 * password, a database that does not exist, a query error, a write the read-only transaction
 * refuses, TLS required by the server's user but off, TLS asked of a server without it, server
 * down), an answer over 64 KB, and a query that never ends bounded by the timeout.
 */
import { FakeClock } from '../../src/common/clock';
import { runCheck } from '../../src/probes/checkers';
import { checkMysql } from '../../src/probes/services/mysql';
import { farmCerts } from '../../harness/servers/certs';
import { MariadbServer, startMariadb } from '../../harness/servers/mariadb-server';
import { freePort, startTcpTarget, TcpTarget } from '../../harness/servers/tcp-farm';
import { makeCtx, makeEnv, makeMysql, timedWithStall } from './factories';

jest.setTimeout(120_000);

const certs = farmCerts();
// Certificates are made against the real time, so this clock must read close to it.
const env = { ...makeEnv(certs.ca), clock: new FakeClock(Date.now()) };
const ctx = makeCtx({ timeout_ms: 5000 });
let server: MariadbServer;
let noTls: TcpTarget;
let url: (user?: string, db?: string, host?: string) => string;

/**
 * A server's greeting without the SSL capability (protocol 10, capability flags without
 * CLIENT_SSL 0x0800: https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_handshake_v10.html).
 */
function greetingWithoutTls(): Buffer {
  const body = Buffer.concat([
    Buffer.from([10]),
    Buffer.from('5.7.0-fake\0'),
    Buffer.from([1, 0, 0, 0]),
    Buffer.from('abcdefgh\0'),
    Buffer.from([0x00, 0x82]), // capabilities (lower): PROTOCOL_41 (0x0200) and SECURE_CONNECTION (0x8000), no SSL
    Buffer.from([33, 2, 0]),
    Buffer.from([0x00, 0x00]), // capabilities (upper)
    Buffer.from([21]),
    Buffer.alloc(10),
    Buffer.from('ijklmnopqrst\0'),
  ]);
  const head = Buffer.from([body.length & 0xff, (body.length >> 8) & 0xff, 0, 0]);
  return Buffer.concat([head, body]);
}

beforeAll(async () => {
  [server, noTls] = await Promise.all([
    startMariadb(certs.valid),
    startTcpTarget((s) => s.write(greetingWithoutTls())),
  ]);
  await server.sql(
    "CREATE DATABASE shop; CREATE TABLE shop.orders (id int, state text); INSERT INTO shop.orders VALUES (1, 'open'), (2, 'done');" +
      "CREATE USER app@'127.0.0.1' IDENTIFIED BY 'app-pw'; GRANT ALL ON shop.* TO app@'127.0.0.1';" +
      "CREATE USER tlsonly@'127.0.0.1' IDENTIFIED BY 'tls-pw' REQUIRE SSL;",
  );
  url = (user = 'app', db = 'shop', host = '127.0.0.1') => `mysql://${user}@${host}:${server.port}/${db}`;
});
afterAll(async () => {
  await Promise.all([server?.stop(), noTls?.close()]);
});

describe('mysql check (MariaDB)', () => {
  it('is up when it logs in and the query answers, with the first value and the phases', async () => {
    const r = await runCheck(
      'mysql',
      makeMysql(url(), { password: 'app-pw', query: "SELECT count(*) FROM orders WHERE state = 'open'" }),
      ctx,
      env,
    );
    expect(r.error).toBeNull();
    expect(r.detail).toBe('1 row: 1');
    expect(r.phases).toEqual({
      dns_ms: null,
      connect_ms: expect.any(Number),
      tls_ms: null,
      ttfb_ms: expect.any(Number),
    });
  });

  it('is up over TLS with the certificate verified against the URL host, and reports it', async () => {
    const r = await checkMysql(
      makeMysql(url('app', 'shop', 'localhost'), { password: 'app-pw', tls: 'verify' }),
      ctx,
      env,
    );
    expect(r.error).toBeNull();
    expect(r.cert?.subject).toBe('localhost');
  });

  it('fails with cert_invalid when verify meets an untrusted certificate, which require accepts', async () => {
    const untrusting = { ...env, ca: undefined };
    const settings = makeMysql(url('app', 'shop', 'localhost'), { password: 'app-pw', tls: 'verify' });
    const r = await checkMysql(settings, ctx, untrusting);
    expect(r.error?.code).toBe('cert_invalid');
    expect(r.error?.message).toMatch(/^the server's certificate is not valid: /);
    expect((await checkMysql({ ...settings, tls: 'require' }, ctx, untrusting)).error).toBeNull();
  });

  it('fails with auth_failed on a wrong password, without naming it', async () => {
    const r = await checkMysql(makeMysql(url(), { password: 'not-it' }), ctx, env);
    expect(r.error?.code).toBe('auth_failed');
    expect(r.error?.message).not.toContain('not-it');
  });

  it('fails with db_not_found for a database that does not exist', async () => {
    const r = await checkMysql(makeMysql(url('root', 'nope'), { password: 'root-pw' }), ctx, env);
    expect(r.error?.code).toBe('db_not_found');
  });

  it('fails with query_failed when the query fails', async () => {
    const r = await checkMysql(makeMysql(url(), { password: 'app-pw', query: 'SELECT * FROM missing' }), ctx, env);
    expect(r.error).toEqual({ code: 'query_failed', message: "Table 'shop.missing' doesn't exist (error 1146)" });
  });

  it('runs the query read-only: a write the field rules did not see is refused by the server', async () => {
    await server.sql("CREATE SEQUENCE shop.s; GRANT ALL ON shop.s TO app@'127.0.0.1'");
    const r = await checkMysql(makeMysql(url(), { password: 'app-pw', query: 'SELECT nextval(s)' }), ctx, env);
    expect(r.error?.code).toBe('query_failed');
  });

  it('reads at most 64 KB of an answer', async () => {
    const query = "SELECT repeat('x', 1000) FROM seq_1_to_1000";
    const r = await checkMysql(makeMysql(url(), { password: 'app-pw', query }), ctx, env);
    expect(r.error).toBeNull();
    expect(r.detail).toBe('answered more than 64 KB; the rest was not read');
  });

  it('fails with auth_failed for a user that must use TLS, and is up with it', async () => {
    const r = await checkMysql(makeMysql(url('tlsonly', ''), { password: 'tls-pw' }), ctx, env);
    expect(r.error?.code).toBe('auth_failed');
    expect(
      (await checkMysql(makeMysql(url('tlsonly', ''), { password: 'tls-pw', tls: 'require' }), ctx, env)).error,
    ).toBeNull();
  });

  it('fails with tls_required when TLS is asked of a server that has none', async () => {
    const r = await checkMysql(makeMysql(`mysql://app@127.0.0.1:${noTls.port}/shop`, { tls: 'require' }), ctx, env);
    expect(r.error).toEqual({
      code: 'tls_required',
      message: `TLS was asked for, and 127.0.0.1:${noTls.port} does not offer it`,
    });
  });

  it('fails with refused when the server is down', async () => {
    const r = await checkMysql(makeMysql(`mysql://app@127.0.0.1:${await freePort()}/shop`), ctx, env);
    expect(r.error?.code).toBe('refused');
  });

  it('is bounded by the timeout when the query never ends', async () => {
    const {
      value: r,
      wallMs,
      stallMs,
    } = await timedWithStall(() =>
      checkMysql(
        makeMysql(url(), { password: 'app-pw', query: 'SELECT sleep(30)' }),
        makeCtx({ timeout_ms: 1500 }),
        env,
      ),
    );
    expect(r.error).toEqual({
      code: 'timeout',
      message: `timed out after 1500 ms during the query (127.0.0.1:${server.port})`,
    });
    expect(wallMs).toBeLessThan(1500 + 300 + stallMs);
  });
});
