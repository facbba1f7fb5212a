import { createHmac } from 'node:crypto';
import { keepSecrets, maskSecrets } from '../../common/secrets/secret-fields';
import type { AlertEvent } from '../channel-kind';
import { webhookBody, webhookSender, webhookSignature } from './webhook';

const SECRET = 'whsec-0123456789abcdef';

describe('webhook config', () => {
  const parse = (config: unknown) => webhookSender.parseConfig(config);

  it('takes a url, a secret and headers; headers default to none', () => {
    expect(parse({ url: 'https://hooks.example.com/in', secret: SECRET })).toEqual({
      ok: true,
      config: { url: 'https://hooks.example.com/in', secret: SECRET, headers: [] },
    });
    const headers = [
      { name: 'Authorization', value: 'Bearer abc' },
      { name: 'X-Env', value: 'home lab' },
    ];
    expect(parse({ url: 'http://10.0.0.5:5678/webhook', secret: SECRET, headers })).toEqual({
      ok: true,
      config: { url: 'http://10.0.0.5:5678/webhook', secret: SECRET, headers },
    });
  });

  it('takes ******** in every secret field (the caller keeps the stored values)', () => {
    const masked = { url: '********', secret: '********', headers: [{ name: 'Authorization', value: '********' }] };
    expect(parse(masked)).toEqual({ ok: true, config: masked });
  });

  it.each<[string, unknown, { field: string; message: string }[]]>([
    [
      'no secret',
      { url: 'https://h.example/x' },
      [{ field: 'config.secret', message: 'is required: 16 to 256 characters the receiver also knows' }],
    ],
    [
      'a short secret',
      { url: 'https://h.example/x', secret: 'short' },
      [{ field: 'config.secret', message: 'must be at least 16 characters (e.g. 32 random hex digits)' }],
    ],
    [
      'a secret with a space',
      { url: 'https://h.example/x', secret: 'a secret with spaces' },
      [
        {
          field: 'config.secret',
          message: 'must be visible ASCII characters (no spaces, line breaks or other Unicode)',
        },
      ],
    ],
    [
      'a long secret',
      { url: 'https://h.example/x', secret: 'a'.repeat(257) },
      [{ field: 'config.secret', message: 'must be at most 256 characters' }],
    ],
    [
      'a bad url',
      { url: 'nope', secret: SECRET },
      [{ field: 'config.url', message: 'must be a URL starting with https:// or http://' }],
    ],
    [
      'headers that are not a list',
      { url: 'https://h.example/x', secret: SECRET, headers: { a: 'b' } },
      [{ field: 'config.headers', message: 'must be an array of {name, value}' }],
    ],
    [
      'too many headers',
      {
        url: 'https://h.example/x',
        secret: SECRET,
        headers: Array.from({ length: 11 }, (_, i) => ({ name: `X-${i}`, value: 'v' })),
      },
      [{ field: 'config.headers', message: 'must have at most 10 headers' }],
    ],
    [
      'a bad header name',
      {
        url: 'https://h.example/x',
        secret: SECRET,
        headers: [
          { name: 'X-Ok', value: 'a' },
          { name: 'Bad Name', value: 'b' },
        ],
      },
      [{ field: 'config.headers[1].name', message: "must be a header name: letters, digits and !#$%&'*+.^_`|~-" }],
    ],
    [
      'a header value with a line break',
      { url: 'https://h.example/x', secret: SECRET, headers: [{ name: 'X-A', value: 'a\r\nX-Injected: 1' }] },
      [
        {
          field: 'config.headers[0].value',
          message:
            'must be visible ASCII, spaces, tabs or Latin-1 letters: no line breaks, control characters, bidirectional controls or other Unicode',
        },
      ],
    ],
    [
      'an X-Service header',
      { url: 'https://h.example/x', secret: SECRET, headers: [{ name: 'x-service-signature', value: 'forged' }] },
      [
        {
          field: 'config.headers[0].name',
          message: 'is set by the service (X-Service-*, Content-Type, Content-Length, Host and connection headers)',
        },
      ],
    ],
    [
      'Content-Type',
      { url: 'https://h.example/x', secret: SECRET, headers: [{ name: 'Content-Type', value: 'text/plain' }] },
      [
        {
          field: 'config.headers[0].name',
          message: 'is set by the service (X-Service-*, Content-Type, Content-Length, Host and connection headers)',
        },
      ],
    ],
    [
      'Host',
      { url: 'https://h.example/x', secret: SECRET, headers: [{ name: 'HOST', value: 'other.example' }] },
      [
        {
          field: 'config.headers[0].name',
          message: 'is set by the service (X-Service-*, Content-Type, Content-Length, Host and connection headers)',
        },
      ],
    ],
    [
      'Content-Length',
      { url: 'https://h.example/x', secret: SECRET, headers: [{ name: 'content-length', value: '0' }] },
      [
        {
          field: 'config.headers[0].name',
          message: 'is set by the service (X-Service-*, Content-Type, Content-Length, Host and connection headers)',
        },
      ],
    ],
    [
      'a repeated header',
      {
        url: 'https://h.example/x',
        secret: SECRET,
        headers: [
          { name: 'X-A', value: '1' },
          { name: 'x-a', value: '2' },
        ],
      },
      [{ field: 'config.headers[1].name', message: 'repeats config.headers[0].name' }],
    ],
    [
      'a header that is not an object',
      { url: 'https://h.example/x', secret: SECRET, headers: ['X-A: 1'] },
      [{ field: 'config.headers[0]', message: 'must be an object {name, value}' }],
    ],
    [
      'a header field we do not know',
      { url: 'https://h.example/x', secret: SECRET, headers: [{ name: 'X-A', value: '1', secret: true }] },
      [{ field: 'config.headers[0].secret', message: 'unknown field (allowed: name, value)' }],
    ],
    [
      'a header value that is not text',
      { url: 'https://h.example/x', secret: SECRET, headers: [{ name: 'X-A', value: 1 }] },
      [{ field: 'config.headers[0].value', message: 'must be a string' }],
    ],
  ])('refuses %s', (_, config, errors) => {
    expect(parse(config)).toEqual({ ok: false, errors });
  });

  it('masks the url, the secret and every header value; keeps them by header name', () => {
    const stored = {
      url: 'https://h.example/x',
      secret: SECRET,
      headers: [
        { name: 'Authorization', value: 'Bearer a' },
        { name: 'X-Env', value: 'lab' },
      ],
    };
    const masked = maskSecrets(stored, webhookSender.secrets);
    expect(masked).toEqual({
      url: '********',
      secret: '********',
      headers: [
        { name: 'Authorization', value: '********' },
        { name: 'X-Env', value: '********' },
      ],
    });
    // Headers reordered: each ******** keeps the value stored under the same name.
    const next = {
      url: '********',
      secret: '********',
      headers: [
        { name: 'x-env', value: '********' },
        { name: 'Authorization', value: '********' },
      ],
    };
    expect(
      keepSecrets(next, stored, webhookSender.secrets, { sameDestination: () => true, changedMessage: 'x' }, 'config'),
    ).toEqual([]);
    expect(next.headers).toEqual([
      { name: 'x-env', value: 'lab' },
      { name: 'Authorization', value: 'Bearer a' },
    ]);
  });
});

describe('webhook body and signature', () => {
  it('has exactly the spec fields; optional ones only when set; RFC 3339 times', () => {
    const events: AlertEvent[] = [
      {
        type: 'down',
        at: Date.UTC(2026, 10, 23, 11, 2, 3, 45),
        monitor: {
          id: 3,
          name: 'NAS',
          slug: 'nas',
          group: 'Home',
          target: 'GET https://nas.lan/',
          url: 'https://nas.lan/',
          description: 'not sent',
          runbook_url: 'https://not.sent/',
        },
        message: 'NAS is down',
        duration_ms: 60000,
        error: { code: 'refused', message: 'connection refused' },
      },
      { type: 'slow', at: 0, monitor: null, message: 'back to normal', ended: true },
    ];
    expect(JSON.parse(webhookBody(events))).toEqual({
      service: '1',
      events: [
        {
          type: 'down',
          at: '2026-11-23T11:02:03.045Z',
          monitor: {
            id: 3,
            name: 'NAS',
            slug: 'nas',
            group: 'Home',
            target: 'GET https://nas.lan/',
            url: 'https://nas.lan/',
          },
          message: 'NAS is down',
          duration_ms: 60000,
          error: { code: 'refused', message: 'connection refused' },
        },
        { type: 'slow', at: '1970-01-01T00:00:00.000Z', monitor: null, message: 'back to normal' },
      ],
    });
  });

  it('signs <timestamp>.<raw body> with HMAC-SHA256 in hex', () => {
    const body = '{"service":"1","events":[]}';
    expect(webhookSignature(SECRET, 1700000000, body)).toBe(
      createHmac('sha256', SECRET).update(`1700000000.${body}`).digest('hex'),
    );
    expect(webhookSignature(SECRET, 1700000000, body)).toMatch(/^[0-9a-f]{64}$/);
  });
});
