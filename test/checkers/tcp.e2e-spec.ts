/** tcp checks against the loopback farm. */
import type { CheckErrorCode } from '../../src/probes/check-result';
import { checkTcp } from '../../src/probes/checkers/tcp';
import type { TcpSettings } from '../../src/probes/kinds';
import { startTcpFarm, TcpFarm } from '../../harness/servers/tcp-farm';
import { makeCtx, makeEnv, makeTcp, NOW } from './factories';

let farm: TcpFarm;
const env = makeEnv();
const ctx = makeCtx({ timeout_ms: 1000 });

beforeAll(async () => {
  farm = await startTcpFarm();
});
afterAll(() => farm.close());

type Port = 'banner' | 'echo' | 'silent' | 'reset' | 'closed';
const port = (name: Port): number => (name === 'closed' ? farm.closedPort : farm[name].port);

describe('tcp check', () => {
  it('is up when the port accepts, with the connect phase', async () => {
    const result = await checkTcp(makeTcp(port('silent')), ctx, env);
    expect(result).toMatchObject({ at_ms: NOW, outcome: 'up', error: null, status: null, detail: null });
    expect(result.phases.connect_ms).not.toBeNull();
    expect(result.phases.dns_ms).toBeNull();
  });

  it.each<[string, CheckErrorCode | null, Port, Partial<TcpSettings>]>([
    ['a banner that starts as expected', null, 'banner', { expect_banner: 'SSH-2.0-' }],
    ['a banner that does not', 'banner', 'banner', { expect_banner: '220 ' }],
    ['sent text echoed back', null, 'echo', { send: 'PING farsight\r\n', expect_banner: 'PING farsight' }],
    ['sent text that is not what is expected', 'banner', 'echo', { send: 'PING\r\n', expect_banner: 'PONG' }],
    ['send without expect_banner', null, 'echo', { send: 'hello\n' }],
    ['a refused connection', 'refused', 'closed', {}],
    ['a connection reset by the server', 'reset', 'reset', { expect_banner: 'SSH' }],
    ['a name that resolves', null, 'banner', { host: 'localhost', ip_version: 'ipv4' }],
    ['a name that does not resolve', 'dns', 'banner', { host: 'nothing.invalid' }],
    ['an IPv4 address over IPv6', 'dns', 'banner', { ip_version: 'ipv6' }],
  ])('judges %s: %p', async (_name, code, target, over) => {
    const result = await checkTcp(makeTcp(port(target), over), ctx, env);
    expect(result.error?.code ?? null).toBe(code);
    expect(result.outcome).toBe(code ? 'down' : 'up');
  });

  it('explains a banner mismatch and shows the banner', async () => {
    const result = await checkTcp(makeTcp(port('banner'), { expect_banner: 'SMTP' }), ctx, env);
    expect(result.error).toEqual({
      code: 'banner',
      message: 'expected a banner starting with "SMTP", got "SSH-2.0-FarsightTest"',
    });
    expect(result.detail).toBe('banner: SSH-2.0-FarsightTest');
  });

  it('names the address in a refusal', async () => {
    const result = await checkTcp(makeTcp(port('closed')), ctx, env);
    expect(result.error).toEqual({ code: 'refused', message: `connection refused by 127.0.0.1:${farm.closedPort}` });
  });

  it('fails with timeout when the server never sends the expected banner', async () => {
    const result = await checkTcp(makeTcp(port('silent'), { expect_banner: 'SSH' }), makeCtx({ timeout_ms: 300 }), env);
    expect(result.error).toEqual({
      code: 'timeout',
      message: `timed out after 300 ms waiting for the banner (127.0.0.1:${port('silent')})`,
    });
  });

  it.each<[string, string]>([
    ['a literal private address', '127.0.0.1'],
    ['a name that resolves to one', 'localhost'],
  ])('fails with private_target for %s when private targets are not allowed', async (_name, host) => {
    const before = farm.banner.accepted();
    const result = await checkTcp(makeTcp(port('banner'), { host }), makeCtx({ allow_private_targets: false }), env);
    expect(result.error?.code).toBe('private_target');
    expect(farm.banner.accepted()).toBe(before);
  });
});
