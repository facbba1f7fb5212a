/**
 * The three senders end to end, against real receivers on 127.0.0.1: a webhook receiver that
 * verifies the signature with its own code (node:crypto, as docs/channels.md tells receivers to),
 * one chat receiver per shape, and an SMTP server for email.
 *
 * Chat shapes are recognised by host (chat-shapes.spec.ts covers that without a network); here
 * each shape is sent for real to loopback through the documented `format` field.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AlertEvent, OutboundMessage, SendContext } from '../../src/channels/channel-kind';
import { createMailTransport } from '../../src/mail/mail-transport';
import { USER_AGENT } from '../../src/channels/receiver-http';
import { chatSender, ChatConfig } from '../../src/channels/senders/chat';
import { emailSender } from '../../src/channels/senders/email';
import { webhookSender, WebhookConfig } from '../../src/channels/senders/webhook';
import { farmCerts } from '../../harness/servers/certs';
import { Received, Receiver, startReceiver } from '../../harness/servers/receivers';
import { decodeSubject, headersOf, partOf, startSmtp } from '../../harness/servers/smtp-farm';

const SECRET = 'whsec-test-0123456789abcdef';
const PUBLIC = 'https://farsight.example.com';

let rx: Receiver;
let tlsRx: Receiver;
const ctx: SendContext = {
  allowPrivate: true,
  publicUrl: PUBLIC,
  mail: createMailTransport({ smtp: null, smtpFallback: null, mailFrom: 'x@y.z' }),
  apis: { pushover: 'http://127.0.0.1:9/unused', pagerduty: 'http://127.0.0.1:9/unused' },
};

beforeAll(async () => {
  [rx, tlsRx] = await Promise.all([startReceiver(), startReceiver({ tls: farmCerts().valid })]);
});
afterAll(async () => {
  await Promise.all([rx.close(), tlsRx.close()]);
});

const downEvent: AlertEvent = {
  type: 'down',
  at: Date.UTC(2026, 10, 23, 11, 2, 3, 45),
  monitor: {
    id: 3,
    name: 'NAS web UI',
    slug: 'nas-web-ui',
    group: 'Home',
    target: 'GET https://nas.lan/',
    url: 'https://nas.lan/',
    description: 'The NAS',
    runbook_url: 'https://wiki.lan/nas',
  },
  message: 'NAS web UI is down: connection refused',
  duration_ms: 120000,
  error: { code: 'refused', message: 'connection refused by 10.0.0.5:443' },
};
const upEvent: AlertEvent = {
  type: 'up',
  at: Date.UTC(2026, 10, 23, 11, 14),
  monitor: { id: 4, name: 'Router', slug: 'router', group: null, target: 'ping 10.0.0.1', url: null },
  message: 'Router is up again after 12 min down',
  duration_ms: 720000,
};
const message: OutboundMessage = { id: 'outbox-77', events: [downEvent, upEvent] };

/** A receiver's own check, written from the docs: HMAC of "<timestamp>.<raw body>", constant-time compare, 5 minutes. */
function verify(
  headers: IncomingHttpHeaders,
  raw: Buffer,
  secret: string,
  nowS = Math.floor(Date.now() / 1000),
): string | null {
  const ts = String(headers['x-service-timestamp'] ?? '');
  const sig = String(headers['x-service-signature'] ?? '');
  if (!/^\d+$/.test(ts)) return 'no timestamp';
  if (Math.abs(nowS - Number(ts)) > 300) return 'stale';
  const want = Buffer.from(createHmac('sha256', secret).update(`${ts}.`).update(raw).digest('hex'));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want) ? null : 'bad signature';
}

describe('webhook sender', () => {
  const config = (extra: Partial<WebhookConfig> = {}): WebhookConfig => ({
    url: `${rx.origin}/hooks/farsight`,
    secret: SECRET,
    headers: [
      { name: 'Authorization', value: 'Bearer home-token-123' },
      { name: 'X-Env', value: 'lab' },
    ],
    ...extra,
  });

  it('posts the spec body, signed; the receiver verifies it with its own HMAC', async () => {
    const result = await webhookSender.send(config(), message, ctx);
    expect(result).toEqual({ ok: true, provider: 'webhook', status: 200, error: null, permanent: false });
    const got = await lastRequest();
    expect(got.path).toBe('/hooks/farsight');
    expect(verify(got.headers, got.body, SECRET)).toBeNull();
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe(USER_AGENT);
    expect(got.headers['x-service-message-id']).toBe('outbox-77');
    expect(got.headers.authorization).toBe('Bearer home-token-123');
    expect(got.headers['x-env']).toBe('lab');
    expect(JSON.parse(got.body.toString('utf8'))).toEqual({
      service: '1',
      events: [
        {
          type: 'down',
          at: '2026-11-23T11:02:03.045Z',
          monitor: {
            id: 3,
            name: 'NAS web UI',
            slug: 'nas-web-ui',
            group: 'Home',
            target: 'GET https://nas.lan/',
            url: 'https://nas.lan/',
          },
          message: 'NAS web UI is down: connection refused',
          duration_ms: 120000,
          error: { code: 'refused', message: 'connection refused by 10.0.0.5:443' },
        },
        {
          type: 'up',
          at: '2026-11-23T11:14:00.000Z',
          monitor: { id: 4, name: 'Router', slug: 'router', group: null, target: 'ping 10.0.0.1', url: null },
          message: 'Router is up again after 12 min down',
          duration_ms: 720000,
        },
      ],
    });
  });

  it('a receiver refuses a tampered body, another secret and a stale timestamp', async () => {
    await webhookSender.send(config(), message, ctx);
    const got = await lastRequest();
    const tampered = Buffer.from(got.body.toString('utf8').replace('"down"', '"up"'));
    expect(verify(got.headers, tampered, SECRET)).toBe('bad signature');
    expect(verify(got.headers, got.body, 'another-secret-0123456789')).toBe('bad signature');
    const ts = Number(got.headers['x-service-timestamp']);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(5);
    expect(verify(got.headers, got.body, SECRET, ts + 301)).toBe('stale');
    expect(verify(got.headers, got.body, SECRET, ts + 299)).toBeNull();
  });

  it('sends every retry of a message with the same X-Service-Message-Id', async () => {
    await webhookSender.send(config(), message, ctx);
    const first = await lastRequest();
    await webhookSender.send(config(), message, ctx);
    const second = await lastRequest();
    expect(second.headers['x-service-message-id']).toBe(first.headers['x-service-message-id']);
    expect(second.body.equals(first.body)).toBe(true);
  });

  it('a test message is one notice event', async () => {
    const result = await webhookSender.send(config(), { id: 'test-1', events: [], test: true }, ctx);
    expect(result.ok).toBe(true);
    const body = JSON.parse((await lastRequest()).body.toString('utf8'));
    expect(body.events).toEqual([
      {
        type: 'notice',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        monitor: null,
        message: 'Test message from Farsight: this channel works.',
      },
    ]);
  });

  it('over https, trusting the test CA', async () => {
    const result = await webhookSender.send(config({ url: `${tlsRx.origin}/in` }), message, {
      ...ctx,
      ca: farmCerts().ca,
    });
    expect(result).toMatchObject({ ok: true, status: 200 });
    const got = await tlsRx.next();
    expect(verify(got.headers, got.body, SECRET)).toBeNull();
  });

  it('never shows the secret, the header values or the path in an error', async () => {
    const result = await webhookSender.send(
      config({ url: `${rx.origin}/echo/401/private-path-segment` }),
      message,
      ctx,
    );
    expect(result).toMatchObject({ ok: false, provider: 'webhook', status: 401, permanent: true });
    await lastRequest();
    for (const hidden of [SECRET, 'home-token-123', 'private-path-segment']) expect(result.error).not.toContain(hidden);
  });

  it.each<[string, boolean]>([
    ['/status/410', true],
    ['/status/503', false],
    ['/status/429', false],
    ['/redirect', true],
  ])('%s: permanent %s', async (path, permanent) => {
    const result = await webhookSender.send(config({ url: `${rx.origin}${path}` }), message, ctx);
    await lastRequest();
    expect(result).toMatchObject({ ok: false, provider: 'webhook', permanent });
  });

  it('refuses a receiver at a private address when private targets are not allowed', async () => {
    const result = await webhookSender.send(config(), message, { ...ctx, allowPrivate: false });
    expect(result).toMatchObject({ ok: false, provider: 'webhook', status: null, permanent: true });
    expect(result.error).toContain('private');
  });
});

describe('chat sender', () => {
  const send = async (format: ChatConfig['format'], msg: OutboundMessage = message) => {
    const result = await chatSender.send({ url: `${rx.origin}/hooks/T0/B0/secret-${format}`, format }, msg, ctx);
    const got = await lastRequest();
    return { result, got, body: JSON.parse(got.body.toString('utf8')) as Record<string, unknown> };
  };

  it('auto on an unknown host: Slack-compatible {text}, provider "chat"', async () => {
    const { result, got, body } = await send('auto');
    expect(result).toEqual({ ok: true, provider: 'chat', status: 200, error: null, permanent: false });
    expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toContain('2 alerts: 1 down, 1 up');
    expect(body.text).toContain('DOWN: NAS web UI — connection refused by 10.0.0.5:443');
  });

  it('slack: {text} in mrkdwn', async () => {
    const { result, body } = await send('slack');
    expect(result.provider).toBe('slack');
    expect(body.text).toContain(`<${PUBLIC}/monitors/3|Open in Farsight>`);
  });

  it('discord: {content} with mentions off', async () => {
    const { result, body } = await send('discord');
    expect(result.provider).toBe('discord');
    expect(body).toEqual({ content: expect.stringContaining('**DOWN: NAS web UI'), allowed_mentions: { parse: [] } });
  });

  it('teams: an Adaptive Card', async () => {
    const { result, body } = await send('teams');
    expect(result.provider).toBe('teams');
    expect(body).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard' } }],
    });
  });

  it('google-chat: {text}', async () => {
    const { result, body } = await send('google-chat');
    expect(result.provider).toBe('google-chat');
    expect(Object.keys(body)).toEqual(['text']);
  });

  it('a refusal names only scheme://host, never the secret path', async () => {
    const result = await chatSender.send(
      { url: `${rx.origin}/status/404/services/T0/B0/s3cretTokenValue`, format: 'auto' },
      message,
      ctx,
    );
    await lastRequest();
    expect(result).toMatchObject({ ok: false, provider: 'chat', status: 404, permanent: true });
    expect(result.error).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${rx.port}: answered 404 Not Found`));
    expect(result.error).not.toContain('s3cretTokenValue');
  });
});

describe('email sender', () => {
  it('renders and sends through the mail path: subject, parts, a Message-ID kept across retries', async () => {
    const smtp = await startSmtp();
    try {
      const mailCtx = {
        ...ctx,
        mail: createMailTransport({ smtp: smtp.url, smtpFallback: null, mailFrom: 'Farsight <alerts@farsight.test>' }),
      };
      const config = { to: ['ops@example.com', 'owner@example.org'] };
      const first = await emailSender.send(config, message, mailCtx);
      expect(first).toEqual({ ok: true, provider: '127.0.0.1', status: 250, error: null, permanent: false });
      await emailSender.send(config, message, mailCtx);
      expect(smtp.mails).toHaveLength(2);
      const [a, b] = smtp.mails.map((m) => headersOf(m.raw));
      expect(a.get('message-id')).toBe('<alert.outbox-77@farsight.example.com>');
      expect(b.get('message-id')).toBe(a.get('message-id'));
      expect(a.get('to')).toBe('ops@example.com, owner@example.org');
      expect(a.get('from')).toBe('Farsight <alerts@farsight.test>');
      expect(decodeSubject(a.get('subject')!)).toBe('2 alerts: 1 down, 1 up — NAS web UI, Router');
      const text = partOf(smtp.mails[0].raw, 'text/plain')!;
      const html = partOf(smtp.mails[0].raw, 'text/html')!;
      expect(text).toContain('DOWN: NAS web UI — connection refused by 10.0.0.5:443');
      expect(text).toContain('Open in Farsight: https://farsight.example.com/monitors/4');
      expect(html).toContain('<!doctype html>');
      expect(html).toContain('href="https://wiki.lan/nas"');

      await emailSender.send(config, { id: 't-1', events: [], test: true }, mailCtx);
      expect(decodeSubject(headersOf(smtp.mails[2].raw).get('subject')!)).toBe(
        'TEST: Test message from Farsight: this channel works.',
      );
    } finally {
      await smtp.close();
    }
  });
});

async function lastRequest(): Promise<Received> {
  let got = await rx.next();
  // Earlier tests may have left requests unread (a redirect's, an echo's): take the newest.
  while (rx.received.at(-1) !== got) got = await rx.next();
  return got;
}
