/** The agent's checks against real TCP servers on 127.0.0.1: the service's scheduler and checkers at work. */
import * as net from 'node:net';
import { systemClock } from '../common/clock';
import { realTimers } from '../engine/scheduling/scheduler';
import type { CheckResult } from '../probes/check-result';
import { makeTcp } from '../../test/checkers/factories';
import { AgentChecks } from './agent-checks';
import { silentLog } from './agent-log';
import type { AgentMonitor } from './protocol';

const monitor = (id: number, port: number, over: Partial<AgentMonitor> = {}): AgentMonitor =>
  ({
    id,
    slug: `m${id}`,
    name: `M${id}`,
    kind: 'tcp',
    settings: makeTcp(port),
    interval_s: 1,
    retry_interval_s: 1,
    timeout_ms: 2_000,
    slow_ms: null,
    allow_private_targets: true,
    ...over,
  }) as AgentMonitor;

async function listening(): Promise<net.Server> {
  const server = net.createServer((s) => s.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function until(fn: () => boolean, ms = 8_000): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = () => (fn() ? resolve() : Date.now() > end ? reject(new Error('timed out')) : setTimeout(tick, 20));
    tick();
  });
}

describe('AgentChecks', () => {
  let server: net.Server;
  let closedPort: number;
  let results: { id: number; result: CheckResult }[];
  let checks: AgentChecks;

  beforeAll(async () => {
    server = await listening();
    const other = await listening();
    closedPort = (other.address() as net.AddressInfo).port;
    await new Promise((r) => other.close(r));
  });
  afterAll(() => new Promise((r) => server.close(r)));
  beforeEach(() => {
    results = [];
    checks = new AgentChecks({
      clock: systemClock,
      timers: realTimers,
      env: { clock: systemClock },
      log: silentLog,
      onResult: (m, result) => results.push({ id: m.id, result }),
    });
  });
  afterEach(() => checks.stop());

  const port = () => (server.address() as net.AddressInfo).port;

  it('checks each assigned monitor with the service checkers, again every interval', async () => {
    checks.apply([monitor(1, port()), monitor(2, closedPort)]);
    await until(() => results.filter((r) => r.id === 1).length >= 2 && results.some((r) => r.id === 2));
    expect(results.find((r) => r.id === 1)?.result.outcome).toBe('up');
    expect(results.find((r) => r.id === 2)?.result).toMatchObject({ outcome: 'down', error: { code: 'refused' } });
  });

  it('follows a new assignment: a changed monitor is checked at once as changed, a removed one no more', async () => {
    // The first assignment spreads its monitors over their interval (as a start of the service
    // does); the ones added later are checked at once.
    checks.apply([]);
    expect(
      checks.apply([monitor(1, port(), { interval_s: 3_600 }), monitor(2, port(), { interval_s: 3_600 })]),
    ).toEqual({
      added: 2,
      changed: 0,
      removed: 0,
    });
    await until(() => results.length >= 2);
    results = [];
    expect(checks.apply([monitor(1, closedPort, { interval_s: 3_600 })])).toEqual({ added: 0, changed: 1, removed: 1 });
    await until(() => results.length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(results.map((r) => [r.id, r.result.outcome])).toEqual([[1, 'down']]);
    expect(checks.ids()).toEqual([1]);
  });

  it('keeps the cadence of a monitor whose assignment did not change', () => {
    checks.apply([monitor(1, port(), { interval_s: 3_600 })]);
    expect(checks.apply([monitor(1, port(), { interval_s: 3_600 })])).toEqual({ added: 0, changed: 0, removed: 0 });
  });
});
