/** dns checks against our own DNS server on loopback. */
import type { CheckErrorCode } from '../../src/probes/check-result';
import { checkDns } from '../../src/probes/checkers/dns';
import type { DnsSettings } from '../../src/probes/kinds';
import { DnsFarm, startDnsFarm } from '../../harness/servers/dns-farm';
import { freePort } from '../../harness/servers/tcp-farm';
import { makeCtx, makeDns, makeEnv } from './factories';

let farm: DnsFarm;
const env = makeEnv();
const ctx = makeCtx({ timeout_ms: 1000 });

beforeAll(async () => {
  farm = await startDnsFarm();
});
afterAll(() => farm.close());

const check = (name: string, over: Partial<DnsSettings> = {}) => checkDns(makeDns(name, farm.resolver, over), ctx, env);

describe('dns check', () => {
  it.each<[DnsSettings['record'], string, string]>([
    ['A', 'web.test', 'A: 192.0.2.10, 192.0.2.11'],
    ['AAAA', 'v6.test', 'AAAA: 2001:db8::10'],
    ['CNAME', 'alias.test', 'CNAME: web.test'],
    ['MX', 'mail.test', 'MX: 10 mx1.mail.test, 20 mx2.mail.test'],
    ['TXT', 'txt.test', 'TXT: "v=spf1 -all", "hello world"'],
    ['NS', 'zone.test', 'NS: ns1.zone.test, ns2.zone.test'],
  ])('is up for %s records of %s and lists them', async (record, name, detail) => {
    expect(await check(name, { record })).toMatchObject({ outcome: 'up', status: 0, error: null, detail });
  });

  it('follows a CNAME to the records asked for', async () => {
    expect((await check('alias.test')).detail).toBe('A: 192.0.2.10, 192.0.2.11');
  });

  it.each<[string, CheckErrorCode | null, string, Partial<DnsSettings>]>([
    ['an address it has', null, 'web.test', { expect: '192.0.2.11' }],
    ['an address it lacks', 'expect', 'web.test', { expect: '192.0.2.99' }],
    ['a name in any case', null, 'mail.test', { record: 'MX', expect: 'MX2.Mail.Test.' }],
    ['TXT text in the wrong case', 'expect', 'txt.test', { record: 'TXT', expect: 'HELLO' }],
  ])('matches expect against %s: %p', async (_name, code, name, over) => {
    expect((await check(name, over)).error?.code ?? null).toBe(code);
  });

  it.each<[string, CheckErrorCode, number | null, string]>([
    ['nope.test', 'nxdomain', 3, 'nope.test does not exist (NXDOMAIN from RESOLVER)'],
    ['servfail.test', 'servfail', 2, 'RESOLVER failed to resolve servfail.test (SERVFAIL)'],
    ['refused.test', 'refused', 5, 'RESOLVER refused the query (REFUSED)'],
  ])('fails %s with %s', async (name, code, status, message) => {
    const result = await check(name);
    expect(result).toMatchObject({
      outcome: 'down',
      status,
      error: { code, message: message.replace('RESOLVER', farm.resolver) },
    });
  });

  it('fails with no_answer when the name has no record of that type', async () => {
    expect(await check('web.test', { record: 'AAAA' })).toMatchObject({
      status: 0,
      error: { code: 'no_answer', message: 'web.test has no AAAA record' },
    });
  });

  it('fails with timeout when the resolver never answers', async () => {
    const result = await checkDns(makeDns('silent.test', farm.resolver), makeCtx({ timeout_ms: 300 }), env);
    expect(result.error).toEqual({ code: 'timeout', message: `no answer from ${farm.resolver} within 300 ms` });
  });

  it('fails with refused when nothing listens at the resolver', async () => {
    const port = await freePort();
    const result = await checkDns(makeDns('web.test', `127.0.0.1:${port}`), ctx, env);
    expect(result.error?.code).toBe('refused');
  });

  it('asks an IPv6 resolver written as [::1]:port', async () => {
    const v6 = await startDnsFarm('::1');
    try {
      expect((await checkDns(makeDns('web.test', v6.resolver), ctx, env)).outcome).toBe('up');
    } finally {
      await v6.close();
    }
  });

  it.each(['resolver.example', '127.0.0.1:99999', '[::1]53', '[::1]:0'])(
    'fails with dns for the resolver %j',
    async (resolver) => {
      const result = await checkDns(makeDns('web.test', resolver), ctx, env);
      expect(result.error).toEqual({
        code: 'dns',
        message: `resolver "${resolver}" is not an IP address with an optional port`,
      });
    },
  );

  it('fails with private_target for a private resolver when private targets are not allowed', async () => {
    const before = farm.queries();
    const result = await checkDns(makeDns('web.test', farm.resolver), makeCtx({ allow_private_targets: false }), env);
    expect(result.error?.code).toBe('private_target');
    expect(farm.queries()).toBe(before);
  });
});
