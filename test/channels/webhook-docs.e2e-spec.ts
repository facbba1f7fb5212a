/**
 * The verification snippets of docs/channels.md, run as written against real webhook deliveries:
 * the Node one in this process, the Python one with python3. A doc that drifts from what the
 * sender signs fails here.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import * as path from 'node:path';
import type { SendContext } from '../../src/channels/channel-kind';
import { createMailTransport } from '../../src/mail/mail-transport';
import { webhookSender } from '../../src/channels/senders/webhook';
import { Received, Receiver, startReceiver } from '../../harness/servers/receivers';

const DOC = fs.readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'channels.md'), 'utf8');
const SECRET = 'c0ffee0123456789abcdef0123456789';

type Verify = (headers: IncomingHttpHeaders, raw: Buffer, secret: string, now?: number) => boolean;

function block(lang: string): string {
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(DOC);
  if (!m) throw new Error(`docs/channels.md has no ${lang} block`);
  return m[1];
}

// eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the documented snippet exactly as a reader would paste it
const nodeVerify = new Function('require', `${block('js')}\nreturn verifyFarsight;`)(require) as Verify;

const HARNESS = `
import base64, json, sys
job = json.load(sys.stdin)
print(json.dumps([verify_farsight(job["headers"], base64.b64decode(c["body"]), c["secret"], c.get("now")) for c in job["cases"]]))
`;

/** Runs the Python snippet over several cases in one python3 process. */
function pythonVerify(
  headers: IncomingHttpHeaders,
  cases: { body: Buffer; secret: string; now?: number }[],
): boolean[] {
  const named = {
    'X-Service-Timestamp': headers['x-service-timestamp'],
    'X-Service-Signature': headers['x-service-signature'],
  };
  const input = JSON.stringify({
    headers: named,
    cases: cases.map((c) => ({ ...c, body: c.body.toString('base64') })),
  });
  return JSON.parse(
    execFileSync('python3', ['-c', `${block('python')}\n${HARNESS}`], { input, encoding: 'utf8' }),
  ) as boolean[];
}

let rx: Receiver;
let got: Received;

beforeAll(async () => {
  rx = await startReceiver();
  const ctx: SendContext = {
    allowPrivate: true,
    publicUrl: 'http://localhost:8080',
    mail: createMailTransport({ smtp: null, smtpFallback: null, mailFrom: 'a@b.c' }),
    apis: { pushover: 'http://127.0.0.1:9/unused', pagerduty: 'http://127.0.0.1:9/unused' },
  };
  const event = {
    type: 'down' as const,
    at: Date.now(),
    monitor: null,
    message: 'Ünïcödé — and "quotes"',
    error: { code: 'x', message: 'y' },
  };
  const result = await webhookSender.send(
    { url: `${rx.origin}/in`, secret: SECRET, headers: [] },
    { id: 'm-1', events: [event] },
    ctx,
  );
  expect(result.ok).toBe(true);
  got = await rx.next();
});
afterAll(async () => {
  await rx.close();
});

describe('the verification snippets in docs/channels.md', () => {
  it('Node: accepts a real delivery; refuses a tampered body, another secret, a stale or future timestamp', () => {
    const ts = Number(got.headers['x-service-timestamp']);
    const tampered = Buffer.from(got.body.toString('utf8').replace('"down"', '"up"'));
    expect(nodeVerify(got.headers, got.body, SECRET)).toBe(true);
    expect(nodeVerify(got.headers, tampered, SECRET)).toBe(false);
    expect(nodeVerify(got.headers, got.body, 'another-secret-0123456789')).toBe(false);
    expect(nodeVerify(got.headers, got.body, SECRET, ts + 301)).toBe(false);
    expect(nodeVerify(got.headers, got.body, SECRET, ts - 301)).toBe(false);
    expect(nodeVerify({ ...got.headers, 'x-service-signature': 'zz' }, got.body, SECRET)).toBe(false);
  });

  it('Python: the same verdicts', () => {
    const ts = Number(got.headers['x-service-timestamp']);
    const tampered = Buffer.from(got.body.toString('utf8').replace('"down"', '"up"'));
    expect(
      pythonVerify(got.headers, [
        { body: got.body, secret: SECRET },
        { body: tampered, secret: SECRET },
        { body: got.body, secret: 'another-secret-0123456789' },
        { body: got.body, secret: SECRET, now: ts + 301 },
        { body: got.body, secret: SECRET, now: ts + 299 },
      ]),
    ).toEqual([true, false, false, false, true]);
  });
});
