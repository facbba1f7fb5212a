import { CheckWriter } from '../../src/history/writer';
import { SettingsService } from '../../src/settings/settings.service';
import { farmCerts } from '../../harness/servers/certs';
import { HttpFarm, startHttpFarm } from '../../harness/servers/http-farm';
import { TcpFarm, startTcpFarm } from '../../harness/servers/tcp-farm';
import { TestApp, bearer, createKey, createOwner, startApp, createMonitor } from '../support/app';
import { heartbeatMonitor, httpMonitor } from '../support/monitors';

describe('POST /monitors/test and POST /monitors/{id}/check', () => {
  let t: TestApp;
  let farm: HttpFarm;
  let tcp: TcpFarm;
  let write: string;
  let read: string;

  beforeAll(async () => {
    const certs = farmCerts();
    farm = await startHttpFarm(certs.valid);
    tcp = await startTcpFarm();
    t = await startApp({}, { ca: certs.ca });
    const { cookie } = await createOwner(t);
    write = await createKey(t, cookie, 'write');
    read = await createKey(t, cookie, 'read');
  });
  afterAll(async () => {
    await t.close();
    await farm.close();
    await tcp.close();
  });

  const storedChecks = async () => {
    await t.app.get(CheckWriter).flush();
    return t.db.query<{ monitor_id: number; outcome: number; status: number | null }[]>(
      'SELECT monitor_id, outcome, status FROM checks',
    );
  };

  it('tests an unsaved https monitor and answers a check result; nothing is stored', async () => {
    const res = await t.http
      .post('/api/v1/monitors/test')
      .set(bearer(write))
      .send(httpMonitor({}, { url: `https://localhost:${farm.https.port}/ok` }))
      .expect(200);
    expect(res.body).toEqual({
      at: expect.stringMatching(/Z$/),
      at_ms: expect.any(Number),
      outcome: 'up',
      latency_ms: expect.any(Number),
      phases: {
        dns_ms: expect.any(Number),
        connect_ms: expect.any(Number),
        tls_ms: expect.any(Number),
        ttfb_ms: expect.any(Number),
      },
      status: 200,
      error: null,
      cert: { not_after: expect.stringMatching(/Z$/), issuer: expect.any(String), subject: expect.any(String) },
      detail: res.body.detail,
    });
    expect(await t.db.query('SELECT id FROM monitors')).toEqual([]);
    expect(await storedChecks()).toEqual([]);
  });

  // Bodies are built lazily: the farm's ports exist only once beforeAll ran.
  it.each([
    ['a status outside expect_status', () => httpMonitor({}, { url: `${farm.http.url}/status/503` }), 'status'],
    [
      'a refused tcp connection',
      () => ({ name: 'x', kind: 'tcp', tcp: { host: '127.0.0.1', port: tcp.closedPort } }),
      'refused',
    ],
  ])('reports %s as down with its error code', async (_, body, code) => {
    const res = await t.http.post('/api/v1/monitors/test').set(bearer(write)).send(body()).expect(200);
    expect(res.body).toMatchObject({ outcome: 'down', error: { code, message: expect.any(String) } });
  });

  it.each([
    ['a heartbeat monitor', heartbeatMonitor(), 'kind'],
    ['an invalid body', httpMonitor({ interval_s: 1 }), 'interval_s'],
    ['an unknown field', httpMonitor({ extra: 1 }), 'extra'],
  ])('refuses %s with 422', async (_, body, field) => {
    const res = await t.http.post('/api/v1/monitors/test').set(bearer(write)).send(body).expect(422);
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('needs a write key', async () => {
    await t.http.post('/api/v1/monitors/test').set(bearer(read)).send(httpMonitor()).expect(403);
  });

  it('checks a saved monitor now and stores the result', async () => {
    const m = await createMonitor(t, write, httpMonitor({ name: 'farm' }, { url: `${farm.http.url}/ok` }));
    const before = farm.http.hits('/ok');
    const res = await t.http.post(`/api/v1/monitors/${m.id}/check`).set(bearer(write)).send({}).expect(200);
    expect(res.body).toMatchObject({ outcome: 'up', status: 200, error: null });
    expect(farm.http.hits('/ok')).toBe(before + 1);
    expect(await storedChecks()).toEqual([{ monitor_id: m.id, outcome: 0, status: 200 }]);
    await t.http.post(`/api/v1/monitors/${m.id}/check`).set(bearer(read)).expect(403);
    await t.http.post('/api/v1/monitors/99999/check').set(bearer(write)).expect(404);
  });

  it('refuses private targets when allow_private_targets is off', async () => {
    const settings = t.app.get(SettingsService);
    await t.db.tx((m) => settings.setIn(m, { allow_private_targets: false }));
    try {
      const res = await t.http
        .post('/api/v1/monitors/test')
        .set(bearer(write))
        .send(httpMonitor({}, { url: `${farm.http.url}/ok` }))
        .expect(200);
      expect(res.body).toMatchObject({ outcome: 'down', error: { code: 'private_target' } });
      expect(farm.http.hits('/ok')).toBeGreaterThan(0);
    } finally {
      await t.db.tx((m) => settings.setIn(m, { allow_private_targets: true }));
    }
  });
});
