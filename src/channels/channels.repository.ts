/**
 * The channels table. Secret values of a config are sealed on every write and opened on every
 * read (docs/security.md); every channel is also held in memory (there are few), because the
 * alert planner runs inside the writer's transaction and must not read the table each time.
 */
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { mapSecrets } from '../common/secret-fields';
import { Database } from '../db/database';
import { SECRET_BOX, SecretBox } from '../db/secret-box';
import type { ChannelTarget } from './alert-rules';
import type { Channel, ChannelInput } from './channel-body';
import type { AlertEventType, ChannelKind } from './channel-kind';
import { senderOf } from './senders/registry';

interface ChannelRow {
  id: number;
  kind: ChannelKind;
  name: string;
  enabled: number;
  events: string;
  config: string;
  created_at: number;
  updated_at: number;
}

@Injectable()
export class ChannelsRepository implements OnModuleInit {
  private readonly byId = new Map<number, Channel>();
  private loaded = false;

  constructor(
    private readonly db: Database,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.load();
  }

  private async load(): Promise<void> {
    if (this.loaded) return;
    const rows = (await this.db.read('SELECT * FROM channels ORDER BY id')) as ChannelRow[];
    for (const r of rows) this.byId.set(r.id, this.fromRow(r));
    this.loaded = true;
  }

  /** Every channel, by id. */
  all(): Channel[] {
    return [...this.byId.values()];
  }

  get(id: number): Channel | undefined {
    return this.byId.get(id);
  }

  /** The channels as the alert rules see them. */
  targets(): ChannelTarget[] {
    return this.all().map((c) => ({ id: c.id, enabled: c.enabled, events: c.events }));
  }

  async insertIn(m: EntityManager, input: ChannelInput, now: number): Promise<Channel> {
    // TypeORM's sqlite runner answers an INSERT with the new rowid.
    const id = (await m.query(
      'INSERT INTO channels (kind, name, enabled, events, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [input.kind, input.name, input.enabled ? 1 : 0, JSON.stringify(input.events), this.sealed(input.kind, input.config), now, now],
    )) as number;
    return { id, ...input, created_at: now, updated_at: now };
  }

  async updateIn(m: EntityManager, c: Channel): Promise<void> {
    await m.query('UPDATE channels SET name = ?, enabled = ?, events = ?, config = ?, updated_at = ? WHERE id = ?', [
      c.name, c.enabled ? 1 : 0, JSON.stringify(c.events), this.sealed(c.kind, c.config), c.updated_at, c.id,
    ]);
  }

  async deleteIn(m: EntityManager, id: number): Promise<void> {
    await m.query('DELETE FROM channels WHERE id = ?', [id]);
  }

  /** After a commit: memory follows the table. */
  remember(c: Channel): void {
    this.byId.set(c.id, c);
  }

  forget(id: number): void {
    this.byId.delete(id);
  }

  private sealed(kind: ChannelKind, config: Record<string, unknown>): string {
    return JSON.stringify(mapSecrets(config, senderOf(kind).secrets, (s) => this.box.seal(s)));
  }

  private fromRow(r: ChannelRow): Channel {
    const config = mapSecrets(JSON.parse(r.config) as Record<string, unknown>, senderOf(r.kind).secrets, (s) => this.box.open(s));
    return {
      id: r.id,
      kind: r.kind,
      name: r.name,
      enabled: r.enabled === 1,
      events: JSON.parse(r.events) as AlertEventType[],
      config,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }
}
