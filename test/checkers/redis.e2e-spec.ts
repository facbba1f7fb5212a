/**
 * redis checks against a real redis-server (Debian's, started here on free ports): up with and
 * without a password, TLS verified and merely required, each documented failure (wrong password,
 * no password, a database out of range, TLS asked of a plain port, server down, garbage), and a
 * server that never answers bounded by the timeout. One server of each kind for the suite.
 */
import { FakeClock } from '../../src/common/clock';
import { runCheck } from '../../src/probes/checkers';
import { checkRedis } from '../../src/probes/services/redis';
import { farmCerts } from '../../harness/servers/certs';
import { RedisServer, startRedis } from '../../harness/servers/redis-server';
import { freePort, startTcpTarget, TcpTarget } from '../../harness/servers/tcp-farm';
import { makeCtx, makeEnv, makeRedis, timedWithStall } from './factories';

jest.setTimeout(60_000);

const certs = farmCerts();
// Certificates are made against the real time, so this clock must read close to it.
const env = { ...makeEnv(certs.ca), clock: new FakeClock(Date.now()) };
const ctx = makeCtx({ timeout_ms: 3000 });
let open: RedisServer;
let locked: RedisServer;
let silent: TcpTarget;
let garbage: TcpTarget;

beforeAll(async () => {
  [open, locked, silent, garbage] = await Promise.all([
    startRedis({ tls: certs.valid }),
    startRedis({ password: 'p@ss word' }),
    startTcpTarget(() => undefined),
    startTcpTarget((s) => s.end('HTTP/1.1 400 Bad Request\r\n\r\n')),
  ]);
});
afterAll(async () => {
  await Promise.all([open?.stop(), locked?.stop(), silent?.close(), garbage?.close()]);
});

describe('redis check', () => {
  it('is up when PING answers PONG, with the phases', async () => {
    const r = await runCheck('redis', makeRedis(`redis://127.0.0.1:${open.port}`), ctx, env);
    expect(r.error).toBeNull();
    expect(r.outcome).toBe('up');
    expect(r.detail).toBe('PONG');
    expect(r.phases).toEqual({
      dns_ms: null,
      connect_ms: expect.any(Number),
      tls_ms: null,
      ttfb_ms: expect.any(Number),
    });
  });

  it('authenticates with the password and selects the database', async () => {
    const r = await checkRedis(makeRedis(`redis://127.0.0.1:${locked.port}/3`, { password: 'p@ss word' }), ctx, env);
    expect(r.error).toBeNull();
  });

  it('fails with auth_failed on a wrong password', async () => {
    const r = await checkRedis(makeRedis(`redis://127.0.0.1:${locked.port}`, { password: 'wrong' }), ctx, env);
    expect(r.error?.code).toBe('auth_failed');
    expect(r.error?.message).not.toContain('wrong');
  });

  it('fails with auth_failed when the server needs a password the monitor does not have', async () => {
    const r = await checkRedis(makeRedis(`redis://127.0.0.1:${locked.port}`), ctx, env);
    expect(r.error).toEqual({ code: 'auth_failed', message: 'the server needs a password (NOAUTH)' });
  });

  it('fails with db_not_found for a database the server does not have', async () => {
    const r = await checkRedis(makeRedis(`redis://127.0.0.1:${open.port}/9`), ctx, env);
    expect(r.error?.code).toBe('db_not_found');
  });

  it('is up over TLS with the certificate verified, and reports it', async () => {
    const r = await checkRedis(makeRedis(`rediss://localhost:${open.tlsPort}`, { tls: 'verify' }), ctx, env);
    expect(r.error).toBeNull();
    expect(r.cert?.subject).toBe('localhost');
    expect(r.phases.tls_ms).toEqual(expect.any(Number));
  });

  it('fails with cert_invalid when verify meets a certificate of an untrusted CA, which require accepts', async () => {
    const untrusting = { ...env, ca: undefined };
    const url = `redis://localhost:${open.tlsPort}`;
    const r = await checkRedis(makeRedis(url, { tls: 'verify' }), ctx, untrusting);
    expect(r.error).toEqual({ code: 'cert_invalid', message: 'certificate is not signed by a trusted authority' });
    expect(r.cert).not.toBeNull();
    expect((await checkRedis(makeRedis(url, { tls: 'require' }), ctx, untrusting)).error).toBeNull();
  });

  it('fails with tls_required when TLS is asked of a server that answers in plain text', async () => {
    const r = await checkRedis(makeRedis(`redis://127.0.0.1:${garbage.port}`, { tls: 'require' }), ctx, env);
    expect(r.error).toEqual({
      code: 'tls_required',
      message: `TLS was asked for, and 127.0.0.1:${garbage.port} does not speak TLS on that port`,
    });
  });

  it('says TLS may be the reason when a plain-text redis port never finishes the handshake', async () => {
    const r = await checkRedis(
      makeRedis(`redis://127.0.0.1:${open.port}`, { tls: 'require' }),
      makeCtx({ timeout_ms: 500 }),
      env,
    );
    expect(r.error).toEqual({
      code: 'timeout',
      message: `timed out after 500 ms during the TLS handshake (127.0.0.1:${open.port}): does the server speak TLS on that port?`,
    });
  });

  it('says TLS may be wanted when the TLS port hangs up on plain text', async () => {
    const r = await checkRedis(makeRedis(`redis://127.0.0.1:${open.tlsPort}`), ctx, env);
    expect(r.error).toEqual({
      code: 'reset',
      message: `connection closed by 127.0.0.1:${open.tlsPort} before a reply (if that port wants TLS, set tls to require or verify)`,
    });
  });

  it('fails with refused when the server is down', async () => {
    const r = await checkRedis(makeRedis(`redis://127.0.0.1:${await freePort()}`), ctx, env);
    expect(r.error?.code).toBe('refused');
  });

  it('fails with protocol when the server speaks something else', async () => {
    const r = await checkRedis(makeRedis(`redis://127.0.0.1:${garbage.port}`), ctx, env);
    expect(r.error).toEqual({
      code: 'protocol',
      message: `127.0.0.1:${garbage.port} does not speak RESP (Redis): "HTTP/1.1 400 Bad Request"`,
    });
  });

  it('is bounded by the timeout when the server never answers', async () => {
    const {
      value: r,
      wallMs,
      stallMs,
    } = await timedWithStall(() =>
      checkRedis(makeRedis(`redis://127.0.0.1:${silent.port}`), makeCtx({ timeout_ms: 500 }), env),
    );
    expect(r.error).toEqual({
      code: 'timeout',
      message: `timed out after 500 ms during the PING answer (127.0.0.1:${silent.port})`,
    });
    expect(wallMs).toBeLessThan(500 + 300 + stallMs);
  });

  it('fails with private_target when private targets are not allowed', async () => {
    const r = await checkRedis(
      makeRedis(`redis://127.0.0.1:${open.port}`),
      makeCtx({ allow_private_targets: false }),
      env,
    );
    expect(r.error?.code).toBe('private_target');
  });
});
