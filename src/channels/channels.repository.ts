/**
 * The channels table. Secret values of a config are sealed on every write and opened on every
 * read (docs/security.md); every channel is also held in memory (there are few), because the
 * alert planner runs inside the writer's transaction and must not read the table each time.
 */
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { mapSecrets } from '../common/secrets/secret-fields';
import { Database } from '../db/database';
import { SECRET_BOX, SecretBox } from '../db/secret-box';
import type { ChannelTarget } from './alert-rules';
import type { Channel, ChannelInput } from './channel-body';
import type { AlertEventType } from './channel-kind';
import { senderOf } from './senders/registry';

type Seal = (value: string) => string;
type Stored = Omit<Channel, 'id'>;

/**
 * The table's columns besides the id, in its order, each with how its value is stored: the one
 * list the INSERT, the UPDATE, the SELECT and ChannelRow are built from (fromRow reads them back).
 */
const COLUMNS = {
  kind: (c: Stored) => c.kind,
  name: (c: Stored) => c.name,
  enabled: (c: Stored): number => (c.enabled ? 1 : 0),
  events: (c: Stored) => JSON.stringify(c.events),
  config: (c: Stored, seal: Seal) => JSON.stringify(mapSecrets(c.config, senderOf(c.kind).secrets, seal)),
  created_at: (c: Stored) => c.created_at,
  updated_at: (c: Stored) => c.updated_at,
};
type Column = keyof typeof COLUMNS;
type ChannelRow = { id: number } & { [C in Column]: ReturnType<(typeof COLUMNS)[C]> };

const INSERTED = Object.keys(COLUMNS) as Column[];
/** A channel's kind and creation time never change. */
const UPDATED = INSERTED.filter((c) => c !== 'kind' && c !== 'created_at');
const values = (columns: readonly Column[], c: Stored, seal: Seal) => columns.map((col) => COLUMNS[col](c, seal));

@Injectable()
export class ChannelsRepository implements OnModuleInit {
  private readonly byId = new Map<number, Channel>();
  private readonly seal = (value: string) => this.box.seal(value);
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
    const rows = await this.db.read<ChannelRow[]>(`SELECT id, ${INSERTED.join(', ')} FROM channels ORDER BY id`);
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
    const stored: Stored = { ...input, created_at: now, updated_at: now };
    // TypeORM's sqlite runner answers an INSERT with the new rowid.
    const id = await m.query<number>(
      `INSERT INTO channels (${INSERTED.join(', ')}) VALUES (${INSERTED.map(() => '?').join(', ')})`,
      values(INSERTED, stored, this.seal),
    );
    return { id, ...stored };
  }

  async updateIn(m: EntityManager, c: Channel): Promise<void> {
    await m.query(`UPDATE channels SET ${UPDATED.map((col) => `${col} = ?`).join(', ')} WHERE id = ?`, [
      ...values(UPDATED, c, this.seal),
      c.id,
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

  private fromRow(r: ChannelRow): Channel {
    const config = mapSecrets(JSON.parse(r.config) as Record<string, unknown>, senderOf(r.kind).secrets, (s) =>
      this.box.open(s),
    );
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
