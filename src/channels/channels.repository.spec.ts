import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openDatabase } from '../db/data-source';
import { Database } from '../db/database';
import { SecretBox, SECRET_KEY_BYTES } from '../db/secret-box';
import type { ChannelInput } from './channel-body';
import { ChannelsRepository } from './channels.repository';

const T0 = Date.UTC(2026, 0, 1);

const webhook: ChannelInput = {
  kind: 'webhook',
  name: 'ops hook',
  enabled: true,
  events: ['down', 'up'],
  config: {
    url: 'https://hooks.example.com/farsight',
    secret: 'shh-a-secret-value',
    headers: [{ name: 'X-Token', value: 'header-secret' }],
  },
};

describe('channels table', () => {
  let dir: string;
  let db: Database;
  const box = new SecretBox(Buffer.alloc(SECRET_KEY_BYTES, 3));

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-channels-'));
    db = new Database(await openDatabase(dir));
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A repository that loads the table afresh, as a start does. */
  const reloaded = async () => {
    const repo = new ChannelsRepository(db, box);
    await repo.onModuleInit();
    return repo;
  };

  it('stores a channel with its secrets sealed and reads it back unchanged', async () => {
    const repo = await reloaded();
    const created = await db.tx((m) => repo.insertIn(m, webhook, T0));
    expect(created).toEqual({ id: 1, ...webhook, created_at: T0, updated_at: T0 });
    expect((await reloaded()).all()).toEqual([created]);
    const [stored] = await db.read<{ config: string }[]>('SELECT config FROM channels');
    expect(stored.config).not.toContain('shh-a-secret-value');
    expect(stored.config).not.toContain('header-secret');
  });

  it('updates what may change, never the creation time', async () => {
    const repo = await reloaded();
    const created = await db.tx((m) => repo.insertIn(m, webhook, T0));
    const changed = {
      ...created,
      name: 'renamed',
      enabled: false,
      events: ['down' as const],
      config: { ...webhook.config, secret: 'another' },
      updated_at: T0 + 5,
    };
    await db.tx((m) => repo.updateIn(m, { ...changed, created_at: 0 }));
    expect((await reloaded()).all()).toEqual([changed]);
  });

  it('deletes a channel', async () => {
    const repo = await reloaded();
    const created = await db.tx((m) => repo.insertIn(m, webhook, T0));
    await db.tx((m) => repo.deleteIn(m, created.id));
    expect((await reloaded()).all()).toEqual([]);
  });
});
