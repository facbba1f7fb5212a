/**
 * Reads a host's DNS the way a CA will, without any cache in between:
 *   1. find the zone: ask SOA for the host, then for each parent, through FARSIGHT_DNS_SERVERS
 *      (the system's resolvers from resolv.conf when unset), until one answers;
 *   2. ask those resolvers for the zone's NS names and their addresses;
 *   3. ask the zone's own nameservers (port 53) for the host's A and AAAA records; a CNAME is
 *      followed the same way (at its target's own zone), at most MAX_CNAMES deep.
 * Every query goes through probes' dnsQuery (c-ares, never getaddrinfo).
 */
import { isIP } from 'node:net';
import { dnsQuery, DnsQueryAnswer, DnsQueryType } from '../probes/checkers/dns';
import { Provider, providerOf } from './providers';

const MAX_CNAMES = 4;

export interface LookupOptions {
  /** FARSIGHT_DNS_SERVERS, or null for the system's resolvers. */
  servers: readonly string[] | null;
  /** Per query. */
  timeoutMs: number;
  /** Where zone nameservers are asked: 53, as a CA asks them. */
  nameserverPort: number;
}

export type Lookup =
  | {
      ok: true;
      zone: string;
      nameservers: string[];
      provider: Provider | null;
      /** A and AAAA answers, after any CNAME. */
      pointsAt: string[];
      /** The CNAME chain followed, if any. */
      cnames: string[];
    }
  /** The lookup itself failed (no answer, SERVFAIL, no zone found): nothing is known. */
  | { ok: false; zone: string | null; provider: Provider | null; detail: string };

export class DomainLookup {
  constructor(private readonly opts: LookupOptions) {}

  async lookup(host: string): Promise<Lookup> {
    return this.read(host, 0);
  }

  private async read(host: string, depth: number): Promise<Lookup> {
    const zone = await this.findZone(host);
    if (!zone.ok) return { ok: false, zone: null, provider: null, detail: zone.detail };
    const ns = await this.nameservers(zone.zone);
    if (!ns.ok) return { ok: false, zone: zone.zone, provider: null, detail: ns.detail };
    const provider = providerOf(ns.names);
    const fail = (detail: string): Lookup => ({ ok: false, zone: zone.zone, provider, detail });
    const at = (type: DnsQueryType) => this.askZone(ns.addresses, host, type);
    const [a, aaaa] = [await at('A'), await at('AAAA')];
    for (const r of [a, aaaa])
      if (!r.ok && !empty(r))
        return fail(`${zone.zone}'s nameservers could not be asked about ${host}: ${r.error.message}`);
    const pointsAt = [...(a.ok ? a.answers : []), ...(aaaa.ok ? aaaa.answers : [])];
    const base = {
      ok: true as const,
      zone: zone.zone,
      nameservers: ns.names,
      provider,
      pointsAt,
      cnames: [] as string[],
    };
    if (pointsAt.length) return base;
    const cname = await at('CNAME');
    if (!cname.ok || cname.answers.length === 0) return base;
    const target = cname.answers[0].toLowerCase().replace(/\.$/, '');
    if (depth >= MAX_CNAMES) return fail(`${host} is a CNAME chain longer than ${MAX_CNAMES}`);
    const next = await this.read(target, depth + 1);
    if (!next.ok) return fail(`${host} is a CNAME to ${target}, which could not be read: ${next.detail}`);
    return { ...base, pointsAt: next.pointsAt, cnames: [target, ...next.cnames] };
  }

  /** The closest enclosing zone (a name with an SOA record), asked through the configured resolvers. */
  private async findZone(host: string): Promise<{ ok: true; zone: string } | { ok: false; detail: string }> {
    const labels = host.split('.');
    // A top-level domain is never the zone of a host one may point: stop above it.
    for (let i = 0; i < labels.length - 1; i++) {
      const name = labels.slice(i).join('.');
      const r = await this.ask(this.opts.servers, name, 'SOA');
      if (r.ok && r.answers.length) return { ok: true, zone: name };
      if (!r.ok && !empty(r)) return { ok: false, detail: `could not find the zone of ${host}: ${r.error.message}` };
    }
    return { ok: false, detail: `no DNS zone holds ${host}: is the domain registered?` };
  }

  private async nameservers(
    zone: string,
  ): Promise<{ ok: true; names: string[]; addresses: string[] } | { ok: false; detail: string }> {
    const ns = await this.ask(this.opts.servers, zone, 'NS');
    if (!ns.ok || ns.answers.length === 0) {
      return {
        ok: false,
        detail: `could not read the nameservers of ${zone}: ${ns.ok ? 'none listed' : ns.error.message}`,
      };
    }
    const names = ns.answers.map((n) => n.toLowerCase().replace(/\.$/, '')).sort();
    const addresses: string[] = [];
    for (const name of names) {
      for (const type of ['A', 'AAAA'] as const) {
        const r = await this.ask(this.opts.servers, name, type);
        if (r.ok) addresses.push(...r.answers.filter((ip) => isIP(ip) !== 0));
      }
    }
    if (addresses.length === 0)
      return { ok: false, detail: `the nameservers of ${zone} (${names.join(', ')}) have no address` };
    return { ok: true, names, addresses: [...new Set(addresses)] };
  }

  /** Asks the zone's nameservers in turn until one answers (an empty answer is an answer). */
  private async askZone(addresses: readonly string[], name: string, type: DnsQueryType): Promise<DnsQueryAnswer> {
    let last: DnsQueryAnswer | null = null;
    for (const ip of addresses) {
      const server = isIP(ip) === 6 ? `[${ip}]:${this.opts.nameserverPort}` : `${ip}:${this.opts.nameserverPort}`;
      last = await this.ask([server], name, type);
      if (last.ok || empty(last)) return last;
    }
    return last as DnsQueryAnswer;
  }

  private ask(servers: readonly string[] | null, name: string, type: DnsQueryType): Promise<DnsQueryAnswer> {
    return dnsQuery(servers, name, type, this.opts.timeoutMs);
  }
}

/** NXDOMAIN or an empty NOERROR: the name or the record does not exist (an answer, not a failure). */
function empty(r: DnsQueryAnswer): boolean {
  return !r.ok && (r.rcode === 3 || r.rcode === 0);
}
