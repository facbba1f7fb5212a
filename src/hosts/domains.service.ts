/**
 * The custom hosts of the status page, kept true: each host is read at its zone's own
 * nameservers, its certificate ordered once it points here, renewed 30 days before expiry, and
 * served. Work runs one host at a time on one chain (a save, the background loop and a restart
 * never check the same host twice at once). Every state change is a row and a timeline line,
 * committed before anything is announced (a renewal failure's notice goes out after it).
 * The moves come from domain-state.ts; the timing from schedule.ts and backoff.ts.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { toIso } from '../common/time';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Database } from '../db/database';
import { EventBus } from '../events/event-bus';
import { EventsService } from '../events/events.service';
import { AcmeService } from './acme.service';
import { retryAt } from './backoff';
import { CertStore, StoredCert } from './cert-store';
import { ChallengeStore } from './challenges';
import { DnsRecordAdvice, judgeDns, recordsFor } from './dns-verdict';
import { DomainLookup } from './domain-lookup';
import { DnsVerdict, DomainState, OrderKind, step } from './domain-state';
import { DomainRow, DomainsRepository } from './domains.repository';
import { InterfaceAddresses } from './interface-addresses';
import { HOSTS_OPTIONS, HOSTS_TIMERS, HostsOptions, HostsTimers } from './hosts-options';
import { PROVIDERS } from './providers';
import { fetchChallenge } from './reach-probe';
import { nextCheckAt, renewalDue } from './schedule';
import { ServedCerts } from './served-certs';

/** One domain as GET /status-page answers it (spec "Status page settings"). */
export interface DomainAnswer {
  host: string;
  state: DomainState;
  detail: string;
  checked_at: string | null;
  points_at: string[];
  zone: string | null;
  provider: string | null;
  /** Present only while the DNS is not right. */
  records?: DnsRecordAdvice[];
  dashboard?: string;
}

const DNS_NOT_RIGHT: readonly DomainState[] = ['dns_missing', 'dns_elsewhere', 'proxied'];
/** How long a stop waits for a check or an order in hand (an order cut off is ordered again at the next start). */
const SHUTDOWN_WAIT_MS = 5_000;

@Injectable()
export class DomainsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('hosts');
  private readonly lookup: DomainLookup;
  /** The one chain all work runs on. */
  private chain: Promise<void> = Promise.resolve();
  private timer: unknown = null;
  private stopped = false;
  /** Addresses a host pointed at that answered our own token on port 80: they reach this server. */
  private readonly proven = new Set<string>();
  /** The interfaces' public addresses, kept a few seconds. */
  private readonly interfaces: InterfaceAddresses;

  constructor(
    private readonly db: Database,
    private readonly repo: DomainsRepository,
    private readonly events: EventsService,
    private readonly bus: EventBus,
    private readonly acme: AcmeService,
    private readonly store: CertStore,
    private readonly served: ServedCerts,
    private readonly challenges: ChallengeStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(HOSTS_OPTIONS) private readonly opts: HostsOptions,
    @Inject(HOSTS_TIMERS) private readonly timers: HostsTimers,
  ) {
    this.interfaces = new InterfaceAddresses(() => clock.now());
    this.lookup = new DomainLookup({ servers: config.dnsServers, timeoutMs: opts.dnsTimeoutMs, nameserverPort: 53 });
  }

  private get https(): boolean {
    return this.config.httpsListen !== null;
  }

  /**
   * At start: certificates on disk are served again at once; a host whose mode changed (the
   * HTTPS listener set or unset) or whose order was cut off by the stop is checked again.
   */
  async onApplicationBootstrap(): Promise<void> {
    const now = this.clock.now();
    // Most services have no custom host: no transaction at start for them.
    if (!(await this.repo.all()).some((r) => r.active)) return;
    await this.db.tx(async (m) => {
      for (const row of await this.repo.all(m)) {
        if (!row.active) continue;
        const cert = this.https ? this.store.load(row.host) : null;
        if (cert && cert.notAfter > now) this.served.put(cert);
        const restart =
          (this.https && (row.state === 'not_managed' || row.state === 'certificate')) ||
          (!this.https && row.state !== 'not_managed');
        if (restart)
          await this.move(
            m,
            row,
            step(row.state, { kind: 'added', https: this.https }, this.facts(row, now)).to,
            this.addedDetail(),
            now,
            'the service started',
            { due: now },
          );
        else await this.repo.saveIn(m, { ...row, next_check_at: this.https ? now : null });
      }
    });
    this.kick();
  }

  /** Lets the work in hand finish, but a CA that is slow to validate does not hold the stop up long. */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clear(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
      timer.unref();
    });
    await Promise.race([this.chain, limit]);
    clearTimeout(timer);
  }

  /**
   * Inside the transaction that saves the status page's `hosts`: a host new to the list (or back
   * on it) starts at `checking`; one taken off keeps its row, and so its back-off. Then committed().
   */
  async syncIn(m: EntityManager, hosts: readonly string[], actor: string): Promise<void> {
    const now = this.clock.now();
    const rows = new Map((await this.repo.all(m)).map((r) => [r.host, r]));
    for (const host of hosts) {
      const row = rows.get(host);
      if (row?.active) continue;
      const base: DomainRow = row ?? {
        host,
        active: true,
        state: 'checking',
        detail: '',
        since: now,
        checked_at: null,
        points_at: [],
        zone: null,
        provider: null,
        failures: 0,
        retry_at: null,
        next_check_at: null,
        updated_at: now,
      };
      const to = step(base.state, { kind: 'added', https: this.https }, this.facts(base, now)).to;
      await this.move(m, { ...base, active: true }, to, this.addedDetail(), now, `added by ${actor}`, {
        from: row ? row.state : null,
        due: now,
      });
    }
    for (const row of rows.values()) {
      if (!row.active || hosts.includes(row.host)) continue;
      await this.repo.saveIn(m, { ...row, active: false, next_check_at: null, updated_at: now });
      await this.events.recordIn(m, {
        kind: 'domain',
        text: `custom host ${row.host} removed from the status page`,
        actor,
        data: { host: row.host, from: row.state, to: null },
      });
    }
  }

  /** After the transaction of syncIn committed: removed hosts stop being served, new ones are checked at once. */
  committed(): void {
    void this.enqueue(async () => {
      for (const r of await this.repo.all()) if (!r.active) this.served.drop(r.host);
    });
    this.kick();
  }

  /** One answer per host of the page, in the page's order. */
  async answers(hosts: readonly string[]): Promise<DomainAnswer[]> {
    if (hosts.length === 0) return [];
    const rows = new Map((await this.repo.all()).map((r) => [r.host, r]));
    let ips: string[] | undefined;
    return hosts.map((host) => {
      const r = rows.get(host);
      if (!r)
        return {
          host,
          state: 'checking',
          detail: 'waiting for the first check',
          checked_at: null,
          points_at: [],
          zone: null,
          provider: null,
        };
      const answer: DomainAnswer = {
        host,
        state: r.state,
        detail: r.detail,
        checked_at: toIso(r.checked_at),
        points_at: r.points_at,
        zone: r.zone,
        provider: r.provider,
      };
      if (DNS_NOT_RIGHT.includes(r.state)) {
        answer.records = recordsFor(host, (ips ??= this.serverIps()));
        const dashboard = PROVIDERS.find((p) => p.name === r.provider)?.dashboard;
        if (dashboard) answer.dashboard = dashboard;
      }
      return answer;
    });
  }

  /**
   * The addresses this server is reached at: FARSIGHT_SERVER_IPS as given; otherwise the public
   * addresses of its network interfaces, plus any address a custom host points at that answered
   * a token only this process knows (a router forwarding port 80 here: the usual homelab).
   */
  serverIps(): string[] {
    if (this.config.serverIps) return [...this.config.serverIps];
    return [...new Set([...this.interfaces.publicOnes(), ...this.proven])];
  }

  /** Checks every host that is due, one after another, then sets the timer for the next one. */
  tick(): Promise<void> {
    return this.enqueue(async () => {
      const now = this.clock.now();
      for (const row of await this.repo.all()) {
        if (this.stopped) return;
        if (row.active && row.next_check_at !== null && row.next_check_at <= now) await this.check(row.host);
      }
    });
  }

  /** Resolves when the work queued so far is done (tests; shutdown). */
  settled(): Promise<void> {
    return this.chain;
  }

  private kick(): void {
    void this.tick();
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.chain
      .then(work)
      .catch((err: unknown) => this.log.error(`custom hosts: ${err instanceof Error ? err.message : String(err)}`));
    this.chain = run.then(() => this.arm());
    return this.chain;
  }

  private async arm(): Promise<void> {
    if (this.stopped) return;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    const due = (await this.repo.all())
      .filter((r) => r.active && r.next_check_at !== null)
      .map((r) => r.next_check_at as number);
    if (due.length === 0) return;
    const wait = Math.max(0, Math.min(...due) - this.clock.now());
    // setTimeout holds at most 2^31-1 ms; a longer wait is simply re-armed on the way.
    this.timer = this.timers.set(() => this.kick(), Math.min(wait, 6 * 3_600_000));
  }

  /** Reads the DNS of one host, moves its state, and orders a certificate when the table says so. */
  private async check(host: string): Promise<void> {
    const row = await this.repo.get(host);
    if (!row || !row.active || row.state === 'not_managed') return;
    const found = await this.lookup.lookup(host);
    const now = this.clock.now();
    let verdict: DnsVerdict = 'unknown';
    let detail: string;
    let pointsAt = row.points_at;
    if (found.ok) {
      pointsAt = found.pointsAt;
      const ips = this.serverIps();
      const ours = new Set(ips);
      if (!this.config.serverIps)
        for (const ip of pointsAt) if (!ours.has(ip) && (await this.reaches(ip, host))) ours.add(ip);
      const judged = judgeDns(host, pointsAt, (ip) => ours.has(ip), this.serverIps());
      verdict = judged.verdict;
      detail = `${judged.detail} (read at the nameservers of ${found.zone}: ${found.nameservers.join(', ')})`;
    } else {
      detail = `${found.detail}; checking again soon`;
    }
    const facts = this.facts(row, now);
    const s = step(row.state, { kind: 'dns', verdict }, facts);
    const cert = this.store.load(host);
    if (s.to === 'live' && cert && cert.notAfter > now) {
      this.served.put(cert);
      detail = this.liveDetail(cert, row, now);
    }
    if (s.to === 'certificate') detail = `ordering a certificate from ${this.config.acmeDirectory}`;
    if (s.to === 'failed')
      detail = `${detail}; a certificate is ordered again ${toIso(row.retry_at)}, after ${row.failures} failed order${row.failures === 1 ? '' : 's'} in a row`;
    const seen = {
      checked_at: now,
      points_at: pointsAt,
      zone: found.zone ?? row.zone,
      provider: found.provider?.name ?? (found.ok ? null : row.provider),
    };
    const stillListed = await this.db.tx(async (m) => {
      const fresh = await this.fresh(m, row);
      if (!fresh) return false;
      await this.move(
        m,
        { ...fresh, ...seen },
        s.to,
        detail,
        now,
        verdict === 'unknown' ? 'the DNS could not be read' : `DNS: ${verdict}`,
      );
      return fresh.active;
    });
    // A host taken off the list while its DNS was read is not ordered for.
    if (s.order !== 'none' && stillListed) await this.order(host, pointsAt, s.order);
  }

  private async order(host: string, pointsAt: string[], kind: OrderKind): Promise<void> {
    const outcome = await this.acme.order(host, pointsAt);
    const now = this.clock.now();
    let notice: string | null = null;
    await this.db.tx(async (m) => {
      const row = await this.repo.get(host, m);
      if (!row) return;
      if (outcome.ok) {
        const fresh = { ...row, failures: 0, retry_at: null };
        if (row.active) this.served.put(outcome.cert);
        const to = step(row.state, { kind: 'order_valid' }, this.facts(fresh, now)).to;
        const text = `${kind === 'renewal' ? 'certificate renewed' : 'certificate issued'}, valid until ${toIso(outcome.cert.notAfter)}`;
        await this.move(m, fresh, to, this.liveDetail(outcome.cert, fresh, now), now, text, { always: true });
        return;
      }
      const failures = row.failures + 1;
      const until = retryAt(failures, now, outcome.retryAfterMs);
      const fresh = { ...row, failures, retry_at: until };
      const s = step(row.state, { kind: 'order_failed' }, this.facts(fresh, now));
      const wait = `${failures} failed order${failures === 1 ? '' : 's'} in a row; next try ${toIso(until)}${outcome.retryAfterMs ? ' (the CA asked to wait)' : ''}`;
      const detail =
        s.to === 'live'
          ? `renewal failed: ${outcome.detail}; ${wait}; the current certificate is served until it expires`
          : `certificate order failed: ${outcome.detail}; ${wait}`;
      await this.move(
        m,
        fresh,
        s.to,
        detail,
        now,
        `certificate ${kind === 'renewal' ? 'renewal' : 'order'} failed: ${outcome.detail}`,
        { always: true },
      );
      if (s.notice)
        notice = `The certificate of ${host} (status page) could not be renewed: ${outcome.detail}. The current one is served until it expires; next try ${toIso(until)}.`;
    });
    if (notice) this.bus.emit('notice', { message: notice, at: now });
  }

  /**
   * Writes the row in its next state; a change of state (or `always`) is a timeline line.
   * `from: null` marks a host that had no row yet.
   */
  private async move(
    m: EntityManager,
    row: DomainRow,
    to: DomainState,
    detail: string,
    now: number,
    why: string,
    { always = false, from = row.state, due }: { always?: boolean; from?: DomainState | null; due?: number } = {},
  ): Promise<void> {
    const changed = from !== to;
    const next: DomainRow = {
      ...row,
      state: to,
      detail,
      since: changed ? now : row.since,
      updated_at: now,
      next_check_at: null,
    };
    const scheduled = nextCheckAt({
      state: to,
      now,
      since: next.since,
      notAfter: this.store.load(row.host)?.notAfter ?? null,
      retryAt: next.retry_at,
    });
    // A save or a start checks at once (`due`); otherwise the schedule says when.
    next.next_check_at = !next.active || scheduled === null ? null : (due ?? scheduled);
    await this.repo.saveIn(m, next);
    if (changed || always) {
      const moved = from === null || !changed ? to : `${from} → ${to}`;
      await this.events.recordIn(m, {
        kind: 'domain',
        text: `custom host ${row.host}: ${moved} (${why})`,
        data: { host: row.host, from, to },
      });
    }
  }

  /** The row as it is now, with what a save changed meanwhile (a removal while its DNS was read). */
  private fresh(m: EntityManager, row: DomainRow): Promise<DomainRow | null> {
    return this.repo.get(row.host, m);
  }

  private facts(row: DomainRow, now: number) {
    const cert = this.https ? this.store.load(row.host) : null;
    const notAfter = cert?.notAfter ?? null;
    return {
      certValid: notAfter !== null && notAfter > now,
      renewalDue: renewalDue(notAfter, now),
      waiting: row.retry_at !== null && row.retry_at > now,
    };
  }

  private liveDetail(cert: StoredCert, row: DomainRow, now: number): string {
    const base = `serving a certificate valid until ${toIso(cert.notAfter)}`;
    if (row.retry_at !== null && row.retry_at > now && renewalDue(cert.notAfter, now))
      return `${base}; renewal waits until ${toIso(row.retry_at)} after ${row.failures} failed order${row.failures === 1 ? '' : 's'}`;
    return renewalDue(cert.notAfter, now)
      ? `${base}; renewal due`
      : `${base}; renewed from ${toIso(cert.notAfter - 30 * 24 * 3_600_000)}`;
  }

  private addedDetail(): string {
    return this.https
      ? "reading the DNS at the zone's own nameservers"
      : 'This server does not serve HTTPS itself (FARSIGHT_HTTPS_LISTEN is unset): point the host at a reverse proxy that forwards to Farsight; it shows the status page at /.';
  }

  /** Whether `ip` reaches this server: a one-time token asked for on port 80 under the host's name. */
  private async reaches(ip: string, host: string): Promise<boolean> {
    const token = randomBytes(24).toString('base64url');
    const answer = randomBytes(24).toString('base64url');
    this.challenges.set(token, answer);
    try {
      const r = await fetchChallenge(ip, this.opts.challengePort, host, token, answer, this.opts.probeTimeoutMs);
      if (r.ok) this.proven.add(ip);
      return r.ok;
    } finally {
      this.challenges.delete(token);
    }
  }
}
