/**
 * POST /import and the heartbeats' ping token hashes (issue 42): a hash belongs to one monitor
 * (the `monitors` table holds it UNIQUE), so a document that would give one hash to two monitors
 * is an error on that item's `heartbeat_token_sha256`, found alike by the dry run and the real run,
 * and never a 500 from the unique index.
 */
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { heartbeatMonitor, tcpMonitor } from '../support/monitors';

const FIELD = 'heartbeat_token_sha256';
const HASH = 'ab'.repeat(32);

describe('import: one ping token hash, one monitor', () => {
  let t: TestApp;
  let admin: string;
  let write: string;
  beforeEach(async () => {
    t = await startApp();
    const { cookie } = await createOwner(t);
    admin = await createKey(t, cookie, 'admin');
    write = await createKey(t, cookie, 'write');
  });
  afterEach(async () => {
    await t.close();
  });

  const docOf = (monitors: unknown[]) => ({ service_export: 1, monitors, channels: [], status_page: {} });
  const importDoc = (doc: Record<string, unknown>, dryRun: boolean) =>
    t.http
      .post('/api/v1/import')
      .set(bearer(admin))
      .send({ ...doc, dry_run: dryRun });
  const monitorCount = async () => ((await t.db.query('SELECT COUNT(*) AS n FROM monitors')) as { n: number }[])[0].n;

  /** Both runs give the same answer (but for dry_run), with nothing written and no 500. */
  async function bothRuns(doc: Record<string, unknown>) {
    const before = await monitorCount();
    const dry = await importDoc(doc, true);
    expect(dry.status).toBe(200);
    const real = await importDoc(doc, false);
    expect(real.status).toBe(200);
    expect({ ...real.body, dry_run: true }).toEqual(dry.body);
    expect(real.body.applied).toBe(false);
    expect(await monitorCount()).toBe(before);
    return real.body;
  }

  it('refuses an exported heartbeat re-imported under a new slug, naming the monitor that holds its token; its ping URL still pings the original', async () => {
    const hb = (await t.http.post('/api/v1/monitors').set(bearer(write)).send(heartbeatMonitor()).expect(201)).body;
    const doc = (await t.http.get('/api/v1/export?secrets=1').set(bearer(admin)).expect(200)).body;
    const copy = { ...doc.monitors[0], slug: 'backup-copy', name: 'Backup copy' };
    const answer = await bothRuns(docOf([copy]));
    expect(answer).toMatchObject({
      created: [],
      updated: [],
      unchanged: [],
      errors: [
        {
          slug: 'backup-copy',
          index: 0,
          fields: [{ field: FIELD, message: expect.stringContaining('"nightly-backup"') }],
        },
      ],
    });
    await t.http.get(`/hb/${hb.heartbeat_url.split('/hb/')[1]}`).expect(200);
    // The same item under its own slug is the monitor itself: unchanged, as before.
    expect((await importDoc(doc, false).expect(200)).body.unchanged).toEqual(['nightly-backup']);
  });

  it('refuses two items of one document with one hash, naming the first', async () => {
    const answer = await bothRuns(
      docOf([
        heartbeatMonitor({ name: 'One', [FIELD]: HASH }),
        tcpMonitor(),
        heartbeatMonitor({ name: 'Two', [FIELD]: HASH }),
      ]),
    );
    expect(answer.created).toEqual(['one', 'database']);
    expect(answer.errors).toEqual([
      { slug: 'two', index: 2, fields: [{ field: FIELD, message: expect.stringContaining('item 0 ("one")') }] },
    ]);
  });

  it("lists the token problem beside the item's other problems, so one corrected document goes through", async () => {
    const answer = await bothRuns(
      docOf([
        heartbeatMonitor({ name: 'One', [FIELD]: HASH }),
        heartbeatMonitor({ name: 'Two', interval_s: 5, [FIELD]: HASH }),
      ]),
    );
    expect(answer.errors).toEqual([
      {
        slug: 'two',
        index: 1,
        fields: [
          expect.objectContaining({ field: 'interval_s' }),
          { field: FIELD, message: expect.stringContaining('item 0') },
        ],
      },
    ]);
  });

  it('refuses a hash held by a stored monitor that the same document moves to another hash (one rule, whatever the order of writes)', async () => {
    await importDoc(docOf([heartbeatMonitor({ name: 'Old', [FIELD]: HASH })]), false).expect(200);
    const answer = await bothRuns(
      docOf([
        heartbeatMonitor({ name: 'New', [FIELD]: HASH }),
        heartbeatMonitor({ name: 'Old', [FIELD]: 'cd'.repeat(32) }),
      ]),
    );
    expect(answer.errors).toEqual([
      { slug: 'new', index: 0, fields: [{ field: FIELD, message: expect.stringContaining('"old"') }] },
    ]);
  });

  it('gives a stored monitor a hash nobody holds, and the new token pings it', async () => {
    await importDoc(docOf([heartbeatMonitor({ name: 'Old', [FIELD]: HASH })]), false).expect(200);
    const token = 'a-token-made-elsewhere';
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update(token).digest('hex');
    const res = await importDoc(docOf([heartbeatMonitor({ name: 'Old', [FIELD]: hash })]), false).expect(200);
    expect(res.body.updated).toEqual(['old']);
    await t.http.get(`/hb/${token}`).expect(200);
  });
});
