/**
 * The mqtt and grpc kinds through the API like any kind: created with its defaults and a `target`
 * one-liner, refused with field errors when its settings are bad, its password masked, kept for
 * ******** on the same broker and dropped when the broker changes, tested unsaved and checked now
 * against a real mosquitto, and carried through export and import; grpc's secret metadata the same
 * way, checked against a real @grpc/grpc-js health server. The checkers themselves are proven in
 * test/checkers/mqtt.e2e-spec.ts and test/checkers/grpc.e2e-spec.ts.
 */
import { MosquittoServer, startMosquitto } from '../../harness/servers/mosquitto-server';
import { GrpcHealthServer, startGrpcHealth } from '../../harness/servers/grpc-health-server';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';

jest.setTimeout(60_000);

let t: TestApp;
let admin: string;
let broker: MosquittoServer;
let health: GrpcHealthServer;

beforeAll(async () => {
  broker = await startMosquitto({ users: { watcher: 'hunter2' } });
  health = await startGrpcHealth({ requiredToken: 'tok3n', statuses: { '': 'SERVING', api: 'NOT_SERVING' } });
  t = await startApp();
  const { cookie } = await createOwner(t);
  admin = await createKey(t, cookie, 'admin');
});
afterAll(async () => {
  await t?.close();
  await broker?.stop();
  await health?.stop();
});

const post = (path: string, body: object) => t.http.post(`/api/v1${path}`).set(bearer(admin)).send(body);
const DEFAULTS = { username: null, password: null, tls: 'off', topic: null, expect: null, json: [] };

describe('mqtt monitors through /monitors', () => {
  it.each([
    [{ url: 'mqtt://broker.lan' }, { url: 'mqtt://broker.lan', ...DEFAULTS }, 'mqtt mqtt://broker.lan'],
    [
      { url: 'mqtts://ups:pw@broker.lan', tls: 'verify', topic: 'ups/+/status', expect: 'OL' },
      {
        ...DEFAULTS,
        url: 'mqtts://broker.lan',
        username: 'ups',
        password: '********',
        tls: 'verify',
        topic: 'ups/+/status',
        expect: 'OL',
      },
      'mqtt mqtts://broker.lan ups/+/status (tls verify)',
    ],
  ])('creates an mqtt monitor from %j with its defaults and target', async (given, settings, target) => {
    const res = await post('/monitors', { name: 'Broker', kind: 'mqtt', mqtt: given }).expect(201);
    expect(res.body).toMatchObject({ kind: 'mqtt', mqtt: settings, target });
  });

  it.each([
    [{ url: 'mqtt://broker.lan/home' }, ['mqtt.url']],
    [{ url: 'ws://broker.lan:9001' }, ['mqtt.url']],
    [{ url: 'mqtt://broker.lan?clientId=x' }, ['mqtt.url']],
    [{ url: 'mqtt://broker.lan:0' }, ['mqtt.url']],
    [{ url: 'mqtt://bücher.lan' }, ['mqtt.url']],
    [{ url: 'mqtts://broker.lan' }, ['mqtt.tls']],
    [{ url: 'mqtt://broker.lan', topic: 'a/#/b' }, ['mqtt.topic']],
    [{ url: 'mqtt://broker.lan', topic: '' }, ['mqtt.topic']],
    [{ url: 'mqtt://broker.lan', expect: 'on' }, ['mqtt.expect']],
    [{ url: 'mqtt://broker.lan', topic: 't', json: [{ path: '$.a', op: '>', value: 'x' }] }, ['mqtt.json[0].value']],
    [{ url: 'mqtt://u@broker.lan', username: 'v' }, ['mqtt.url']],
    [{ url: 'mqtt://broker.lan', keepalive: 5 }, ['mqtt.keepalive']],
    [{}, ['mqtt.url']],
  ])('refuses mqtt settings %j with field errors, storing nothing', async (given, fields) => {
    const before = await t.db.query('SELECT id FROM monitors');
    const res = await post('/monitors', { name: 'bad', kind: 'mqtt', mqtt: given }).expect(422);
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toEqual(fields);
    expect(await t.db.query('SELECT id FROM monitors')).toEqual(before);
  });

  it('tests an unsaved monitor against a real broker and checks a saved one now', async () => {
    const mqtt = { url: `mqtt://127.0.0.1:${broker.port}`, username: 'watcher', password: 'hunter2' };
    const tested = await post('/monitors/test', { name: 'Broker', kind: 'mqtt', mqtt }).expect(200);
    expect(tested.body).toMatchObject({ outcome: 'up', error: null, detail: 'connected' });
    const wrong = await post('/monitors/test', {
      name: 'Broker',
      kind: 'mqtt',
      mqtt: { ...mqtt, password: 'nope' },
    }).expect(200);
    expect(wrong.body).toMatchObject({ outcome: 'down', error: { code: 'auth_failed' } });
    expect(wrong.text).not.toContain('nope');
    const created = await post('/monitors', { name: 'Saved broker', kind: 'mqtt', mqtt }).expect(201);
    const checked = await post(`/monitors/${created.body.id}/check`, {}).expect(200);
    expect(checked.body).toMatchObject({ outcome: 'up', error: null });
  });

  it('masks the password, keeps it for ******** on the same broker, and drops it when the broker changes', async () => {
    const created = await post('/monitors', {
      name: 'Home broker',
      kind: 'mqtt',
      mqtt: { url: 'mqtt://watcher:hunter2@broker.lan:1883', topic: 'home/#' },
    }).expect(201);
    expect(created.body.mqtt).toMatchObject({
      url: 'mqtt://broker.lan:1883',
      username: 'watcher',
      password: '********',
    });
    expect(created.text).not.toContain('hunter2');
    const id = created.body.id;
    const stored = (await t.db.query('SELECT settings FROM monitors WHERE id = ?', [id])) as { settings: string }[];
    expect(stored[0].settings).not.toContain('hunter2');

    const patch = (body: object) => t.http.patch(`/api/v1/monitors/${id}`).set(bearer(admin)).send(body);
    await patch({ mqtt: { topic: 'home/+/state' } }).expect(200);
    const moved = await patch({ mqtt: { url: 'mqtt://evil.example:1883' } }).expect(422);
    expect(moved.body.error.fields).toEqual([
      {
        field: 'mqtt.password',
        message: 'the server (scheme, host or port of the URL) changed: send the password again',
      },
    ]);
    const read = await t.http.get(`/api/v1/monitors/${id}`).set(bearer(admin)).expect(200);
    expect(read.body.mqtt.url).toBe('mqtt://broker.lan:1883');
    expect(read.body.mqtt.topic).toBe('home/+/state');
  });

  it('carries mqtt monitors through export and import', async () => {
    const doc = (await t.http.get('/api/v1/export?secrets=1').set(bearer(admin)).expect(200)).body;
    const home = doc.monitors.find((m: { name: string }) => m.name === 'Home broker');
    expect(home.mqtt).toEqual({
      ...DEFAULTS,
      url: 'mqtt://broker.lan:1883',
      username: 'watcher',
      password: 'hunter2',
      topic: 'home/+/state',
    });
    const masked = await t.http.get('/api/v1/export').set(bearer(admin)).expect(200);
    expect(masked.text).not.toContain('hunter2');
    const other = await startApp();
    try {
      const { cookie } = await createOwner(other);
      const key = await createKey(other, cookie, 'admin');
      await other.http
        .post('/api/v1/import')
        .set(bearer(key))
        .send({ ...doc, dry_run: false })
        .expect(200);
      const again = (await other.http.get('/api/v1/export?secrets=1').set(bearer(key)).expect(200)).body;
      expect(again.monitors).toEqual(doc.monitors);
    } finally {
      await other.close();
    }
  });
});

describe('grpc monitors through /monitors', () => {
  it('creates a grpc monitor with its defaults and target', async () => {
    const res = await post('/monitors', { name: 'API', kind: 'grpc', grpc: { target: 'api.lan:50051' } }).expect(201);
    expect(res.body).toMatchObject({
      kind: 'grpc',
      grpc: { target: 'api.lan:50051', service: '', tls: 'off', metadata: [] },
      target: 'grpc api.lan:50051',
    });
  });

  it.each([
    [{ target: 'grpc://api.lan:50051' }, ['grpc.target']],
    [{ target: 'api.lan' }, ['grpc.target']],
    [{ target: 'api.lan:99999' }, ['grpc.target']],
    [{ target: 'api.lan:1', tls: true }, ['grpc.tls']],
    [
      { target: 'api.lan:1', metadata: [{ name: 'Grpc-Timeout', value: '1S', secret: false }] },
      ['grpc.metadata[0].name'],
    ],
    [{ target: 'api.lan:1', metadata: [{ name: 'x-k', value: 'a\nb', secret: false }] }, ['grpc.metadata[0].value']],
    [{ target: 'api.lan:1', metadata: [{ name: 'x-k', value: 'v' }] }, ['grpc.metadata[0].secret']],
    [{ target: 'api.lan:1', deadline: 5 }, ['grpc.deadline']],
  ])('refuses grpc settings %j with field errors, storing nothing', async (given, fields) => {
    const before = await t.db.query('SELECT id FROM monitors');
    const res = await post('/monitors', { name: 'bad', kind: 'grpc', grpc: given }).expect(422);
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toEqual(fields);
    expect(await t.db.query('SELECT id FROM monitors')).toEqual(before);
  });

  it('tests against a real health server with a token, masks it, keeps it on the same target and drops it on another', async () => {
    const grpc = {
      target: `127.0.0.1:${health.port}`,
      metadata: [{ name: 'authorization', value: 'Bearer tok3n', secret: false }],
    };
    const tested = await post('/monitors/test', { name: 'API', kind: 'grpc', grpc }).expect(200);
    expect(tested.body).toMatchObject({ outcome: 'up', error: null, detail: 'SERVING' });
    const down = await post('/monitors/test', { name: 'API', kind: 'grpc', grpc: { ...grpc, service: 'api' } }).expect(
      200,
    );
    expect(down.body).toMatchObject({ outcome: 'down', error: { code: 'not_serving' } });

    const created = await post('/monitors', { name: 'Token API', kind: 'grpc', grpc }).expect(201);
    expect(created.body.grpc.metadata).toEqual([{ name: 'authorization', value: '********', secret: true }]);
    expect(created.text).not.toContain('tok3n');
    const id = created.body.id;
    const checked = await post(`/monitors/${id}/check`, {}).expect(200);
    expect(checked.body).toMatchObject({ outcome: 'up', error: null });
    const patch = (body: object) => t.http.patch(`/api/v1/monitors/${id}`).set(bearer(admin)).send(body);
    await patch({ grpc: { service: '' } }).expect(200);
    const moved = await patch({ grpc: { target: 'evil.example:50051' } }).expect(422);
    expect(moved.body.error.fields).toEqual([
      { field: 'grpc.metadata[0].value', message: 'the target (host or port) changed: send the secret metadata again' },
    ]);

    const doc = (await t.http.get('/api/v1/export?secrets=1').set(bearer(admin)).expect(200)).body;
    const exported = doc.monitors.find((m: { name: string }) => m.name === 'Token API');
    expect(exported.grpc.metadata).toEqual([{ name: 'authorization', value: 'Bearer tok3n', secret: true }]);
    expect((await t.http.get('/api/v1/export').set(bearer(admin)).expect(200)).text).not.toContain('tok3n');
    const other = await startApp();
    try {
      const { cookie } = await createOwner(other);
      const key = await createKey(other, cookie, 'admin');
      await other.http
        .post('/api/v1/import')
        .set(bearer(key))
        .send({ ...doc, dry_run: false })
        .expect(200);
      const again = (await other.http.get('/api/v1/export?secrets=1').set(bearer(key)).expect(200)).body;
      expect(again.monitors).toEqual(doc.monitors);
    } finally {
      await other.close();
    }
  });
});
