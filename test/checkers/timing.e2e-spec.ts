/**
 * Latency, phases and the deadline, measured against targets that inject known delays.
 * Tolerances leave room for a busy 2-core machine running other test files in parallel.
 */
import type { CheckResult } from '../../src/probes/check-result';
import { checkDns } from '../../src/probes/checkers/dns';
import { checkHttp } from '../../src/probes/checkers/http';
import { checkPing } from '../../src/probes/checkers/ping';
import { checkTcp } from '../../src/probes/checkers/tcp';
import { checkTls } from '../../src/probes/checkers/tls';
import { farmCerts } from '../../harness/servers/certs';
import { DnsFarm, SLOW_ANSWER_MS, startDnsFarm } from '../../harness/servers/dns-farm';
import { HttpFarm, startHttpFarm } from '../../harness/servers/http-farm';
import { startTcpFarm, TcpFarm } from '../../harness/servers/tcp-farm';
import { makeCtx, makeDns, makeEnv, makeHttp, makePing, makeTcp, makeTls, timedWithStall } from './factories';

let http: HttpFarm;
let tcp: TcpFarm;
let dns: DnsFarm;
const env = makeEnv(farmCerts().ca);
const ctx = makeCtx();

beforeAll(async () => {
  [http, tcp, dns] = await Promise.all([startHttpFarm(farmCerts().valid), startTcpFarm(), startDnsFarm()]);
});
afterAll(async () => {
  await Promise.all([http.close(), tcp.close(), dns.close()]);
});

describe('latency and phases', () => {
  it('puts a slow server response into ttfb', async () => {
    const { value: result, stallMs } = await timedWithStall(() =>
      checkHttp(makeHttp(`${http.http.url}/slow/300`), ctx, env),
    );
    expect(result.phases.ttfb_ms).toBeGreaterThanOrEqual(290);
    expect(result.latency_ms).toBeGreaterThanOrEqual(290);
    expect(result.latency_ms).toBeLessThan(450 + stallMs);
  });

  it('puts a slow body into latency but not into ttfb', async () => {
    const { value: result, stallMs } = await timedWithStall(() =>
      checkHttp(makeHttp(`${http.http.url}/slow-body/300`), ctx, env),
    );
    expect(result.phases.ttfb_ms).toBeLessThan(100 + stallMs);
    expect(result.latency_ms).toBeGreaterThanOrEqual(290);
    expect(result.latency_ms).toBeLessThan(450 + stallMs);
  });

  it('measures every https phase, and they fit inside the latency', async () => {
    const result = await checkHttp(makeHttp(`https://localhost:${http.https.port}/ok`), ctx, env);
    const { dns_ms, connect_ms, tls_ms, ttfb_ms } = result.phases;
    for (const phase of [dns_ms, connect_ms, tls_ms, ttfb_ms]) expect(phase).toBeGreaterThanOrEqual(0);
    const sum = (dns_ms ?? 0) + (connect_ms ?? 0) + (tls_ms ?? 0) + (ttfb_ms ?? 0);
    expect(sum).toBeLessThanOrEqual((result.latency_ms ?? 0) + 0.5);
  });

  it('measures a slow DNS answer', async () => {
    const { value: result, stallMs } = await timedWithStall(() =>
      checkDns(makeDns('slow.test', dns.resolver), ctx, env),
    );
    expect(result.latency_ms).toBeGreaterThanOrEqual(SLOW_ANSWER_MS - 10);
    expect(result.latency_ms).toBeLessThan(SLOW_ANSWER_MS + 150 + stallMs);
  });
});

describe('the deadline', () => {
  const TIMEOUT = 500;
  const short = makeCtx({ timeout_ms: TIMEOUT });
  it.each<[string, string, () => Promise<CheckResult>]>([
    [
      'http, slow headers',
      'timed out after 500 ms waiting for the response',
      () => checkHttp(makeHttp(`${http.http.url}/slow/5000`), short, env),
    ],
    [
      'http, slow body',
      'timed out after 500 ms while reading the body',
      () => checkHttp(makeHttp(`${http.http.url}/slow-body/5000`), short, env),
    ],
    [
      'http, silent server',
      'timed out after 500 ms waiting for the response',
      () => checkHttp(makeHttp(`http://127.0.0.1:${tcp.silent.port}/`), short, env),
    ],
    [
      'https, no handshake',
      'timed out after 500 ms during the TLS handshake',
      () => checkHttp(makeHttp(`https://127.0.0.1:${tcp.silent.port}/`), short, env),
    ],
    [
      'tcp, no banner',
      'timed out after 500 ms waiting for the banner',
      () => checkTcp(makeTcp(tcp.silent.port, { expect_banner: 'SSH' }), short, env),
    ],
    [
      'tls, no handshake',
      'timed out after 500 ms during the TLS handshake',
      () => checkTls(makeTls(tcp.silent.port), short, env),
    ],
    ['dns, no answer', 'no answer from', () => checkDns(makeDns('silent.test', dns.resolver), short, env)],
    [
      'ping, too many packets',
      'ping did not finish within 500 ms',
      () => checkPing(makePing('127.0.0.1', { packets: 5 }), short, env),
    ],
  ])('stops %s within timeout_ms + 100 ms', async (_name, message, run) => {
    const { value: result, wallMs, stallMs } = await timedWithStall(run);
    expect(result.error?.code).toBe('timeout');
    expect(result.error?.message).toContain(message);
    expect(wallMs).toBeGreaterThanOrEqual(TIMEOUT - 5);
    expect(wallMs).toBeLessThan(TIMEOUT + 100 + stallMs);
  });
});
