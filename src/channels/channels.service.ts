/**
 * The channel routes: list, read, create, change, delete and test. Scopes (spec "Channels and
 * deliveries"): reading needs read; name, enabled and events need write; creating, deleting and
 * any config change need admin (and a fresh sign-in for sessions). Secrets are masked in every
 * answer, and `********` sent back keeps the stored value while the URL stays the same. Every
 * change leaves a timeline line with who made it, in the change's transaction (channel-lines.ts).
 */
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/http/api-error';
import { actorName, Caller } from '../common/access/caller';
import { MonitorsRepository } from '../catalog/monitors.repository';
import { EventBus } from '../events/event-bus';
import { EventsService } from '../events/events.service';
import type { MonitorConfig } from '../probes/monitor-config';
import { CLOCK, Clock } from '../common/clock';
import { parseId } from '../common/validation/ids';
import { ID_CURSOR, Page, pageQuery, pageOf } from '../common/http/paging';
import { requireAccess } from '../common/access/scope';
import { keepSecrets, maskSecrets } from '../common/secrets/secret-fields';
import { Database } from '../db/database';
import { lastDeliveryOf } from '../mail/deliveries.table';
import {
  Channel,
  ChannelAnswer,
  ChannelInput,
  channelStatus,
  parseChannelCreate,
  parseChannelPatch,
  sameReceiver,
  toChannelAnswer,
} from './channel-body';
import { ChannelLine, channelChangedLine, channelCreatedLine, channelDeletedLine } from './channel-lines';
import { ChannelsRepository } from './channels.repository';
import { DispatcherService, TestAnswer } from './dispatcher.service';
import { senderOf } from './senders/registry';

@Injectable()
export class ChannelsService {
  constructor(
    private readonly db: Database,
    private readonly repo: ChannelsRepository,
    private readonly dispatcher: DispatcherService,
    private readonly monitors: MonitorsRepository,
    private readonly events: EventsService,
    private readonly bus: EventBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(query: Record<string, unknown>): Promise<Page<ChannelAnswer>> {
    const { limit, before } = pageQuery(query, ID_CURSOR);
    const rows = this.repo
      .all()
      .filter((c) => before === null || c.id < before)
      .sort((a, b) => b.id - a.id)
      .slice(0, limit + 1);
    const page = pageOf(rows, limit, (c) => c.id);
    return { items: await Promise.all(page.items.map((c) => this.answer(c))), next_cursor: page.next_cursor };
  }

  async get(ref: string): Promise<ChannelAnswer> {
    return this.answer(this.find(ref));
  }

  async create(body: unknown, caller: Caller): Promise<ChannelAnswer> {
    const input = parseChannelCreate(body, senderOf);
    const errors = keepSecrets(
      input.config,
      null,
      senderOf(input.kind).secrets,
      sameReceiver(senderOf(input.kind)),
      'config',
    );
    if (errors.length) throw ApiError.invalid(errors);
    const created = await this.db.tx((m) => this.saveIn(m, input, null, caller));
    this.repo.remember(created);
    return this.answer(created);
  }

  async patch(ref: string, body: unknown, caller: Caller): Promise<ChannelAnswer> {
    const current = this.find(ref);
    const patch = parseChannelPatch(body, current.kind, senderOf);
    if (patch.config !== undefined) {
      // Where alerts go, and with which secrets, is an admin's decision.
      requireAccess(caller, 'admin', true, this.clock.now());
      const errors = keepSecrets(
        patch.config,
        current.config,
        senderOf(current.kind).secrets,
        sameReceiver(senderOf(current.kind)),
        'config',
      );
      if (errors.length) throw ApiError.invalid(errors);
    }
    const next: Channel = { ...current, ...patch, updated_at: this.clock.now() };
    await this.db.tx(async (m) => {
      await this.repo.updateIn(m, next);
      await this.recordChangeIn(m, current, next, caller);
    });
    this.repo.remember(next);
    if (current.enabled && !next.enabled) await this.dispatcher.failPendingOf(next.id, 'the channel was disabled');
    return this.answer(next);
  }

  /**
   * Deletes a channel; monitors that named it stop naming it, in the same transaction (a monitor
   * that named only this channel is left with `[]`, nobody, as its list said).
   */
  async remove(ref: string, caller: Caller): Promise<void> {
    const current = this.find(ref);
    const now = this.clock.now();
    const changed = await this.db.tx(async (m) => {
      await this.repo.deleteIn(m, current.id);
      await this.recordIn(m, channelDeletedLine(current), caller);
      const out: { id: number; config: MonitorConfig }[] = [];
      for (const id of await this.monitors.idsNamingChannel(m, current.id)) {
        const stored = await this.monitors.findById(id, m);
        if (!stored) continue;
        const config: MonitorConfig = {
          ...stored.config,
          channels: (stored.config.channels ?? []).filter((c) => c !== current.id),
        };
        await this.monitors.update(m, id, config, now);
        await this.events.recordIn(m, {
          kind: 'monitor_updated',
          monitorId: id,
          actor: actorName(caller),
          text: `monitor "${config.name}" changed: channels (channel "${current.name}" was deleted)`,
          data: { fields: ['channels'] },
        });
        out.push({ id, config });
      }
      return out;
    });
    this.repo.forget(current.id);
    for (const { id, config } of changed)
      this.bus.emit('monitor.changed', { id, created: false, targetChanged: false, config });
    await this.dispatcher.failPendingOf(current.id, 'the channel was deleted');
  }

  async test(ref: string): Promise<TestAnswer> {
    return this.dispatcher.test(this.find(ref));
  }

  // ---- for export and import (system/) ---------------------------------------------------

  /** Every channel with its real secrets: for exports (which mask them unless asked) and imports; never an answer. */
  all(): Channel[] {
    return this.repo.all();
  }

  /**
   * Creates a channel (existing null) or replaces one's name, enabled, events and config, inside
   * the caller's transaction, with its timeline line. Memory is not touched: once the transaction
   * commits, the caller hands what it saved to committed(); after a rollback there is nothing to undo.
   */
  async saveIn(
    m: EntityManager,
    input: ChannelInput,
    existing: Channel | null,
    caller: Caller | null,
  ): Promise<Channel> {
    const now = this.clock.now();
    if (!existing) {
      const created = await this.repo.insertIn(m, input, now);
      await this.recordIn(m, channelCreatedLine(created), caller);
      return created;
    }
    const next: Channel = {
      ...existing,
      name: input.name,
      enabled: input.enabled,
      events: [...input.events],
      config: input.config,
      updated_at: now,
    };
    await this.repo.updateIn(m, next);
    await this.recordChangeIn(m, existing, next, caller);
    return next;
  }

  /** After saveIn's transaction committed: memory follows the table; a channel now disabled fails its pending messages, as PATCH does. */
  async committed(saved: readonly { channel: Channel; before: Channel | null }[]): Promise<void> {
    for (const s of saved) this.repo.remember(s.channel);
    for (const s of saved) {
      if (s.before?.enabled && !s.channel.enabled)
        await this.dispatcher.failPendingOf(s.channel.id, 'the channel was disabled');
    }
  }

  /** Channel ids a monitor names that do not exist (monitors/ refuses them with 422). */
  unknownIds(ids: readonly number[]): number[] {
    return ids.filter((id) => this.repo.get(id) === undefined);
  }

  /** The line of a change, when anything changed (names of fields only: channel-lines.ts). */
  private async recordChangeIn(
    m: EntityManager,
    before: Channel,
    after: Channel,
    caller: Caller | null,
  ): Promise<void> {
    const line = channelChangedLine(before, after, senderOf(after.kind).secrets);
    if (line) await this.recordIn(m, line, caller);
  }

  private async recordIn(m: EntityManager, line: ChannelLine, caller: Caller | null): Promise<void> {
    await this.events.recordIn(m, { kind: line.kind, text: line.text, actor: actorName(caller), data: line.data });
  }

  private find(ref: string): Channel {
    const c = this.repo.get(parseId(ref, 'channel'));
    if (!c) throw ApiError.notFound('channel');
    return c;
  }

  private async answer(c: Channel): Promise<ChannelAnswer> {
    const last = await lastDeliveryOf(this.db, c.id);
    return toChannelAnswer(c, maskSecrets(c.config, senderOf(c.kind).secrets), channelStatus(last));
  }
}
