/**
 * dns checks: one query of the record type to the configured resolver (never the system's),
 * then judge/dns-answers for `expect`. `status` is the DNS rcode where one is known. The resolver
 * is what we connect to, so the private-target rule applies to it.
 */
import { promises as dnsPromises } from 'node:dns';
import { isIP } from 'node:net';
import type { CheckError, CheckResult } from '../check-result';
import type { CheckContext, DnsRecord, DnsSettings } from '../kinds';
import { describeAnswers, judgeDnsExpect } from '../judge/dns-answers';
import { msSince, withDeadline } from './deadline';
import type { CheckerEnv } from './env';
import { hostPort } from './net-errors';
import { failure, judged } from './result-builders';
import { checkAddress } from './connect-address';

type Resolver = dnsPromises.Resolver;

const QUERIES: Record<DnsQueryType, (resolver: Resolver, name: string) => Promise<string[]>> = {
  A: (r, name) => r.resolve4(name),
  AAAA: (r, name) => r.resolve6(name),
  CNAME: (r, name) => r.resolveCname(name),
  NS: (r, name) => r.resolveNs(name),
  MX: async (r, name) => (await r.resolveMx(name)).map((mx) => `${mx.priority} ${mx.exchange}`),
  TXT: async (r, name) => (await r.resolveTxt(name)).map((chunks) => chunks.join('')),
  SOA: async (r, name) => {
    const soa = await r.resolveSoa(name);
    return [`${soa.nsname} ${soa.hostmaster}`];
  },
};

// c-ares error codes, with the rcode that produced them where there is one.
const ERRORS: Record<
  string,
  { rcode: number | null; error: (name: string, record: DnsQueryType, server: string) => CheckError }
> = {
  ENOTFOUND: {
    rcode: 3,
    error: (name, _r, server) => failure('nxdomain', `${name} does not exist (NXDOMAIN from ${server})`),
  },
  ESERVFAIL: {
    rcode: 2,
    error: (name, _r, server) => failure('servfail', `${server} failed to resolve ${name} (SERVFAIL)`),
  },
  ENODATA: { rcode: 0, error: (name, record) => failure('no_answer', `${name} has no ${record} record`) },
  EREFUSED: { rcode: 5, error: (_n, _r, server) => failure('refused', `${server} refused the query (REFUSED)`) },
  ECONNREFUSED: { rcode: null, error: (_n, _r, server) => failure('refused', `${server} refused the connection`) },
  EFORMERR: {
    rcode: 1,
    error: (_n, _r, server) => failure('protocol', `${server} could not read the query (FORMERR)`),
  },
  ENOTIMP: {
    rcode: 4,
    error: (_n, _r, server) => failure('protocol', `${server} does not support the query (NOTIMP)`),
  },
  EBADRESP: {
    rcode: null,
    error: (_n, _r, server) => failure('protocol', `${server} sent an answer we could not read`),
  },
  EBADNAME: { rcode: null, error: (name) => failure('dns', `${name} is not a valid DNS name`) },
};

export async function checkDns(settings: DnsSettings, ctx: CheckContext, env: CheckerEnv): Promise<CheckResult> {
  const atMs = env.clock.now();
  const start = performance.now();
  const server = parseResolver(settings.resolver);
  if ('code' in server) return judged(atMs, { latency_ms: null }, server);
  const problem = checkAddress(server.address, 'auto', ctx.allow_private_targets);
  if (problem) return judged(atMs, { latency_ms: null }, problem);
  const answer = await dnsQuery([server.text], settings.name, settings.record, ctx.timeout_ms);
  if (answer.ok) {
    const error = judgeDnsExpect(settings.record, answer.answers, settings.expect);
    return judged(
      atMs,
      { latency_ms: msSince(start), status: 0, detail: describeAnswers(settings.record, answer.answers) },
      error,
    );
  }
  return judged(atMs, { latency_ms: msSince(start), status: answer.rcode }, answer.error);
}

export type DnsQueryType = DnsRecord | 'SOA';

export type DnsQueryAnswer =
  | { ok: true; answers: string[] }
  /** rcode: the DNS rcode where one is known (3 NXDOMAIN, 0 for an empty answer). */
  | { ok: false; rcode: number | null; error: CheckError };

/**
 * One query of `type` for `name` to `servers` (`ip` or `ip:port` texts; null: the system's
 * resolvers from resolv.conf, never getaddrinfo), answered within `timeoutMs`. The dns checker
 * and the custom hosts' zone walk (hosts/) both ask through here. SOA answers read
 * `<primary ns> <hostmaster>`.
 */
export async function dnsQuery(
  servers: readonly string[] | null,
  name: string,
  type: DnsQueryType,
  timeoutMs: number,
): Promise<DnsQueryAnswer> {
  // c-ares has its own timeout, but the race below is what guarantees the deadline.
  const resolver = new dnsPromises.Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers) resolver.setServers([...servers]);
  const via = servers ? servers.join(', ') : 'the system resolvers';
  const timedOut = (): DnsQueryAnswer => ({
    ok: false,
    rcode: null,
    error: failure('timeout', `no answer from ${via} within ${timeoutMs} ms`),
  });
  return withDeadline(
    timeoutMs,
    async (deadline) => {
      deadline.onExpire(() => resolver.cancel());
      try {
        return { ok: true, answers: await QUERIES[type](resolver, name) };
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        if (code === 'ETIMEOUT' || code === 'ECANCELLED') return timedOut();
        const known = ERRORS[code];
        const error = known
          ? known.error(name, type, via)
          : failure('dns', `query to ${via} failed (${code || 'unknown error'})`);
        return { ok: false, rcode: known?.rcode ?? null, error };
      }
    },
    timedOut,
  );
}

/** `1.1.1.1`, `1.1.1.1:5353`, `::1` or `[::1]:53`; text is the form setServers takes. */
function parseResolver(text: string): { address: string; text: string } | CheckError {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  const withPort = /^([^:]+):(\d{1,5})$/.exec(text);
  const [address, port] = bracketed
    ? [bracketed[1], bracketed[2]]
    : withPort
      ? [withPort[1], withPort[2]]
      : [text, undefined];
  const portNumber = port === undefined ? 53 : Number(port);
  if (!isIP(address) || portNumber < 1 || portNumber > 65535) {
    return failure('dns', `resolver "${text}" is not an IP address with an optional port`);
  }
  return { address, text: hostPort(address, portNumber) };
}
