/**
 * Thousands of checks in a row leave nothing behind: no socket, timer, DNS channel or child
 * process outlives its check. Includes failures and timeouts, which take the abort paths.
 */
import type { CheckResult } from '../../src/probes/check-result';
import { runCheck } from '../../src/probes/checkers';
import { farmCerts } from '../../harness/servers/certs';
import { DnsFarm, startDnsFarm } from '../../harness/servers/dns-farm';
import { HttpFarm, startHttpFarm } from '../../harness/servers/http-farm';
import { startTcpFarm, TcpFarm } from '../../harness/servers/tcp-farm';
import { makeCtx, makeDns, makeEnv, makeHttp, makeTcp } from './factories';

let http: HttpFarm;
let tcp: TcpFarm;
let dns: DnsFarm;
const env = makeEnv(farmCerts().ca);
const ctx = makeCtx({ timeout_ms: 2000 });
const short = makeCtx({ timeout_ms: 100 });

beforeAll(async () => {
  [http, tcp, dns] = await Promise.all([startHttpFarm(farmCerts().valid), startTcpFarm(), startDnsFarm()]);
});
afterAll(async () => {
  await Promise.all([http.close(), tcp.close(), dns.close()]);
});

function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of process.getActiveResourcesInfo()) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

/** Resource types whose count is above the baseline. */
function excess(baseline: Map<string, number>): Record<string, number> {
  const extra: Record<string, number> = {};
  for (const [name, count] of resourceCounts()) {
    if (count > (baseline.get(name) ?? 0)) extra[name] = count - (baseline.get(name) ?? 0);
  }
  return extra;
}

/** Closed handles leave the list on a later turn of the event loop, so poll for a while. */
async function settledExcess(baseline: Map<string, number>): Promise<Record<string, number>> {
  for (let i = 0; i < 100; i += 1) {
    if (Object.keys(excess(baseline)).length === 0) return {};
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return excess(baseline);
}

async function runAll(jobs: Array<() => Promise<CheckResult>>, concurrency: number): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) results.push(await jobs[next++]());
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

function repeat(times: number, ...variants: Array<() => Promise<CheckResult>>): Array<() => Promise<CheckResult>> {
  return Array.from({ length: times }, (_, i) => variants[i % variants.length]);
}

describe('resources', () => {
  it('return to their baseline after 2,000 http checks and hundreds of https, tcp and dns checks', async () => {
    const baseline = resourceCounts();
    const jobs = [
      ...repeat(
        2000,
        () => runCheck('http', makeHttp(`${http.http.url}/ok`), ctx, env),
        () => runCheck('http', makeHttp(`${http.http.url}/status/503`), ctx, env),
        () => runCheck('http', makeHttp(`${http.http.url}/redirect/2`, { body_contains: 'redirected' }), ctx, env),
        () =>
          runCheck(
            'http',
            makeHttp(`${http.http.url}/json`, { json: [{ path: '$.status', op: '==', value: 'ok' }] }),
            ctx,
            env,
          ),
      ),
      ...repeat(20, () => runCheck('http', makeHttp(`${http.http.url}/big/3`), ctx, env)),
      ...repeat(20, () => runCheck('http', makeHttp(`${http.http.url}/slow-body/150`), short, env)),
      ...repeat(200, () => runCheck('http', makeHttp(`${http.https.url}/ok`), ctx, env)),
      ...repeat(
        300,
        () => runCheck('tcp', makeTcp(tcp.banner.port, { expect_banner: 'SSH' }), ctx, env),
        () => runCheck('tcp', makeTcp(tcp.closedPort), ctx, env),
        () => runCheck('tcp', makeTcp(tcp.silent.port, { expect_banner: 'SSH' }), short, env),
      ),
      ...repeat(
        300,
        () => runCheck('dns', makeDns('web.test', dns.resolver), ctx, env),
        () => runCheck('dns', makeDns('nope.test', dns.resolver), ctx, env),
        () => runCheck('dns', makeDns('silent.test', dns.resolver), short, env),
      ),
    ];
    const results = await runAll(jobs, 16);
    expect(results).toHaveLength(jobs.length);
    expect(results.filter((r) => r.error?.code === 'timeout').length).toBeGreaterThanOrEqual(220);
    expect(await settledExcess(baseline)).toEqual({});
  }, 60_000);
});
