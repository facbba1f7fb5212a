/**
 * What an mqtt check concludes from the broker's packets: the CONNACK's return code, the SUBACK's
 * granted code, and the first message on the topic against `expect` and the JSON rules. Pure.
 * Codes are MQTT 3.1.1's (the version the checker speaks, OASIS standard, sections 3.2.2.3 and
 * 3.9.3: http://docs.oasis-open.org/mqtt/mqtt/v3.1.1/os/mqtt-v3.1.1-os.html).
 */
import type { CheckError } from '../check-result';
import type { MqttSettings } from '../kinds';
import { clip } from '../judge/clip';
import { evaluateJsonRule } from '../judge/json-path';
import { failure } from '../checkers/result-builders';

/** CONNACK return codes 1-5 of MQTT 3.1.1, in words. */
const CONNACK_CODES: Record<number, string> = {
  1: 'unacceptable protocol version',
  2: 'client identifier rejected',
  3: 'server unavailable',
  4: 'bad user name or password',
  5: 'not authorized',
};

/** A refused CONNACK: 4 and 5 are the credentials (auth_failed), the rest the broker's own state. */
export function judgeConnack(code: number, hasCredentials: boolean): CheckError | null {
  if (code === 0) return null;
  const said = CONNACK_CODES[code] ?? 'a return code MQTT 3.1.1 does not define';
  if (code === 4 || code === 5) {
    const hint = hasCredentials ? '' : ': the broker may want a user name and password';
    return failure('auth_failed', `the broker refused the login (CONNACK ${code}: ${said})${hint}`);
  }
  return failure('connect_failed', `the broker refused the connection (CONNACK ${code}: ${said})`);
}

/** A SUBACK's granted QoS; 0x80 (128) is the broker's refusal, usually its access list. */
export function judgeSuback(granted: number, topic: string): CheckError | null {
  if (granted < 0x80) return null;
  return failure('not_authorized', `the broker refused the subscription to ${JSON.stringify(topic)} (SUBACK 0x80)`);
}

/** The first message on the topic: it must contain `expect`, and read as JSON, pass every rule. */
export function judgeMessage(
  rules: Pick<MqttSettings, 'expect' | 'json'>,
  topic: string,
  payload: Buffer,
): CheckError | null {
  const text = payload.toString('utf8');
  if (rules.expect !== null && !text.includes(rules.expect))
    return failure(
      'expect',
      `the message on ${topic} does not contain ${JSON.stringify(rules.expect)}: ${quoteMessage(payload)}`,
    );
  if (rules.json.length === 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return failure('json', `the message on ${topic} is not JSON: ${quoteMessage(payload)}`);
  }
  for (const rule of rules.json) {
    const message = evaluateJsonRule(rule, value);
    if (message !== null) return failure('json', `the message on ${topic}: ${message}`);
  }
  return null;
}

/** A message in a line: its text clipped, control characters as spaces; binary as its size. */
export function quoteMessage(payload: Buffer): string {
  const text = payload.toString('utf8');
  if (text.includes('\uFFFD') && !payload.includes(Buffer.from('\uFFFD'))) return `${payload.length} bytes (not text)`;
  return JSON.stringify(clip(text.replace(/[\x00-\x1f\x7f]/g, ' ')));
}

/** The detail of an up check: the broker's answer, or the message that passed. */
export function describeMqtt(message: { topic: string; payload: Buffer; retained: boolean } | null): string {
  if (message === null) return 'connected';
  return `message on ${message.topic}${message.retained ? ' (retained)' : ''}: ${quoteMessage(message.payload)}`;
}
