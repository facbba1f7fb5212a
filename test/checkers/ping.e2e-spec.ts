/**
 * ping checks with the system's iputils ping. Packet loss cannot be made on loopback without
 * touching the host's firewall, so those cases run a stand-in `ping` that prints a real summary.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckErrorCode } from '../../src/probes/check-result';
import { checkPing } from '../../src/probes/checkers/ping';
import type { PingSettings } from '../../src/probes/kinds';
import { makeCtx, makeEnv, makePing } from './factories';

const env = makeEnv();
const ctx = makeCtx({ timeout_ms: 2000 });

describe('ping check', () => {
  it('is up when replies come back, with the average round trip as latency', async () => {
    const result = await checkPing(makePing('127.0.0.1'), ctx, env);
    expect(result).toMatchObject({ outcome: 'up', error: null, status: null });
    expect(result.detail).toMatch(/^3\/3 replies, 0% loss, rtt min\/avg\/max [\d.]+\/[\d.]+\/[\d.]+ ms$/);
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);
    expect(result.latency_ms).toBeLessThan(5);
  });

  it.each<[string, CheckErrorCode | null, string, Partial<PingSettings>]>([
    ['a name, resolved first', null, 'localhost', { packets: 1 }],
    ['IPv6 loopback over IPv6', null, '::1', { packets: 1, ip_version: 'ipv6' }],
    ['an IPv4 address over IPv6', 'dns', '127.0.0.1', { ip_version: 'ipv6' }],
    ['a name that does not resolve', 'dns', 'nothing.invalid', {}],
    ['an address that never replies', 'no_reply', '203.0.113.5', { packets: 1 }],
  ])('judges %s: %p', async (_name, code, host, over) => {
    const result = await checkPing(makePing(host, over), ctx, env);
    expect(result.error?.code ?? null).toBe(code);
  });

  it('reports the time spent resolving a name', async () => {
    expect((await checkPing(makePing('localhost', { packets: 1 }), ctx, env)).phases.dns_ms).not.toBeNull();
  });

  it('fails with private_target when private targets are not allowed', async () => {
    const result = await checkPing(makePing('localhost'), makeCtx({ allow_private_targets: false }), env);
    expect(result.error?.code).toBe('private_target');
  });

  it('fails with timeout when the packets need longer than timeout_ms', async () => {
    const result = await checkPing(makePing('127.0.0.1', { packets: 5 }), makeCtx({ timeout_ms: 500 }), env);
    expect(result.error).toEqual({ code: 'timeout', message: 'ping did not finish within 500 ms' });
  });
});

describe('ping check with a stand-in ping', () => {
  let dir: string;
  let path: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'farsight-ping-'));
    path = process.env.PATH;
    process.env.PATH = dir;
  });
  afterEach(() => {
    process.env.PATH = path;
    rmSync(dir, { recursive: true, force: true });
  });
  const standIn = (received: number): void => {
    const file = join(dir, 'ping');
    writeFileSync(
      file,
      `#!/bin/sh\necho '3 packets transmitted, ${received} received, 33.3333% packet loss, time 402ms'\n` +
        `echo 'rtt min/avg/max/mdev = 1.000/2.345/3.000/0.500 ms'\nexit 1\n`,
    );
    chmodSync(file, 0o755);
  };

  it.each<[number, number | null, CheckErrorCode | null]>([
    [2, null, null],
    [2, 50, null],
    [2, 30, 'packet_loss'],
    [2, 0, 'packet_loss'],
  ])('with %i of 3 replies and max_loss_pct %p ends with error %p', async (received, maxLoss, code) => {
    standIn(received);
    const result = await checkPing(makePing('127.0.0.1', { max_loss_pct: maxLoss }), ctx, env);
    expect(result.error?.code ?? null).toBe(code);
    expect(result.latency_ms).toBe(2.3);
  });

  it('fails with protocol, saying so, when ping is not installed', async () => {
    const result = await checkPing(makePing('127.0.0.1'), ctx, env);
    expect(result.error).toEqual({
      code: 'protocol',
      message: 'ping is not installed on this machine (package iputils-ping)',
    });
  });
});
