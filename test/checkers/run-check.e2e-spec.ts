/** runCheck: dispatch by kind and the slow rule. */
import { runCheck } from '../../src/probes/checkers';
import type { CheckResult, Outcome } from '../../src/probes/check-result';
import { farmCerts } from '../../harness/servers/certs';
import { DnsFarm, startDnsFarm } from '../../harness/servers/dns-farm';
import { HttpFarm, startHttpFarm } from '../../harness/servers/http-farm';
import { startTcpFarm, TcpFarm } from '../../harness/servers/tcp-farm';
import { makeCtx, makeDns, makeEnv, makeHttp, makePing, makeTcp, makeTls } from './factories';

let http: HttpFarm;
let tcp: TcpFarm;
let dns: DnsFarm;
const env = makeEnv(farmCerts().ca);

beforeAll(async () => {
  [http, tcp, dns] = await Promise.all([startHttpFarm(farmCerts().valid), startTcpFarm(), startDnsFarm()]);
});
afterAll(async () => {
  await Promise.all([http.close(), tcp.close(), dns.close()]);
});

describe('runCheck', () => {
  it.each<[string, () => Promise<CheckResult>]>([
    ['http', () => runCheck('http', makeHttp(`${http.http.url}/ok`), makeCtx(), env)],
    ['tcp', () => runCheck('tcp', makeTcp(tcp.banner.port, { expect_banner: 'SSH' }), makeCtx(), env)],
    ['ping', () => runCheck('ping', makePing('127.0.0.1', { packets: 1 }), makeCtx(), env)],
    ['dns', () => runCheck('dns', makeDns('web.test', dns.resolver), makeCtx(), env)],
    ['tls', () => runCheck('tls', makeTls(http.https.port), makeCtx(), env)],
  ])('runs a %s check', async (_kind, run) => {
    expect((await run()).outcome).toBe('up');
  });

  it('refuses heartbeat monitors, which are never checked actively', async () => {
    await expect(runCheck('heartbeat', { grace_s: 60 }, makeCtx(), env)).rejects.toThrow(
      'heartbeat monitors are not checked actively',
    );
  });

  it.each<[string, string, number | null, Outcome]>([
    ['a good check slower than slow_ms', '/slow/150', 50, 'slow'],
    ['a good check faster than slow_ms', '/ok', 1000, 'up'],
    ['a slow check with slow_ms off (0)', '/slow/150', 0, 'up'],
    ['a slow check with slow_ms off (null)', '/slow/150', null, 'up'],
    ['a failed check slower than slow_ms', '/status/500', 0.001, 'down'],
  ])('marks %s as %s', async (_name, path, slowMs, outcome) => {
    const result = await runCheck('http', makeHttp(`${http.http.url}${path}`), makeCtx({ slow_ms: slowMs }), env);
    expect(result.outcome).toBe(outcome);
  });
});
