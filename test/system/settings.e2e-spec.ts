/**
 * GET and PATCH /settings on the real app: every key, who may change what, the timeline line of a
 * change, and what the settings drive: defaults of new monitors, the days of GET uptime, the
 * nightly retention and the email cap.
 */
import { EngineService } from '../../src/engine/engine.service';
import { RetentionService } from '../../src/history/retention.service';
import { CheckWriter } from '../../src/history/writer';
import { MailService } from '../../src/mail/mail.service';
import { NO_PHASES, Outcome } from '../../src/probes/check-result';
import type { SettingsAnswer } from '../../src/system/settings-api.service';
import { ORIGIN, OWNER, PUBLIC_URL, TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { heartbeatMonitor, httpMonitor, tcpMonitor } from '../support/monitors';

const H = 3_600_000;
const D = 24 * H;

describe('settings', () => {
  let t: TestApp;
  let cookie: string;
  let keys: { read: string; write: string; admin: string };

  beforeEach(async () => {
    t = await startApp();
    ({ cookie } = await createOwner(t));
    keys = {
      read: await createKey(t, cookie, 'read'),
      write: await createKey(t, cookie, 'write'),
      admin: await createKey(t, cookie, 'admin', 'ops'),
    };
  });
  afterEach(async () => t.close());

  const session = () => ({ Cookie: cookie, Origin: ORIGIN });
  const get = async () => (await t.http.get('/api/v1/settings').set(bearer(keys.read)).expect(200)).body;
  const patch = (body: unknown, who: Record<string, string> = bearer(keys.admin)) =>
    t.http
      .patch('/api/v1/settings')
      .set(who)
      .send(body as object);
  const settingsLines = async () =>
    (await t.http.get('/api/v1/events?kind=settings_changed').set(bearer(keys.read)).expect(200)).body.items as {
      actor: string;
      text: string;
      data: unknown;
    }[];

  it('answers the settings object of the spec with the defaults, the owner email and the public URL', async () => {
    expect(await get()).toEqual({
      defaults: {
        interval_s: 60,
        timeout_ms: 10_000,
        confirm_after: 2,
        retry_interval_s: 10,
        recover_after: 1,
        slow_after: 3,
      },
      tz_offset_min: 0,
      email: { configured: false, providers: [], from: 'Farsight <farsight@localhost>', daily_cap: 200, sent_today: 0 },
      owner_email: OWNER.email,
      public_url: PUBLIC_URL,
      retention: { checks_days: 7, hourly_days: 35, events_days: 400 },
      allow_private_targets: true,
      metrics_public: false,
      watchdog: null,
    });
  });

  it.each<[string, Record<string, unknown>, (s: SettingsAnswer) => unknown, unknown]>([
    ['defaults.interval_s', { defaults: { interval_s: 120 } }, (s) => s.defaults.interval_s, 120],
    ['defaults.timeout_ms', { defaults: { timeout_ms: 3000 } }, (s) => s.defaults.timeout_ms, 3000],
    ['defaults.confirm_after', { defaults: { confirm_after: 4 } }, (s) => s.defaults.confirm_after, 4],
    ['defaults.retry_interval_s', { defaults: { retry_interval_s: 30 } }, (s) => s.defaults.retry_interval_s, 30],
    ['defaults.recover_after', { defaults: { recover_after: 2 } }, (s) => s.defaults.recover_after, 2],
    ['defaults.slow_after', { defaults: { slow_after: 5 } }, (s) => s.defaults.slow_after, 5],
    ['tz_offset_min', { tz_offset_min: -300 }, (s) => s.tz_offset_min, -300],
    ['retention.checks_days', { retention: { checks_days: 3 } }, (s) => s.retention.checks_days, 3],
    ['retention.hourly_days', { retention: { hourly_days: 60 } }, (s) => s.retention.hourly_days, 60],
    ['retention.events_days', { retention: { events_days: 90 } }, (s) => s.retention.events_days, 90],
    ['email.daily_cap', { email: { daily_cap: 25 } }, (s) => s.email.daily_cap, 25],
  ])(
    'changes %s with an admin key and writes who changed it, from what to what, to the timeline',
    async (field, body, read, value) => {
      const res = await patch(body).expect(200);
      expect(read(res.body)).toBe(value);
      expect(read(await get())).toBe(value);
      const [line] = await settingsLines();
      expect(line).toMatchObject({
        actor: 'key:ops',
        text: expect.stringMatching(
          new RegExp(`^settings changed: ${field.replace('.', '\\.')} from \\S+ to ${value}$`),
        ),
      });
      expect(line.data).toEqual({ changes: [{ field, from: expect.anything(), to: value }] });
    },
  );

  it('keeps every setting across a restart', async () => {
    const body = {
      defaults: {
        interval_s: 120,
        timeout_ms: 3000,
        confirm_after: 4,
        retry_interval_s: 30,
        recover_after: 2,
        slow_after: 5,
      },
      tz_offset_min: 330,
      retention: { checks_days: 3, hourly_days: 60, events_days: 90 },
      email: { daily_cap: 25 },
    };
    await patch(body).expect(200);
    await patch({ allow_private_targets: false }, session()).expect(200);
    const expected = await get();
    const { dataDir, clock } = t;
    await t.app.close();
    await t.db.close();
    t = await startApp({}, { dataDir, clock });
    // The session lives in the database, so the cookie still signs in.
    expect((await t.http.get('/api/v1/settings').set('Cookie', cookie).expect(200)).body).toEqual(expected);
    expect(expected).toMatchObject({ ...body, email: { daily_cap: 25 }, allow_private_targets: false });
  });

  it('writes one line for a PATCH of several keys, and none for a PATCH that changes nothing', async () => {
    await patch({ defaults: { interval_s: 30 }, tz_offset_min: 60 }).expect(200);
    await patch({ defaults: { interval_s: 30 } }).expect(200);
    await patch(await get()).expect(200); // a GET answer sent back as it is
    const lines = await settingsLines();
    expect(lines).toHaveLength(1);
    expect(lines[0].text).toBe('settings changed: defaults.interval_s from 60 to 30, tz_offset_min from 0 to 60');
  });

  it('keeps both of two PATCHes of different keys of one section sent at the same time', async () => {
    await Promise.all([
      patch({ defaults: { interval_s: 120 } }).expect(200),
      patch({ defaults: { confirm_after: 5 } }).expect(200),
    ]);
    expect((await get()).defaults).toMatchObject({ interval_s: 120, confirm_after: 5 });
    expect(await settingsLines()).toHaveLength(2);
  });

  it.each([
    [{ defaults: { interval_s: 5 } }, 'defaults.interval_s'],
    [{ defaults: { timeout_ms: 70_000 } }, 'defaults.timeout_ms'],
    [{ defaults: { retry_interval_s: 120 } }, 'defaults.retry_interval_s'],
    [{ defaults: { slow_ms: 300 } }, 'defaults.slow_ms'],
    [{ tz_offset_min: 900 }, 'tz_offset_min'],
    [{ tz_offset_min: 7 }, 'tz_offset_min'],
    [{ retention: { checks_days: 0 } }, 'retention.checks_days'],
    [{ retention: { hourly_days: 10 } }, 'retention.hourly_days'],
    [{ retention: { events_days: 1 } }, 'retention.events_days'],
    [{ email: { daily_cap: -1 } }, 'email.daily_cap'],
    [{ email: { from: 'x@y.z' } }, 'email.from'],
    [{ owner_email: 'mallory@example.com' }, 'owner_email'],
    [{ public_url: 'https://phish.example' }, 'public_url'],
    [{ theme: 'dark' }, 'theme'],
    [{ daily_cap: 10 }, 'daily_cap'],
  ])('refuses %j with 422 naming %s, and changes nothing', async (body, field) => {
    const before = await get();
    const res = await patch({ tz_offset_min: 120, ...body }).expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field, fields: [expect.objectContaining({ field })] });
    expect(await get()).toEqual(before);
    expect(await settingsLines()).toEqual([]);
  });

  it('needs admin: read and write keys get 403, and nothing changes', async () => {
    for (const key of [keys.read, keys.write]) {
      const res = await patch({ tz_offset_min: 60 }, bearer(key)).expect(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect((await get()).tz_offset_min).toBe(0);
  });

  it('asks a session for a fresh sign-in (step-up) but never an admin key', async () => {
    await patch({ tz_offset_min: 60 }, session()).expect(200);
    t.clock.advance(12 * H + 1);
    const res = await patch({ tz_offset_min: 120 }, session()).expect(403);
    expect(res.body.error.code).toBe('step_up');
    await patch({ tz_offset_min: 120 }).expect(200);
    const lines = await settingsLines();
    expect(lines.map((l) => l.actor)).toEqual(['key:ops', 'owner']);
  });

  describe('allow_private_targets', () => {
    it('can be changed by the owner session only: an admin key gets 403 and nothing changes', async () => {
      const res = await patch({ allow_private_targets: false, tz_offset_min: 60 }).expect(403);
      expect(res.body.error).toMatchObject({ code: 'forbidden', field: 'allow_private_targets' });
      expect(await get()).toMatchObject({ allow_private_targets: true, tz_offset_min: 0 });

      await patch({ allow_private_targets: false }, session()).expect(200);
      expect((await get()).allow_private_targets).toBe(false);
      const [line] = await settingsLines();
      expect(line).toMatchObject({
        actor: 'owner',
        text: 'settings changed: allow_private_targets from true to false',
      });
    });

    it('lets an admin key send the current value back (a GET answer edited elsewhere)', async () => {
      const s = await get();
      const res = await patch({ ...s, tz_offset_min: 60 }).expect(200);
      expect(res.body).toMatchObject({ allow_private_targets: true, tz_offset_min: 60 });
    });
  });

  describe('what the settings drive', () => {
    it('gives new monitors the defaults, and leaves existing monitors as they are', async () => {
      const old = (
        await t.http
          .post('/api/v1/monitors')
          .set(bearer(keys.write))
          .send(httpMonitor({ name: 'Old' }))
          .expect(201)
      ).body;
      await patch({
        defaults: {
          interval_s: 300,
          timeout_ms: 4000,
          confirm_after: 3,
          retry_interval_s: 20,
          recover_after: 2,
          slow_after: 6,
        },
      }).expect(200);
      const created = (
        await t.http
          .post('/api/v1/monitors')
          .set(bearer(keys.write))
          .send(httpMonitor({ name: 'New' }))
          .expect(201)
      ).body;
      expect(created).toMatchObject({
        interval_s: 300,
        timeout_ms: 4000,
        confirm_after: 3,
        retry_interval_s: 20,
        recover_after: 2,
        slow_after: 6,
      });
      const bulk = await t.http
        .post('/api/v1/monitors/bulk')
        .set(bearer(keys.write))
        .send({ monitors: [tcpMonitor({ name: 'Bulk' })] })
        .expect(200);
      expect(bulk.body.created).toEqual(['bulk']);
      expect((await t.http.get('/api/v1/monitors/slug:bulk').set(bearer(keys.read)).expect(200)).body).toMatchObject({
        interval_s: 300,
        confirm_after: 3,
      });
      expect((await t.http.get(`/api/v1/monitors/${old.id}`).set(bearer(keys.read)).expect(200)).body).toMatchObject({
        interval_s: 60,
        timeout_ms: 10_000,
        confirm_after: 2,
      });
    });

    it('gives a new heartbeat monitor at least 30 s when the default interval is shorter', async () => {
      await patch({ defaults: { interval_s: 10 } }).expect(200);
      const body = heartbeatMonitor();
      delete (body as Record<string, unknown>).interval_s;
      const created = (await t.http.post('/api/v1/monitors').set(bearer(keys.write)).send(body).expect(201)).body;
      expect(created.interval_s).toBe(30);
    });

    it('moves the day boundaries of GET /monitors/{id}/uptime for results written after a change of tz_offset_min', async () => {
      const id = (
        await t.http
          .post('/api/v1/monitors')
          .set(bearer(keys.write))
          .send(tcpMonitor({ interval_s: 60 }))
          .expect(201)
      ).body.id as number;
      const engine = t.app.get(EngineService);
      const writer = t.app.get(CheckWriter);
      const feed = async (at: number, outcome: Outcome) => {
        t.clock.set(at);
        engine.record(
          id,
          {
            at_ms: at,
            outcome,
            latency_ms: 5,
            phases: { ...NO_PHASES },
            status: null,
            error: outcome === 'down' ? { code: 'refused', message: 'refused' } : null,
            cert: null,
            detail: null,
          },
          { kind: 'manual' },
        );
        await writer.flush();
      };
      const uptime = async () =>
        (await t.http.get(`/api/v1/monitors/${id}/uptime?days=3`).set(bearer(keys.read)).expect(200)).body.days as {
          date: string;
          checks: number;
        }[];

      // 23:30 UTC on 1 November, zone UTC: a check of 1 November.
      await feed(Date.UTC(2026, 10, 1, 23, 30), 'up');
      expect((await uptime()).map((d) => [d.date, d.checks])).toEqual([
        ['2026-10-30', 0],
        ['2026-10-31', 0],
        ['2026-11-01', 1],
      ]);

      // The zone becomes UTC+2: 23:30 UTC on 2 November is 01:30 on 3 November there.
      await patch({ tz_offset_min: 120 }).expect(200);
      await feed(Date.UTC(2026, 10, 2, 23, 30), 'up');
      expect((await uptime()).map((d) => [d.date, d.checks])).toEqual([
        ['2026-11-01', 1],
        ['2026-11-02', 0],
        ['2026-11-03', 1],
      ]);

      // And back: 23:40 UTC on 2 November is 2 November again in UTC.
      await patch({ tz_offset_min: 0 }).expect(200);
      await feed(Date.UTC(2026, 10, 2, 23, 40), 'up');
      expect((await uptime()).map((d) => [d.date, d.checks])).toEqual([
        ['2026-10-31', 0],
        ['2026-11-01', 1],
        ['2026-11-02', 1],
      ]);
    });

    it('feeds the retention periods to the nightly retention', async () => {
      const id = (await t.http.post('/api/v1/monitors').set(bearer(keys.write)).send(tcpMonitor()).expect(201)).body
        .id as number;
      const writer = t.app.get(CheckWriter);
      const now = t.clock.now();
      for (const age of [10, 3, 1].map((d) => d * D)) {
        writer.add({
          monitor_id: id,
          at_ms: now - age,
          outcome: 'up',
          latency_ms: 5,
          phases: { ...NO_PHASES },
          status: null,
          error: null,
          cert: null,
          detail: null,
          note: null,
        });
      }
      await writer.flush();
      const ages = async () =>
        ((await t.db.query('SELECT at FROM checks WHERE monitor_id = ? ORDER BY at', [id])) as { at: number }[]).map(
          (r) => (now - r.at) / D,
        );
      const retention = t.app.get(RetentionService);

      await retention.run();
      expect(await ages()).toEqual([3, 1]); // the default keeps 7 days
      await patch({ retention: { checks_days: 2 } }).expect(200);
      await retention.run();
      expect(await ages()).toEqual([1]);
    });

    it('gives the mail path its daily cap', async () => {
      await patch({ email: { daily_cap: 3 } }).expect(200);
      expect(await t.app.get(MailService).cap()).toMatchObject({ cap: 3, sent: 0, reached: false });
    });
  });
});
