/**
 * grpc checks against real @grpc/grpc-js servers started here (harness/servers/grpc-health-server.ts):
 * SERVING for the server and for a named service, NOT_SERVING, SERVICE_UNKNOWN and an unknown
 * service (NOT_FOUND), a server without the health service (UNIMPLEMENTED), metadata sent and a
 * token refused (UNAUTHENTICATED), TLS verified and merely required, TLS asked of a plain port and
 * the reverse, a server that is down, one that never answers (bounded by the timeout) and one
 * that speaks something else.
 */
import { FakeClock } from '../../src/common/clock';
import { runCheck } from '../../src/probes/checkers';
import { checkGrpc } from '../../src/probes/services/grpc';
import type { GrpcSettings } from '../../src/probes/kinds';
import { farmCerts } from '../../harness/servers/certs';
import { GrpcHealthServer, startGrpcHealth } from '../../harness/servers/grpc-health-server';
import { freePort, startTcpTarget, TcpTarget } from '../../harness/servers/tcp-farm';
import { makeCtx, makeEnv, timedWithStall } from './factories';

jest.setTimeout(60_000);

const certs = farmCerts();
// Certificates are made against the real time, so this clock must read close to it.
const env = { ...makeEnv(certs.ca), clock: new FakeClock(Date.now()) };
const ctx = makeCtx({ timeout_ms: 3000 });
let plain: GrpcHealthServer;
let secure: GrpcHealthServer;
let noHealth: GrpcHealthServer;
let locked: GrpcHealthServer;
let silent: TcpTarget;
let garbage: TcpTarget;

beforeAll(async () => {
  [plain, secure, noHealth, locked, silent, garbage] = await Promise.all([
    startGrpcHealth({
      statuses: { '': 'SERVING', 'shop.Cart': 'NOT_SERVING', legacy: 'SERVICE_UNKNOWN', idle: 'UNKNOWN' },
    }),
    startGrpcHealth({ tls: certs.valid }),
    startGrpcHealth({ health: false }),
    startGrpcHealth({ requiredToken: 's3cret' }),
    startTcpTarget(() => undefined),
    startTcpTarget((s) => s.end('HTTP/1.1 400 Bad Request\r\n\r\n')),
  ]);
});
afterAll(async () => {
  await Promise.all([
    plain?.stop(),
    secure?.stop(),
    noHealth?.stop(),
    locked?.stop(),
    silent?.close(),
    garbage?.close(),
  ]);
});

const grpcAt = (target: string, over: Partial<GrpcSettings> = {}): GrpcSettings => ({
  target,
  service: '',
  tls: 'off',
  metadata: [],
  ...over,
});
const local = (port: number) => `127.0.0.1:${port}`;

describe('grpc check', () => {
  it('is up when the health check answers SERVING, with the phases', async () => {
    const r = await runCheck('grpc', grpcAt(local(plain.port)), ctx, env);
    expect(r.error).toBeNull();
    expect(r.outcome).toBe('up');
    expect(r.detail).toBe('SERVING');
    expect(r.phases).toEqual({
      dns_ms: null,
      connect_ms: expect.any(Number),
      tls_ms: null,
      ttfb_ms: expect.any(Number),
    });
  });

  it.each([
    ['shop.Cart', { code: 'not_serving', message: 'the health check says service "shop.Cart" is NOT_SERVING' }],
    ['idle', { code: 'not_serving', message: 'the health check says service "idle" is UNKNOWN' }],
    [
      'legacy',
      { code: 'service_unknown', message: 'the health service does not know service "legacy" (SERVICE_UNKNOWN)' },
    ],
    [
      'nobody',
      {
        code: 'service_unknown',
        message: 'the health service does not know service "nobody" (NOT_FOUND: unknown service)',
      },
    ],
  ])('judges service %s', async (service, error) => {
    const r = await checkGrpc(grpcAt(local(plain.port), { service }), ctx, env);
    expect(r.error).toEqual(error);
  });

  it('says so when the server has no health service (UNIMPLEMENTED)', async () => {
    const r = await checkGrpc(grpcAt(local(noHealth.port)), ctx, env);
    expect(r.error?.code).toBe('no_health_service');
    expect(r.error?.message).toMatch(
      /^the server has no health service: grpc\.health\.v1\.Health\/Check is UNIMPLEMENTED/,
    );
  });

  it('sends the metadata, and fails with auth_failed when the server refuses the token', async () => {
    const ok = await checkGrpc(
      grpcAt(local(locked.port), { metadata: [{ name: 'authorization', value: 'Bearer s3cret', secret: true }] }),
      ctx,
      env,
    );
    expect(ok.error).toBeNull();
    expect(locked.lastMetadata()).toMatchObject({ authorization: 'Bearer s3cret' });
    const refused = await checkGrpc(
      grpcAt(local(locked.port), { metadata: [{ name: 'authorization', value: 'Bearer wrong', secret: true }] }),
      ctx,
      env,
    );
    expect(refused.error).toEqual({
      code: 'auth_failed',
      message: "the server refused the call's credentials (UNAUTHENTICATED: a bearer token is needed)",
    });
  });

  it('is up over TLS with the certificate verified against the name, and reports it', async () => {
    const r = await checkGrpc(grpcAt(`localhost:${secure.port}`, { tls: 'verify' }), ctx, env);
    expect(r.error).toBeNull();
    expect(r.cert?.subject).toBe('localhost');
  });

  it('fails with cert_invalid when verify meets an untrusted CA, which require accepts', async () => {
    const untrusting = { ...env, ca: undefined };
    const target = `localhost:${secure.port}`;
    const r = await checkGrpc(grpcAt(target, { tls: 'verify' }), ctx, untrusting);
    expect(r.error).toEqual({
      code: 'cert_invalid',
      message: "the server's certificate is not valid: unable to verify the first certificate",
    });
    expect((await checkGrpc(grpcAt(target, { tls: 'require' }), ctx, untrusting)).error).toBeNull();
  });

  it('fails with tls_required when TLS is asked of a plain-text port', async () => {
    const r = await checkGrpc(grpcAt(local(plain.port), { tls: 'require' }), ctx, env);
    expect(r.error).toEqual({
      code: 'tls_required',
      message: `TLS was asked for, and 127.0.0.1:${plain.port} does not speak TLS on that port`,
    });
  });

  it('says TLS may be wanted when plain text meets a TLS port', async () => {
    const r = await checkGrpc(grpcAt(local(secure.port)), makeCtx({ timeout_ms: 1500 }), env);
    expect(r.error).toEqual({
      code: 'reset',
      message: `connection closed by 127.0.0.1:${secure.port} before HTTP/2 began (if that port wants TLS, set tls to require or verify)`,
    });
  });

  it('fails with refused when the server is down', async () => {
    const r = await checkGrpc(grpcAt(local(await freePort())), ctx, env);
    expect(r.error?.code).toBe('refused');
  });

  it('fails when the server speaks something else', async () => {
    const r = await checkGrpc(grpcAt(local(garbage.port)), makeCtx({ timeout_ms: 1500 }), env);
    expect(r.error?.code).toBe('reset');
    expect(r.error?.message).toContain(`connection closed by 127.0.0.1:${garbage.port} before HTTP/2 began`);
  });

  it('is bounded by the timeout when the server never answers', async () => {
    const {
      value: r,
      wallMs,
      stallMs,
    } = await timedWithStall(() => checkGrpc(grpcAt(local(silent.port)), makeCtx({ timeout_ms: 500 }), env));
    expect(r.error).toEqual({
      code: 'timeout',
      message: `timed out after 500 ms during connecting (127.0.0.1:${silent.port})`,
    });
    expect(wallMs).toBeLessThan(500 + 300 + stallMs);
  });

  it('fails with private_target when private targets are not allowed', async () => {
    const r = await checkGrpc(grpcAt(local(plain.port)), makeCtx({ allow_private_targets: false }), env);
    expect(r.error?.code).toBe('private_target');
  });

  it('refuses a target it cannot read before connecting', async () => {
    const r = await checkGrpc(grpcAt('grpc://api.lan:50051'), ctx, env);
    expect(r.error?.code).toBe('protocol');
  });
});
