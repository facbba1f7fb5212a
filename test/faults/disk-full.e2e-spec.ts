/**
 * A full disk, made with SQLite's max_page_count on the service's own connection: API writes
 * answer 503 and change nothing, check results wait (bounded) and are written once space is back.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineService } from '../../src/engine/engine.service';
import { CheckWriter } from '../../src/history/writer';
import { TestApp, bearer, createKey, createOwner, startApp, createMonitor } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { httpMonitor, tcpMonitor } from '../support/monitors';
import { SwitchServer, startSwitchServer } from '../support/switch-server';

describe('a full disk', () => {
  let h: EngineHarness;
  let t: TestApp;
  let write: string;
  let target: SwitchServer;

  beforeEach(async () => {
    h = await startEngineHarness();
    ({ t, write, target } = h);
  });
  afterEach(() => h.close());

  /**
   * The database may not grow by a page; the check table's last leaf (where new rows of the
   * newest monitors go) is filled up first, so the next check row needs a page it cannot have.
   */
  const fill = async () => {
    const [{ page_count: pages }] = await t.db.query<{ page_count: number }[]>('PRAGMA page_count');
    await t.db.query(`PRAGMA max_page_count = ${pages}`);
    for (let at = 1; ; at++) {
      const failed = await t.db
        .query('INSERT INTO checks (monitor_id, at, outcome) VALUES (2147483647, ?, 0)', [at])
        .then(
          () => false,
          () => true,
        );
      if (failed) break;
    }
  };
  const free = () => t.db.query('PRAGMA max_page_count = 1073741823');
  const monitorCount = async () => (await t.db.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM monitors'))[0].n;

  it('answers 503 unavailable to an API write that cannot be stored, and stores nothing', async () => {
    // Enough monitors that one more row needs a new page.
    for (let i = 0; i < 3; i++)
      await t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send(tcpMonitor({ name: `db ${i}` }))
        .expect(201);
    await fill();
    const before = await monitorCount();
    // A 64 KB request body needs pages the database cannot have.
    const big = httpMonitor({ name: 'one too many' }, { method: 'POST', body: 'x'.repeat(64 * 1024) });
    const res = await t.http.post('/api/v1/monitors').set(bearer(write)).send(big);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('unavailable');
    expect(res.body.error.message).toMatch(/disk|space|database/i);
    expect(await monitorCount()).toBe(before);
    await free();
    await t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send({ ...big, name: 'after' })
      .expect(201);
    expect(await monitorCount()).toBe(before + 1);
  });

  it('keeps check results while the disk is full and writes them once space is back', async () => {
    const m = await createMonitor(t, write, httpMonitor({ interval_s: 10, retry_interval_s: 10 }, { url: target.url }));
    await t.app.get(CheckWriter).flush();
    await fill();
    const writer = t.app.get(CheckWriter);
    for (let i = 0; i < 200; i++) {
      await h.advance(10_000);
      if (i % 50 === 49) await writer.flush();
    }
    expect(writer.stats.failures).toBeGreaterThan(0);
    expect(writer.pending(m.id).length).toBe(200);
    await free();
    await writer.flush();
    expect(writer.pending(m.id)).toHaveLength(0);
    const [{ n }] = await t.db.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM checks WHERE monitor_id = ?', [m.id]);
    expect(n).toBe(200);
    // The shared connection is clean: an ordinary API write works at once.
    await t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send(tcpMonitor({ name: 'after' }))
      .expect(201);
  });
});

/**
 * A real full file system: a 4 MB tmpfs holds the data dir and a filler file takes the rest. Here
 * the failure comes at COMMIT (the write-ahead log cannot grow), which is what left the shared
 * connection inside a transaction before: later "commits" were lost at the next start.
 */
/**
 * Mounting a tmpfs needs root with the right to mount (CI runs as root here). Where that is
 * missing this one case cannot run and is skipped; the max_page_count cases above still run.
 */
function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-mount-probe-'));
  try {
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]).status !== 0) return false;
    spawnSync('umount', [probe]);
    return true;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}
const onTmpfs = canMountTmpfs() ? describe : describe.skip;

onTmpfs('a full file system (tmpfs)', () => {
  let tmpfs: string;
  let dataDir: string;
  let filler: string;
  let t: TestApp;
  let write: string;
  let target: SwitchServer;

  beforeAll(async () => {
    tmpfs = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-tmpfs-'));
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', tmpfs], { encoding: 'utf8' });
    if (mount.status !== 0) throw new Error(`cannot mount a tmpfs as root: ${mount.stderr}`);
    dataDir = path.join(tmpfs, 'data');
    filler = path.join(tmpfs, 'filler');
    target = await startSwitchServer();
    t = await startApp({}, { dataDir });
    const { cookie } = await createOwner(t);
    write = await createKey(t, cookie, 'write');
  });
  afterAll(async () => {
    await t.close().catch(() => undefined);
    await target.close();
    spawnSync('umount', [tmpfs]);
    fs.rmSync(tmpfs, { recursive: true, force: true });
  });

  /** Writes zeros until the file system refuses (ENOSPC). */
  const fillUp = () => {
    const fd = fs.openSync(filler, 'w');
    const chunk = Buffer.alloc(64 * 1024);
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      fs.closeSync(fd);
    }
  };

  it('answers 503 while full, loses nothing it acknowledged, and recovers by itself when space returns', async () => {
    const engine = t.app.get(EngineService);
    const writer = t.app.get(CheckWriter);
    const m = await createMonitor(t, write, httpMonitor({ name: 'web' }, { url: target.url }));
    await writer.flush();
    fillUp();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      t.clock.advance(60_000);
      engine.tick();
      await engine.idle();
      await writer.flush();
      const res = await t.http
        .post('/api/v1/monitors')
        .set(bearer(write))
        .send(tcpMonitor({ name: `while full ${i}`, description: 'y'.repeat(400) }));
      statuses.push(res.status);
      if (res.status !== 201) expect(res.body.error.code).toBe('unavailable');
    }
    expect(statuses).toContain(503);
    expect(writer.stats.failures).toBeGreaterThan(0);
    const acknowledged = statuses.filter((s) => s === 201).length;

    fs.rmSync(filler);
    await writer.flush();
    expect(writer.pending()).toHaveLength(0);
    expect(writer.stats.failingInRow).toBe(0);
    await t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send(tcpMonitor({ name: 'after' }))
      .expect(201);

    // Whatever was acknowledged is still there after a restart, and every check result too.
    await t.close();
    t = await startApp({}, { dataDir });
    const names = (await t.db.query<{ name: string }[]>('SELECT name FROM monitors ORDER BY id')).map((r) => r.name);
    expect(names.filter((n) => n.startsWith('while full'))).toHaveLength(acknowledged);
    expect(names).toContain('after');
    const [{ n }] = await t.db.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM checks WHERE monitor_id = ?', [m.id]);
    expect(n).toBe(30);
  });
});
