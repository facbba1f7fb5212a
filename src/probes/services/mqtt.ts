/**
 * mqtt checks through `mqtt` (MQTT.js, loaded only when an mqtt monitor is first checked): connect
 * (TLS as `tls` says) on our own socket, log in with MQTT 3.1.1's CONNECT, and with a topic,
 * subscribe and wait for its first message (a retained one counts: it is the state the broker
 * holds), judged by mqtt-verdict.ts. Then DISCONNECT and close. No reconnect, no session kept
 * (clean session, reconnectPeriod 0), at most 64 KB read, the whole check bounded by the timeout.
 * Phases: dns, connect, tls, ttfb (connection ready to the CONNACK).
 */
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { IClientOptions, MqttClient } from 'mqtt';
import type { CheckError, CheckResult } from '../check-result';
import type { CheckContext, MqttSettings } from '../kinds';
import { clip } from '../judge/clip';
import { describeCertValidity } from '../judge/cert-validity';
import { Deadline, lapTimer, msSince, withDeadline } from '../checkers/deadline';
import type { CheckerEnv } from '../checkers/env';
import { describeSocketError, hostPort } from '../checkers/net-errors';
import { CheckFailure, emptyPhases, failure, judged } from '../checkers/result-builders';
import { describeMqtt, judgeConnack, judgeMessage, judgeSuback } from './mqtt-verdict';
import { openServiceSocket, SocketTrace } from './service-socket';
import { parseServiceUrl, ServiceUrl } from './service-url';
import { MQTT_URL } from './url-rules';

type Mqtt = typeof import('mqtt');
let mqtt: Mqtt | undefined;

/** Loaded at the first check of an mqtt monitor: a service without one never loads it (docs/checks.md). */
function loadMqtt(): Mqtt {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose: only when an mqtt monitor exists
  mqtt ??= require('mqtt') as Mqtt;
  return mqtt;
}

/** At most this much is read from the broker before the verdict: a bigger first message is refused. */
export const MQTT_MAX_BYTES = 64 * 1024;

const WAITING = 'waiting for a message';

interface Message {
  topic: string;
  payload: Buffer;
  retained: boolean;
}

export async function checkMqtt(settings: MqttSettings, ctx: CheckContext, env: CheckerEnv): Promise<CheckResult> {
  const atMs = env.clock.now();
  const start = performance.now();
  const trace: SocketTrace = { phases: emptyPhases(), cert: null, stage: 'connecting' };
  const url = parseServiceUrl(settings.url, MQTT_URL);
  const where = typeof url === 'string' ? 'mqtt' : hostPort(url.host, url.port);
  const facts = (detail: string | null = null) => {
    const cert = trace.cert ? describeCertValidity(trace.cert, atMs) : null;
    return {
      latency_ms: msSince(start),
      phases: trace.phases,
      cert: trace.cert,
      detail: [detail, cert].filter(Boolean).join('; ') || null,
    };
  };
  if (typeof url === 'string') return judged(atMs, facts(), failure('protocol', `the URL ${url}`));
  return withDeadline(
    ctx.timeout_ms,
    async (deadline) => {
      const { error, message } = await probe(url, settings, ctx, env, deadline, trace);
      return judged(atMs, facts(error ? null : describeMqtt(message)), error);
    },
    () =>
      judged(
        atMs,
        facts(),
        trace.stage === WAITING
          ? failure('no_message', `no message on ${settings.topic} within ${ctx.timeout_ms} ms (${where})`)
          : failure('timeout', `timed out after ${ctx.timeout_ms} ms during ${trace.stage} (${where})`),
      ),
  );
}

async function probe(
  url: ServiceUrl,
  settings: MqttSettings,
  ctx: CheckContext,
  env: CheckerEnv,
  deadline: Deadline,
  trace: SocketTrace,
): Promise<{ error: CheckError | null; message: Message | null }> {
  const where = hostPort(url.host, url.port);
  let socket: Socket | null = null;
  let client: MqttClient | null = null;
  try {
    socket = await openServiceSocket({ host: url.host, port: url.port, tls: settings.tls }, ctx, env, deadline, trace);
    const s = socket;
    const lap = lapTimer();
    // A verdict reached in a listener (too much read, a refusal) ends the wait for the next packet.
    let settle: (outcome: CheckError | Message | null) => void = () => undefined;
    const next = () => new Promise<CheckError | Message | null>((resolve) => (settle = resolve));
    let received = 0;
    s.prependListener('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= MQTT_MAX_BYTES) return;
      settle(failure('protocol', `${where} sent more than ${MQTT_MAX_BYTES / 1024} KB before a verdict`));
      s.destroy();
    });
    const options: IClientOptions = {
      protocolVersion: 4,
      clientId: `farsight-${randomBytes(6).toString('hex')}`,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: ctx.timeout_ms,
      keepalive: Math.max(10, Math.ceil(ctx.timeout_ms / 1000) * 2),
      resubscribe: false,
      username: settings.username ?? undefined,
      password: settings.password ?? undefined,
    };
    trace.stage = 'the CONNACK';
    let pending = next();
    const c = new (loadMqtt().MqttClient)(() => s, options);
    client = c;
    const closed = () =>
      settle(failure('reset', `connection closed by ${where} during ${trace.stage}${tlsHint(settings, trace)}`));
    c.on('error', (err: Error & { code?: unknown }) =>
      err.code === 'ECONNRESET' && tlsHint(settings, trace)
        ? closed()
        : settle(mqttError(err, where, settings, trace.stage)),
    );
    c.on('close', closed);
    c.once('connect', () => settle(null));
    const connected = await pending;
    if (connected !== null) return { error: asError(connected, where), message: null };
    trace.phases.ttfb_ms = lap();
    if (settings.topic === null) return { error: null, message: null };

    const topic = settings.topic;
    pending = next();
    c.on('message', (t: string, payload: Buffer, packet: { retain?: boolean }) =>
      settle({ topic: t, payload, retained: packet.retain === true }),
    );
    trace.stage = 'the SUBACK';
    c.subscribe(topic, { qos: 0 }, (err, granted) => {
      // A refused SUBACK comes as an error carrying the packet, whose granted list holds 0x80.
      const packet = (err as (Error & { packet?: { granted?: unknown[] } }) | null)?.packet;
      const code = packet?.granted?.[0] ?? granted?.[0]?.qos ?? 0;
      const refused = typeof code === 'number' ? judgeSuback(code, topic) : null;
      if (refused) settle(refused);
      else if (err) settle(mqttError(err, where, settings, trace.stage));
      else if (trace.stage === 'the SUBACK') trace.stage = WAITING;
    });
    const got = await pending;
    if (got === null || !('payload' in got)) return { error: asError(got, where), message: null };
    return { error: judgeMessage(settings, got.topic, got.payload), message: got };
  } catch (err) {
    return { error: describeSocketError(err, where), message: null };
  } finally {
    close(client, socket);
  }
}

/** DISCONNECT when the broker accepted us, then close; the socket is destroyed a second later at most. */
function close(client: MqttClient | null, socket: Socket | null): void {
  if (client?.connected) client.end(false);
  else client?.end(true);
  if (socket) setTimeout(() => socket.destroy(), 1000).unref();
}

function asError(outcome: CheckError | Message | null, where: string): CheckError {
  if (outcome !== null && 'code' in outcome) return outcome;
  return failure('protocol', `${where} ended the exchange unexpectedly`);
}

/** What MQTT.js reports, in our words: a CONNACK refusal by its code, a parse failure as garbage. */
function mqttError(err: Error & { code?: unknown }, where: string, settings: MqttSettings, stage: string): CheckError {
  if (err instanceof CheckFailure) return err.failure;
  if (stage === 'the CONNACK' && typeof err.code === 'number') {
    const refused = judgeConnack(err.code, settings.username !== null || settings.password !== null);
    if (refused) return refused;
  }
  if (typeof err.code === 'string') return describeSocketError(err, where);
  return failure('protocol', `${where} does not speak MQTT: ${clip(err.message.replace(/[^\x20-\x7e]/g, '?'))}`);
}

/** A TLS port closes on the plain-text CONNECT it cannot read: the likeliest reason for a close before CONNACK. */
function tlsHint(settings: MqttSettings, trace: SocketTrace): string {
  return settings.tls === 'off' && trace.stage === 'the CONNACK'
    ? ' (if that port wants TLS, write mqtts:// and set tls to require or verify)'
    : '';
}
