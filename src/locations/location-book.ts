/**
 * The service's memory of its probe locations (docs/agents.md): which monitors each location
 * checks, the assignment revision an agent's long poll waits on, each agent's last contact, and
 * which locations are offline. An offline or returning location is a `location` timeline line;
 * the monitors that list it are judged again at once without its votes (or with them again), and
 * the line, their new states and incidents commit in one transaction of the writer before the
 * owner's notice and the transitions go out (durable before announced: engine/locations/location-judge.ts).
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, Clock } from '../common/clock';
import { formatWhen } from '../common/time';
import { randomToken } from '../common/access/tokens';
import { UpkeepJob } from '../common/upkeep';
import { Database } from '../db/database';
import { EventBus } from '../events/event-bus';
import { EngineService } from '../engine/engine.service';
import type { LocationMove } from '../engine/locations/location-judge';
import { allLocations, LOCAL_ID, LOCAL_NAME, LocationRow, touchLocationIn } from '../catalog/locations.table';
import { LocationState, locationState, offlineAfterMs } from './location-rules';

/** What an agent's contact leaves behind. */
export interface Contact {
  at: number;
  version: string | null;
  address: string | null;
}

/** A monitor as the locations see it: where it is checked and how often. */
export interface Assignment {
  locations: readonly number[];
  interval_s: number;
  /** Paused and heartbeat monitors are assigned but not sent to agents. */
  sent: boolean;
}

/** A contact is written at most this often when nothing else about it changed. */
const CONTACT_WRITE_MS = 15_000;
const SWEEP_MS = 5_000;

@Injectable()
export class LocationBook implements OnApplicationBootstrap, OnApplicationShutdown {
  /** Revisions are `<boot>.<n>`: a restart changes every revision, so every agent reloads. */
  private readonly boot = randomToken(4);
  private readonly revisions = new Map<number, number>();
  private readonly waiters = new Map<number, Set<() => void>>();
  private readonly contacts = new Map<number, Contact & { saved: number }>();
  private readonly assigned = new Map<number, Assignment>();
  /** Location id → name, for every location that has a row. */
  private readonly names = new Map<number, string>();
  private readonly offline = new Set<number>();
  /**
   * The locations whose votes count (online at the last sweep): the engine asks this, so a location
   * stops or starts counting only with the sweep that judges its monitors again.
   */
  private readonly counting = new Set<number>();
  /** The sweep under way: one at a time, so a caller's sweep resolves only after the one before it committed. */
  private sweeping: Promise<void> = Promise.resolve();
  /**
   * The shortest interval_s of each location's sent monitors (its offline threshold), made again
   * after an assignment changes: every vote asks whether its locations are online, and walked
   * every assignment for it, 20,000 of them per result at the bench's 10,000 monitors from 2
   * places (docs/performance.md, "Probe locations").
   */
  private shortest: Map<number, number> | null = null;
  private readonly sweeper = new UpkeepJob('location offline check', { everyMs: SWEEP_MS }, () => this.sweep());
  private readonly log = new Logger('locations');

  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly engine: EngineService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.reload();
    const rows = await this.db.read<
      { id: number; locations: string; interval_s: number; paused: number; kind: string }[]
    >('SELECT id, locations, interval_s, paused, kind FROM monitors');
    for (const r of rows) {
      this.assigned.set(r.id, {
        locations: this.idsOf(JSON.parse(r.locations) as string[]),
        interval_s: r.interval_s,
        sent: r.paused === 0 && r.kind !== 'heartbeat',
      });
    }
    this.shortest = null;
    this.bus.on('monitor.changed', ({ id, config }) =>
      this.assign(id, {
        locations: this.idsOf(config.locations),
        interval_s: config.interval_s,
        sent: !config.paused && config.kind !== 'heartbeat',
      }),
    );
    this.bus.on('monitor.deleted', ({ id }) => this.assign(id, null));
    // A location already offline at the start was announced before the stop (or its silence falls
    // in the service's own offline period, which has its own notice): only changes from now on are.
    for (const id of this.names.keys()) {
      const state = this.stateOf(id);
      if (state === 'offline') this.offline.add(id);
      if (state === 'online') this.counting.add(id);
    }
    // The engine counts the votes of online locations only (engine/locations/location-votes.ts).
    this.engine.votes.setOnlineCheck((name) => {
      for (const id of this.counting) if (this.names.get(id) === name) return true;
      return false;
    });
    this.sweeper.start();
  }

  onApplicationShutdown(): void {
    this.sweeper.stop();
    for (const set of this.waiters.values()) for (const wake of set) wake();
  }

  /** A location renamed: the engine's tracks of it (kept by name) carry on under the new name. */
  renamed(from: string, to: string): void {
    this.engine.votes.rename(from, to);
  }

  /** The rows again, after a location was created, renamed or deleted (contacts of deleted ones go). */
  async reload(): Promise<LocationRow[]> {
    const rows = await allLocations(this.db);
    this.names.clear();
    for (const r of rows) {
      this.names.set(r.id, r.name);
      if (r.last_seen_at !== null && !this.contacts.has(r.id)) {
        this.contacts.set(r.id, { at: r.last_seen_at, version: r.version, address: r.address, saved: r.last_seen_at });
      }
    }
    for (const id of [...this.contacts.keys()]) if (!this.names.has(id)) this.contacts.delete(id);
    for (const id of [...this.offline]) if (!this.names.has(id)) this.offline.delete(id);
    for (const id of [...this.counting]) if (!this.names.has(id)) this.counting.delete(id);
    return rows;
  }

  /** Location names as monitors list them → ids (`local` is 0; a name with no location is left out). */
  idsOf(names: readonly string[]): number[] {
    const byName = new Map([...this.names].map(([id, name]) => [name, id]));
    return names.flatMap((n) => (n === LOCAL_NAME ? [LOCAL_ID] : byName.has(n) ? [byName.get(n) as number] : []));
  }

  nameOf(id: number): string | undefined {
    return this.names.get(id);
  }

  revisionOf(location: number): string {
    return `${this.boot}.${this.revisions.get(location) ?? 0}`;
  }

  /** The assignment of a location changed: its revision moves and a waiting poll answers now. */
  bump(location: number): void {
    this.revisions.set(location, (this.revisions.get(location) ?? 0) + 1);
    const set = this.waiters.get(location);
    if (!set) return;
    this.waiters.delete(location);
    for (const wake of set) wake();
  }

  /** Resolves when the location's revision moves, or after `ms`. */
  waitForChange(location: number, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiters.get(location) ?? new Set<() => void>();
      this.waiters.set(location, set);
      const done = (): void => {
        clearTimeout(timer);
        set.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
  }

  /** A monitor's new assignment (null: deleted): every location it joins or leaves reloads. */
  assign(monitorId: number, next: Assignment | null): void {
    const before = this.assigned.get(monitorId);
    if (next) this.assigned.set(monitorId, next);
    else this.assigned.delete(monitorId);
    this.shortest = null;
    const touched = new Set([...(before?.locations ?? []), ...(next?.locations ?? [])]);
    for (const id of touched) if (this.names.has(id)) this.bump(id);
  }

  /** The monitors a location checks (sent ones only, unless `all`). */
  monitorsOf(location: number, all = false): number[] {
    const out: number[] = [];
    for (const [id, a] of this.assigned) if ((all || a.sent) && a.locations.includes(location)) out.push(id);
    return out;
  }

  assignmentOf(monitorId: number): Assignment | undefined {
    return this.assigned.get(monitorId);
  }

  /** How many monitors list each location. */
  counts(): Map<number, number> {
    const out = new Map<number, number>();
    for (const a of this.assigned.values()) for (const id of a.locations) out.set(id, (out.get(id) ?? 0) + 1);
    return out;
  }

  contactOf(location: number): Contact | undefined {
    return this.contacts.get(location);
  }

  stateOf(location: number, now = this.clock.now()): LocationState {
    return locationState(this.contacts.get(location)?.at ?? null, this.offlineAfter(location), now);
  }

  /** Online now: its votes count (docs/agents.md). `local` is always online. */
  isOnline(location: number, now = this.clock.now()): boolean {
    return location === LOCAL_ID || this.stateOf(location, now) === 'online';
  }

  private offlineAfter(location: number): number {
    if (this.shortest === null) {
      this.shortest = new Map();
      for (const a of this.assigned.values()) {
        if (!a.sent) continue;
        for (const id of a.locations)
          this.shortest.set(id, Math.min(this.shortest.get(id) ?? a.interval_s, a.interval_s));
      }
    }
    return offlineAfterMs(this.shortest.get(location) ?? null);
  }

  /**
   * An agent's contact: kept in memory at once (its state is online from now), written when the
   * version or address changed or the last write is older than CONTACT_WRITE_MS; `inTx` when the
   * caller writes it in its own transaction (a results batch).
   */
  async contact(location: number, c: Contact, inTx = false): Promise<void> {
    const before = this.contacts.get(location);
    // Offline by the clock, whether or not a sweep has said so yet: its old votes are forgotten.
    const returning = before !== undefined && this.stateOf(location, c.at) === 'offline';
    const changed = !before || before.version !== c.version || before.address !== c.address;
    const due = changed || c.at - before.saved >= CONTACT_WRITE_MS;
    this.contacts.set(location, { ...c, saved: due || inTx ? c.at : before.saved });
    const name = this.names.get(location);
    if (returning && name !== undefined) this.engine.votes.forget(name);
    if (due && !inTx) await this.db.tx((m) => touchLocationIn(m, location, c));
    // Offline or never seen until now: its votes count from this contact on.
    if (!this.counting.has(location)) await this.sweep();
  }

  /**
   * Every location's state against the clock. A location that starts or stops counting (online,
   * or not) has its monitors judged again; going offline or coming back is also a line, then a
   * notice (a first contact is not).
   */
  sweep(): Promise<void> {
    const next = this.sweeping.then(() => this.sweepNow());
    this.sweeping = next;
    return next;
  }

  private async sweepNow(): Promise<void> {
    const now = this.clock.now();
    const moves: LocationMove[] = [];
    for (const [id, name] of this.names) {
      const state = this.stateOf(id, now);
      const online = state === 'online';
      const moved = online !== this.counting.has(id);
      if (online) this.counting.add(id);
      else this.counting.delete(id);
      const offline = state === 'offline';
      if (offline === this.offline.has(id)) {
        if (moved) moves.push({ name, said: null });
        continue;
      }
      if (offline) this.offline.add(id);
      else this.offline.delete(id);
      const seen = this.contacts.get(id)?.at ?? null;
      const text = offline
        ? `Location "${name}" is offline: no contact from its agent since ${seen === null ? 'its start' : formatWhen(seen)}; its results do not count until it is back`
        : `Location "${name}" is back online: its results count again`;
      const line = {
        kind: 'location' as const,
        at: now,
        text,
        actor: 'system',
        data: { location_id: id, name, online: !offline },
      };
      moves.push({ name, said: { line, notice: text } });
    }
    if (moves.length === 0) return;
    try {
      await this.engine.locations.moved(moves, now);
    } catch (err) {
      this.log.error(`could not judge the monitors of locations that moved: ${String(err)}`);
    }
  }
}
