/**
 * The owner's location routes (docs/agents.md): create (with its token, shown once), rename,
 * rotate the token, delete. A token is stored as its SHA-256 only; a rotation or a deletion
 * commits before it is answered, and agents are looked up on every request, so the old token is
 * refused from the next request on.
 */
import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { actorName, Caller } from '../common/access/caller';
import { sha256 } from '../common/access/tokens';
import { CLOCK, Clock } from '../common/clock';
import { ApiError } from '../common/http/api-error';
import type { Page } from '../common/http/paging';
import { API_ROOT } from '../common/http/routes';
import { ShownOnce, shownOnce } from '../common/secrets/shown-once';
import { toIso } from '../common/time';
import { parseId } from '../common/validation/ids';
import { Database } from '../db/database';
import { EventsService } from '../events/events.service';
import {
  deleteLocationIn,
  insertLocationIn,
  LocationRow,
  locationByIdIn,
  locationIdByNameIn,
  renameLocationIn,
  setTokenIn,
} from '../catalog/locations.table';
import { LocationBook } from './location-book';
import { LocationState, parseLocationBody } from './location-rules';
import { Changed, rewriteMonitorsIn, withoutLocation } from './monitor-locations';
import { MonitorsRepository } from '../catalog/monitors.repository';
import { EventBus } from '../events/event-bus';
import { LocationRollupsService } from '../history/locations/location-rollups';

export const TOKEN_PATTERN = /^fsa_[0-9a-f]{48}$/;

export interface LocationAnswer {
  id: number;
  name: string;
  state: LocationState;
  last_seen_at: string | null;
  version: string | null;
  address: string | null;
  monitors: number;
}

export function newAgentToken(): string {
  return `fsa_${randomBytes(24).toString('hex')}`;
}

@Injectable()
export class LocationsService {
  constructor(
    private readonly db: Database,
    private readonly book: LocationBook,
    private readonly events: EventsService,
    private readonly monitors: MonitorsRepository,
    private readonly bus: EventBus,
    private readonly rollups: LocationRollupsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** GET /locations: every location, oldest first (they are few: one page). */
  async list(): Promise<Page<LocationAnswer>> {
    const rows = await this.book.reload();
    const counts = this.book.counts();
    const now = this.clock.now();
    return { items: rows.map((r) => this.answer(r, counts.get(r.id) ?? 0, now)), next_cursor: null };
  }

  async create(body: unknown, caller: Caller | null): Promise<LocationAnswer & { token: ShownOnce }> {
    const { name } = parseLocationBody(body);
    const token = newAgentToken();
    const now = this.clock.now();
    const id = await this.db.tx(async (m) => {
      await this.uniqueIn(m, name, null);
      const id = await insertLocationIn(m, name, sha256(token), now);
      await this.events.recordIn(m, {
        kind: 'location_created',
        text: `probe location "${name}" created`,
        actor: actorName(caller),
        data: { location_id: id, name },
      });
      return id;
    });
    const rows = await this.book.reload();
    const row = rows.find((r) => r.id === id);
    if (!row) throw ApiError.notFound('location');
    return { ...this.answer(row, 0, now), token: shownOnce(token, this.again(id)) };
  }

  async rename(ref: string, body: unknown, caller: Caller | null): Promise<LocationAnswer> {
    const id = parseId(ref, 'location');
    const { name } = parseLocationBody(body);
    const now = this.clock.now();
    const actor = actorName(caller);
    let from: string | null = null;
    const changed = await this.db.tx(async (m) => {
      const row = await this.findIn(m, id);
      if (row.name === name) return [];
      from = row.name;
      await this.uniqueIn(m, name, id);
      await renameLocationIn(m, id, name);
      await this.events.recordIn(m, {
        kind: 'location_updated',
        text: `probe location "${row.name}" renamed to "${name}"`,
        actor,
        data: { location_id: id, name, fields: ['name'] },
      });
      return rewriteMonitorsIn(
        m,
        this.monitors,
        this.events,
        row.name,
        (c) => ({ locations: c.locations.map((n) => (n === row.name ? name : n)), quorum: c.quorum }),
        (c) => `monitor "${c.name}": its location "${row.name}" was renamed to "${name}"`,
        actor,
        now,
      );
    });
    const rows = await this.book.reload();
    // Before the monitors reload with the new name: each one's view from there carries on.
    if (from !== null) this.book.renamed(from, name);
    this.announce(changed);
    // The agent's config names its location: it reloads.
    this.book.bump(id);
    return this.answer(rows.find((r) => r.id === id) as LocationRow, this.book.counts().get(id) ?? 0, this.clock.now());
  }

  /** POST /locations/{id}/token: a new token, shown once; the old one is refused from now on. */
  async rotate(ref: string, caller: Caller | null): Promise<LocationAnswer & { token: ShownOnce }> {
    const id = parseId(ref, 'location');
    const token = newAgentToken();
    await this.db.tx(async (m) => {
      const row = await this.findIn(m, id);
      await setTokenIn(m, id, sha256(token));
      await this.events.recordIn(m, {
        kind: 'location_updated',
        text: `probe location "${row.name}" was given a new token; the old one stopped working`,
        actor: actorName(caller),
        data: { location_id: id, name: row.name, fields: ['token'] },
      });
    });
    const rows = await this.book.reload();
    // A poll held open with the old token ends now (it is answered 204, and its next call is refused).
    this.book.bump(id);
    const row = rows.find((r) => r.id === id) as LocationRow;
    return {
      ...this.answer(row, this.book.counts().get(id) ?? 0, this.clock.now()),
      token: shownOnce(token, this.again(id)),
    };
  }

  /** DELETE /locations/{id}: the location leaves every monitor that listed it, and its token stops working. */
  async remove(ref: string, caller: Caller | null): Promise<void> {
    const id = parseId(ref, 'location');
    const now = this.clock.now();
    const actor = actorName(caller);
    const changed = await this.db.tx(async (m) => {
      const row = await this.findIn(m, id);
      const changed = await rewriteMonitorsIn(
        m,
        this.monitors,
        this.events,
        row.name,
        (c) => withoutLocation(c, row.name),
        (c) => `monitor "${c.name}" is no longer checked from "${row.name}", which was deleted`,
        actor,
        now,
      );
      await deleteLocationIn(m, id);
      await this.events.recordIn(m, {
        kind: 'location_deleted',
        text: `probe location "${row.name}" deleted; its token stopped working`,
        actor,
        data: { location_id: id, name: row.name, monitors: changed.map((c) => c.id) },
      });
      return changed;
    });
    this.book.bump(id);
    this.rollups.dropLocation(id);
    await this.book.reload();
    this.announce(changed);
  }

  private announce(changed: Changed[]): void {
    for (const c of changed)
      this.bus.emit('monitor.changed', { id: c.id, created: false, targetChanged: false, config: c.config });
  }

  private answer(r: LocationRow, monitors: number, now: number): LocationAnswer {
    const c = this.book.contactOf(r.id);
    return {
      id: r.id,
      name: r.name,
      state: this.book.stateOf(r.id, now),
      last_seen_at: toIso(c?.at ?? r.last_seen_at),
      version: c?.version ?? r.version,
      address: c?.address ?? r.address,
      monitors,
    };
  }

  private again(id: number): string {
    return `make a new one with POST /${API_ROOT}/locations/${id}/token (the old one stops working)`;
  }

  private async findIn(m: Parameters<typeof locationByIdIn>[0], id: number): Promise<LocationRow> {
    const row = await locationByIdIn(m, id);
    if (!row) throw ApiError.notFound('location');
    return row;
  }

  private async uniqueIn(m: Parameters<typeof locationByIdIn>[0], name: string, self: number | null): Promise<void> {
    const other = await locationIdByNameIn(m, name);
    if (other !== null && other !== self)
      throw ApiError.invalid([{ field: 'name', message: `another location is already called "${name}"` }]);
  }
}
