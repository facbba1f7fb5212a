/**
 * postgres checks against a real PostgreSQL 15 (Debian's, started once for the suite on a free
 * port, in a temporary directory): up over plain TCP and verified TLS, each documented failure
 * (wrong password, a database that does not exist, a query error, a query that would write, TLS
 * required by the server but off, TLS asked of a server that has none, server down), an answer
 * over 64 KB, and a query that never ends bounded by the timeout (also when the server's own
 * cancel at that timeout is read first).
 */
import { FakeClock } from '../../src/common/clock';
import { runCheck } from '../../src/probes/checkers';
import { checkPostgres } from '../../src/probes/services/postgres';
import { farmCerts } from '../../harness/servers/certs';
import { PostgresServer, startPostgres } from '../../harness/servers/postgres-server';
import { freePort, startTcpTarget, TcpTarget } from '../../harness/servers/tcp-farm';
import { makeCtx, makeEnv, makePostgres, timedWithStall } from './factories';

jest.setTimeout(120_000);

const certs = farmCerts();
// Certificates are made against the real time, so this clock must read close to it.
const env = { ...makeEnv(certs.ca), clock: new FakeClock(Date.now()) };
const ctx = makeCtx({ timeout_ms: 5000 });
let server: PostgresServer;
let noTls: TcpTarget;
let url: (user?: string, db?: string, host?: string) => string;

beforeAll(async () => {
  [server, noTls] = await Promise.all([
    startPostgres(certs.valid),
    // A server without TLS answers the SSLRequest with one byte, N (https://www.postgresql.org/docs/15/protocol-flow.html#id-1.10.6.7.12).
    startTcpTarget((s) => s.once('data', () => s.write('N'))),
  ]);
  await server.sql("CREATE ROLE app LOGIN PASSWORD 'app-pw'; CREATE ROLE tlsonly LOGIN PASSWORD 'tls-pw'");
  await server.sql('CREATE DATABASE shop OWNER app');
  await server.sql(
    'CREATE TABLE orders (id int, state text); INSERT INTO orders VALUES (1, $$open$$), (2, $$done$$); GRANT ALL ON orders TO app',
    'shop',
  );
  url = (user = 'app', db = 'shop', host = '127.0.0.1') => `postgres://${user}@${host}:${server.port}/${db}`;
});
afterAll(async () => {
  await Promise.all([server?.stop(), noTls?.close()]);
});

describe('postgres check', () => {
  it('is up when it logs in and the query answers, with the first value and the phases', async () => {
    const r = await runCheck(
      'postgres',
      makePostgres(url(), { password: 'app-pw', query: "SELECT count(*) FROM orders WHERE state = 'open'" }),
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
    const r = await checkPostgres(
      makePostgres(url('app', 'shop', 'localhost'), { password: 'app-pw', tls: 'verify' }),
      ctx,
      env,
    );
    expect(r.error).toBeNull();
    expect(r.cert?.subject).toBe('localhost');
    expect(r.phases.tls_ms).toEqual(expect.any(Number));
    expect(r.phases.dns_ms).toEqual(expect.any(Number));
  });

  it('fails with cert_invalid when verify meets an untrusted certificate, which require accepts', async () => {
    const untrusting = { ...env, ca: undefined };
    const settings = makePostgres(url(), { password: 'app-pw', tls: 'verify' });
    expect((await checkPostgres(settings, ctx, untrusting)).error).toEqual({
      code: 'cert_invalid',
      message: 'certificate is not signed by a trusted authority',
    });
    expect((await checkPostgres({ ...settings, tls: 'require' }, ctx, untrusting)).error).toBeNull();
  });

  it('fails with auth_failed on a wrong password, without naming it', async () => {
    const r = await checkPostgres(makePostgres(url(), { password: 'not-it' }), ctx, env);
    expect(r.error?.code).toBe('auth_failed');
    expect(r.error?.message).not.toContain('not-it');
  });

  it('fails with db_not_found for a database that does not exist', async () => {
    const r = await checkPostgres(makePostgres(url('app', 'nope'), { password: 'app-pw' }), ctx, env);
    expect(r.error).toEqual({ code: 'db_not_found', message: 'database "nope" does not exist' });
  });

  it('fails with query_failed when the query fails', async () => {
    const r = await checkPostgres(
      makePostgres(url(), { password: 'app-pw', query: 'SELECT * FROM missing' }),
      ctx,
      env,
    );
    expect(r.error).toEqual({ code: 'query_failed', message: 'relation "missing" does not exist (SQLSTATE 42P01)' });
  });

  it('runs the query read-only: a write the field rules did not see is refused by the server', async () => {
    // nextval() writes (a sequence) inside a plain SELECT: only the READ ONLY transaction stops it.
    await server.sql('CREATE SEQUENCE s; GRANT ALL ON s TO app', 'shop');
    const r = await checkPostgres(makePostgres(url(), { password: 'app-pw', query: "SELECT nextval('s')" }), ctx, env);
    expect(r.error?.code).toBe('query_failed');
    expect(r.error?.message).toContain('only reads are run');
  });

  it('refuses a second statement even when it reaches the checker', async () => {
    const r = await checkPostgres(
      makePostgres(url(), { password: 'app-pw', query: 'SELECT 1; DELETE FROM orders' }),
      ctx,
      env,
    );
    expect(r.error?.code).toBe('query_failed');
    expect(r.error?.message).toContain('one statement');
  });

  it('reads at most 64 KB of an answer', async () => {
    const r = await checkPostgres(
      makePostgres(url(), { password: 'app-pw', query: 'SELECT repeat($$x$$, 1000) FROM generate_series(1, 1000)' }),
      ctx,
      env,
    );
    expect(r.error).toBeNull();
    expect(r.detail).toBe('answered more than 64 KB; the rest was not read');
  });

  it('fails with tls_required when the server takes this login over TLS only and tls is off', async () => {
    const r = await checkPostgres(makePostgres(url('tlsonly', 'postgres'), { password: 'tls-pw' }), ctx, env);
    expect(r.error?.code).toBe('tls_required');
    expect(
      (await checkPostgres(makePostgres(url('tlsonly', 'postgres'), { password: 'tls-pw', tls: 'verify' }), ctx, env))
        .error,
    ).toBeNull();
  });

  it('fails with tls_required when TLS is asked of a server that has none', async () => {
    const r = await checkPostgres(
      makePostgres(`postgres://app@127.0.0.1:${noTls.port}/shop`, { tls: 'require' }),
      ctx,
      env,
    );
    expect(r.error).toEqual({
      code: 'tls_required',
      message: `TLS was asked for, and 127.0.0.1:${noTls.port} does not offer it`,
    });
  });

  it('fails with refused when the server is down', async () => {
    const r = await checkPostgres(makePostgres(`postgres://app@127.0.0.1:${await freePort()}/shop`), ctx, env);
    expect(r.error?.code).toBe('refused');
  });

  /** A query that never ends, checked with a 1.5 s timeout, and what that check must say. */
  const neverEnding = () =>
    checkPostgres(
      makePostgres(url(), { password: 'app-pw', query: 'SELECT pg_sleep(30)' }),
      makeCtx({ timeout_ms: 1500 }),
      env,
    );
  const timedOutInQuery = () => ({
    code: 'timeout',
    message: `timed out after 1500 ms during the query (127.0.0.1:${server.port})`,
  });

  it('is bounded by the timeout when the query never ends', async () => {
    const { value: r, wallMs, stallMs } = await timedWithStall(neverEnding);
    expect(r.error).toEqual(timedOutInQuery());
    expect(wallMs).toBeLessThan(1500 + 300 + stallMs);
  });

  it('says the same when the server cancels the query before our deadline runs (a busy event loop)', async () => {
    // The server's statement_timeout is the monitor's, counted from the query's start: its cancel
    // arrives a few ms after our deadline. Here the loop is held from 1.2 s to 2.5 s after the
    // start, as a loaded machine can: the deadline's timer is not due when that iteration began,
    // so the cancel, read in the same iteration, is handled before it.
    const started = performance.now();
    const hold = setTimeout(() => {
      while (performance.now() - started < 2500);
    }, 1200);
    try {
      expect((await neverEnding()).error).toEqual(timedOutInQuery());
    } finally {
      clearTimeout(hold);
    }
  });
});
