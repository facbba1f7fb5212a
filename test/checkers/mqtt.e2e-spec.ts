/**
 * mqtt checks against a real broker (Debian's mosquitto, started here on free ports): connect
 * only, a retained and a live message judged by expect and JSON rules, logins (right, wrong,
 * missing), a subscription refused, TLS verified and merely required, TLS asked
 * of a plain port and the reverse, a broker that is down, one that speaks something else, one
 * that never answers, a topic that stays silent, and a message too big. Messages are published
 * with MQTT.js as any other client of the broker would.
 */
import type { Socket } from 'node:net';
import { connectAsync, MqttClient } from 'mqtt';
import { FakeClock } from '../../src/common/clock';
import { runCheck } from '../../src/probes/checkers';
import { checkMqtt } from '../../src/probes/services/mqtt';
import { farmCerts } from '../../harness/servers/certs';
import { MosquittoServer, startMosquitto } from '../../harness/servers/mosquitto-server';
import { freePort, startTcpTarget, TcpTarget } from '../../harness/servers/tcp-farm';
import { makeCtx, makeEnv, makeMqtt, timedWithStall } from './factories';

jest.setTimeout(60_000);

const certs = farmCerts();
// Certificates are made against the real time, so this clock must read close to it.
const env = { ...makeEnv(certs.ca), clock: new FakeClock(Date.now()) };
const ctx = makeCtx({ timeout_ms: 3000 });
const ACL = ['user watcher', 'topic read ups/#', 'user publisher', 'topic readwrite #', ''].join('\n');
let open: MosquittoServer;
let locked: MosquittoServer;
let publisher: MqttClient;
let silent: TcpTarget;
let garbage: TcpTarget;
let refusing: TcpTarget;

/**
 * A broker that accepts the login and refuses every subscription, as brokers whose authorisation
 * plugin denies a topic do (mosquitto 2.0's acl_file grants it and withholds the messages). Its
 * packets as MQTT 3.1.1 defines them (http://docs.oasis-open.org/mqtt/mqtt/v3.1.1/os/mqtt-v3.1.1-os.html):
 * CONNACK 20 02 00 00 (3.2); SUBACK 90 03 <packet id> 80 (3.9), the id read from the SUBSCRIBE
 * (first byte 0x82, a one-byte remaining length for a short topic, then the id).
 */
function refuseSubscriptions(socket: Socket): void {
  socket.on('data', (chunk: Buffer) => {
    if (chunk[0] === 0x10) socket.write(Buffer.from([0x20, 0x02, 0x00, 0x00]));
    if (chunk[0] === 0x82) socket.write(Buffer.from([0x90, 0x03, chunk[2], chunk[3], 0x80]));
  });
}

beforeAll(async () => {
  [open, locked, silent, garbage, refusing] = await Promise.all([
    startMosquitto({ tls: certs.valid }),
    startMosquitto({ users: { watcher: 's3cret pw', publisher: 'pub' }, acl: ACL }),
    startTcpTarget(() => undefined),
    startTcpTarget((s) => s.end('HTTP/1.1 400 Bad Request\r\n\r\n')),
    startTcpTarget(refuseSubscriptions),
  ]);
  publisher = await connectAsync(`mqtt://127.0.0.1:${open.port}`, { reconnectPeriod: 0 });
  await publisher.publishAsync('ups/status', '{"status":"OL","charge":97}', { retain: true });
  await publisher.publishAsync('ups/text', 'on line', { retain: true });
  await publisher.publishAsync('big/blob', Buffer.alloc(100_000, 'x'), { retain: true });
});
afterAll(async () => {
  await publisher?.endAsync();
  await Promise.all([open?.stop(), locked?.stop(), silent?.close(), garbage?.close(), refusing?.close()]);
});

const url = (port: number | null, scheme = 'mqtt', host = '127.0.0.1') => `${scheme}://${host}:${port}`;

describe('mqtt check', () => {
  it('is up once the broker accepts the connection, with the phases', async () => {
    const r = await runCheck('mqtt', makeMqtt(url(open.port)), ctx, env);
    expect(r.error).toBeNull();
    expect(r.outcome).toBe('up');
    expect(r.detail).toBe('connected');
    expect(r.phases).toEqual({
      dns_ms: null,
      connect_ms: expect.any(Number),
      tls_ms: null,
      ttfb_ms: expect.any(Number),
    });
  });

  it('takes the retained message of the topic and checks its text and JSON', async () => {
    const r = await checkMqtt(
      makeMqtt(url(open.port), {
        topic: 'ups/status',
        expect: 'OL',
        json: [
          { path: '$.status', op: '==', value: 'OL' },
          { path: '$.charge', op: '>', value: 50 },
        ],
      }),
      ctx,
      env,
    );
    expect(r.error).toBeNull();
    expect(r.detail).toBe('message on ups/status (retained): "{\\"status\\":\\"OL\\",\\"charge\\":97}"');
  });

  it('waits for a live message on a wildcard topic', async () => {
    const check = checkMqtt(makeMqtt(url(open.port), { topic: 'live/+/state', expect: 'up' }), ctx, env);
    await new Promise((r) => setTimeout(r, 400));
    await publisher.publishAsync('live/nas/state', 'up and running');
    const r = await check;
    expect(r.error).toBeNull();
    expect(r.detail).toBe('message on live/nas/state: "up and running"');
  });

  it.each([
    [{ expect: 'OB' }, { code: 'expect', message: 'the message on ups/status does not contain "OB": ' }],
    [
      { json: [{ path: '$.charge', op: '>=' as const, value: 99 }] },
      { code: 'json', message: 'the message on ups/status: ' },
    ],
  ])('fails when the message does not pass %j', async (rules, error) => {
    const r = await checkMqtt(makeMqtt(url(open.port), { topic: 'ups/status', ...rules }), ctx, env);
    expect(r.error?.code).toBe(error.code);
    expect(r.error?.message.startsWith(error.message)).toBe(true);
  });

  it('fails with json when the message is not JSON', async () => {
    const r = await checkMqtt(
      makeMqtt(url(open.port), { topic: 'ups/text', json: [{ path: '$.a', op: 'exists' }] }),
      ctx,
      env,
    );
    expect(r.error).toEqual({ code: 'json', message: 'the message on ups/text is not JSON: "on line"' });
  });

  it('fails with no_message when the topic stays silent, bounded by the timeout', async () => {
    const {
      value: r,
      wallMs,
      stallMs,
    } = await timedWithStall(() =>
      checkMqtt(makeMqtt(url(open.port), { topic: 'nothing/here' }), makeCtx({ timeout_ms: 700 }), env),
    );
    expect(r.error).toEqual({
      code: 'no_message',
      message: `no message on nothing/here within 700 ms (127.0.0.1:${open.port})`,
    });
    expect(wallMs).toBeLessThan(700 + 300 + stallMs);
  });

  it('refuses a first message bigger than 64 KB', async () => {
    const r = await checkMqtt(makeMqtt(url(open.port), { topic: 'big/blob' }), ctx, env);
    expect(r.error).toEqual({
      code: 'protocol',
      message: `127.0.0.1:${open.port} sent more than 64 KB before a verdict`,
    });
  });

  it('logs in with a user and password', async () => {
    const r = await checkMqtt(
      makeMqtt(url(locked.port), { username: 'watcher', password: 's3cret pw', topic: 'ups/#' }),
      makeCtx({ timeout_ms: 500 }),
      env,
    );
    // Nothing is retained on this broker: the login and the subscription passed, then the wait ran out.
    expect(r.error?.code).toBe('no_message');
  });

  it('fails with auth_failed on a wrong password, without quoting it', async () => {
    const r = await checkMqtt(makeMqtt(url(locked.port), { username: 'watcher', password: 'wrong' }), ctx, env);
    expect(r.error).toEqual({
      code: 'auth_failed',
      message: 'the broker refused the login (CONNACK 5: not authorized)',
    });
  });

  it('fails with auth_failed and a hint when the broker wants a login the monitor lacks', async () => {
    const r = await checkMqtt(makeMqtt(url(locked.port)), ctx, env);
    expect(r.error).toEqual({
      code: 'auth_failed',
      message: 'the broker refused the login (CONNACK 5: not authorized): the broker may want a user name and password',
    });
  });

  it('fails with not_authorized when the broker refuses the subscription (SUBACK 0x80)', async () => {
    const r = await checkMqtt(makeMqtt(url(refusing.port), { topic: 'secret/#' }), ctx, env);
    expect(r.error).toEqual({
      code: 'not_authorized',
      message: 'the broker refused the subscription to "secret/#" (SUBACK 0x80)',
    });
  });

  it("gets no message where mosquitto's access list denies the topic (it grants the subscription)", async () => {
    const r = await checkMqtt(
      makeMqtt(url(locked.port), { username: 'watcher', password: 's3cret pw', topic: 'secret/#' }),
      makeCtx({ timeout_ms: 500 }),
      env,
    );
    expect(r.error?.code).toBe('no_message');
  });

  it('is up over TLS with the certificate verified, and reports it', async () => {
    const r = await checkMqtt(makeMqtt(url(open.tlsPort, 'mqtts', 'localhost'), { tls: 'verify' }), ctx, env);
    expect(r.error).toBeNull();
    expect(r.cert?.subject).toBe('localhost');
    expect(r.phases.tls_ms).toEqual(expect.any(Number));
  });

  it('fails with cert_invalid when verify meets an untrusted CA, which require accepts', async () => {
    const untrusting = { ...env, ca: undefined };
    const target = url(open.tlsPort, 'mqtts', 'localhost');
    const r = await checkMqtt(makeMqtt(target, { tls: 'verify' }), ctx, untrusting);
    expect(r.error).toEqual({ code: 'cert_invalid', message: 'certificate is not signed by a trusted authority' });
    expect((await checkMqtt(makeMqtt(target, { tls: 'require' }), ctx, untrusting)).error).toBeNull();
  });

  it('fails with tls_required when TLS is asked of a port that answers in plain text', async () => {
    const r = await checkMqtt(makeMqtt(url(garbage.port, 'mqtts'), { tls: 'require' }), ctx, env);
    expect(r.error).toEqual({
      code: 'tls_required',
      message: `TLS was asked for, and 127.0.0.1:${garbage.port} does not speak TLS on that port`,
    });
  });

  it('says TLS may be wanted when the TLS port hangs up on plain text', async () => {
    const r = await checkMqtt(makeMqtt(url(open.tlsPort)), ctx, env);
    expect(r.error).toEqual({
      code: 'reset',
      message: `connection closed by 127.0.0.1:${open.tlsPort} during the CONNACK (if that port wants TLS, write mqtts:// and set tls to require or verify)`,
    });
  });

  it('fails with refused when the broker is down', async () => {
    const r = await checkMqtt(makeMqtt(url(await freePort())), ctx, env);
    expect(r.error?.code).toBe('refused');
  });

  it('fails with protocol when the server speaks something else', async () => {
    const r = await checkMqtt(makeMqtt(url(garbage.port)), ctx, env);
    expect(r.error?.code).toBe('protocol');
    expect(r.error?.message).toMatch(new RegExp(`^127\\.0\\.0\\.1:${garbage.port} does not speak MQTT: `));
  });

  it('is bounded by the timeout when the server never answers', async () => {
    const {
      value: r,
      wallMs,
      stallMs,
    } = await timedWithStall(() => checkMqtt(makeMqtt(url(silent.port)), makeCtx({ timeout_ms: 500 }), env));
    expect(r.error).toEqual({
      code: 'timeout',
      message: `timed out after 500 ms during the CONNACK (127.0.0.1:${silent.port})`,
    });
    expect(wallMs).toBeLessThan(500 + 300 + stallMs);
  });

  it('fails with private_target when private targets are not allowed', async () => {
    const r = await checkMqtt(makeMqtt(url(open.port)), makeCtx({ allow_private_targets: false }), env);
    expect(r.error?.code).toBe('private_target');
  });

  it('refuses a URL it cannot read before connecting', async () => {
    const r = await checkMqtt(makeMqtt('mqtt://broker.lan/x'), ctx, env);
    expect(r.error).toEqual({ code: 'protocol', message: 'the URL takes no path: write mqtt://host:port' });
  });
});
