import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeClock } from '../../common/clock';
import { openDatabase } from '../../db/data-source';
import { ENTITIES } from '../../entities';
import { Database } from '../../db/database';
import { EventBus } from '../../events/event-bus';
import { SESSION_IDLE_MS } from './session-lifetime';
import { SessionsService } from './sessions.service';

const T0 = Date.UTC(2026, 0, 1);

describe('SessionsService: the sessions table', () => {
  let dir: string;
  let db: Database;
  let clock: FakeClock;
  let sessions: SessionsService;
  /** Ids of: one that expired, an older live one, the newest live one. */
  let ids: { expired: number; older: number; newer: number };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-sessions-'));
    db = new Database(await openDatabase(dir, ENTITIES));
    clock = new FakeClock(T0);
    sessions = new SessionsService(db, new EventBus(), clock);
    const expired = (await sessions.create('password', '192.0.2.1', 'Firefox on Linux')).session.id;
    clock.advance(SESSION_IDLE_MS);
    const older = (await sessions.create('passkey', null, null)).session.id;
    clock.advance(1000);
    const newer = (await sessions.create('recovery', null, null)).session.id;
    ids = { expired, older, newer };
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists the live sessions, the most recently used first, and finds any by id', async () => {
    expect((await sessions.live(clock.now())).map((s) => s.id)).toEqual([ids.newer, ids.older]);
    expect(await sessions.byId(ids.expired)).toMatchObject({
      id: ids.expired,
      method: 'password',
      device: 'Firefox on Linux',
    });
    expect(await sessions.byId(999)).toBeNull();
  });

  it.each<[string, 'expired' | 'older' | null, boolean]>([
    ['a live session', 'older', true],
    ['an expired one: nothing', 'expired', false],
    ['an unknown id: nothing', null, false],
  ])('ends %s', async (_name, which, ended) => {
    const id = which === null ? 999 : ids[which];
    const s = await db.tx((m) => sessions.endIn(m, id, clock.now()));
    expect(s !== null).toBe(ended);
    expect(await sessions.byId(id)).toEqual(ended || which === null ? null : expect.objectContaining({ id }));
  });

  it.each<[string, 'newer' | null, number, string[]]>([
    ['but one, counting the live ones that ended', 'newer', 1, ['newer']],
    ['when none is kept', null, 2, []],
  ])('ends every session %s', async (_name, keep, count, left) => {
    const n = await db.tx((m) => sessions.endAllIn(m, keep === null ? null : ids[keep], clock.now()));
    expect(n).toBe(count);
    const remaining = await db.read<{ id: number }[]>('SELECT id FROM sessions ORDER BY id');
    expect(remaining.map((r) => r.id)).toEqual(left.map((k) => ids[k as 'newer']));
  });
});
