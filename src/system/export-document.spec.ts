import type { Channel } from '../channels/channel-body';
import { parseMonitorBody } from '../monitors/monitor-input';
import type { MonitorConfig } from '../probes/monitor-config';
import { DEFAULT_SETTINGS } from '../settings/settings-defaults';
import { channelForExport, exportDocument, monitorForExport, sortedDeep } from './export-document';

const MASK = '********';

function config(body: Record<string, unknown>): MonitorConfig {
  const r = parseMonitorBody(body, DEFAULT_SETTINGS.defaults, null);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.config;
}

const web = config({
  name: 'Web',
  slug: 'web',
  kind: 'http',
  channels: [3, 1],
  muted_until: '2026-12-01T08:00:00.000Z',
  http: {
    url: 'https://u:pw@web.lan/',
    headers: [
      { name: 'Authorization', value: 'Bearer x' },
      { name: 'Accept', value: '*/*' },
    ],
  },
});
const beat = config({ name: 'Backup', slug: 'backup', kind: 'heartbeat', interval_s: 3600, heartbeat: {} });

const channel = (id: number, name: string, over: Partial<Channel> = {}): Channel => ({
  id,
  name,
  kind: 'webhook',
  enabled: true,
  events: ['down', 'up'],
  created_at: 1,
  updated_at: 2,
  config: { url: 'http://hook.lan/x', secret: 's3cret', headers: [{ name: 'X-T', value: 'v' }] },
  ...over,
});
const NAMES = new Map([
  [1, 'Ops'],
  [3, 'Chat'],
]);

describe('monitorForExport', () => {
  it.each<[string, boolean, Record<string, unknown>]>([
    [
      'masked',
      false,
      {
        auth: { password: MASK, type: 'basic', username: 'u' },
        headers: [
          { name: 'Authorization', secret: true, value: MASK },
          { name: 'Accept', secret: false, value: '*/*' },
        ],
      },
    ],
    [
      'with secrets',
      true,
      {
        auth: { password: 'pw', type: 'basic', username: 'u' },
        headers: [
          { name: 'Authorization', secret: true, value: 'Bearer x' },
          { name: 'Accept', secret: false, value: '*/*' },
        ],
      },
    ],
  ])(
    'writes an http monitor %s: channels by name, times as RFC 3339, settings in the kind order',
    (_how, secrets, http) => {
      const item = monitorForExport({ config: web, tokenHash: null }, NAMES, secrets);
      expect(item).toMatchObject({
        slug: 'web',
        channels: ['Chat', 'Ops'],
        muted_until: '2026-12-01T08:00:00.000Z',
        http,
      });
      expect(Object.keys(item.http as object).slice(0, 3)).toEqual(['url', 'method', 'headers']);
      expect(Object.keys(item).at(-1)).toBe('http');
    },
  );

  it.each<[string, number[] | null, unknown]>([
    ['null (every enabled channel)', null, null],
    ['[] (nobody)', [], []],
  ])('keeps channels %s', (_what, channels, expected) => {
    expect(monitorForExport({ config: { ...web, channels }, tokenHash: null }, NAMES, false).channels).toEqual(
      expected,
    );
  });

  it.each<[string, boolean, string | null, unknown]>([
    ['with secrets and a token', true, 'ab'.repeat(32), 'ab'.repeat(32)],
    ['masked', false, 'ab'.repeat(32), undefined],
    ['with secrets but no token', true, null, undefined],
  ])('gives a heartbeat its token hash only %s', (_what, secrets, hash, expected) => {
    expect(monitorForExport({ config: beat, tokenHash: hash }, NAMES, secrets).heartbeat_token_sha256).toEqual(
      expected,
    );
  });
});

describe('channelForExport', () => {
  it.each<[string, boolean, Record<string, unknown>]>([
    ['masked', false, { headers: [{ name: 'X-T', value: MASK }], secret: MASK, url: MASK }],
    ['with secrets', true, { headers: [{ name: 'X-T', value: 'v' }], secret: 's3cret', url: 'http://hook.lan/x' }],
  ])('writes a webhook channel %s, without id or times', (_how, secrets, cfg) => {
    const item = channelForExport(channel(1, 'Ops'), secrets);
    expect(item).toEqual({ name: 'Ops', kind: 'webhook', enabled: true, events: ['down', 'up'], config: cfg });
    expect(Object.keys(item.config as object)).toEqual(['headers', 'secret', 'url']);
  });
});

describe('exportDocument', () => {
  const doc = (monitors: MonitorConfig[], channels: Channel[]) =>
    exportDocument({
      exportedAt: Date.UTC(2026, 10, 1),
      monitors: monitors.map((c) => ({ config: c, tokenHash: null })),
      channels,
      statusPage: { b: 1, a: { d: 1, c: 2 } },
      maintenance: [],
      secrets: false,
    });

  it('sorts monitors by slug and channels by name, and puts the keys of the spec first', () => {
    const d = doc([web, beat], [channel(1, 'Ops'), channel(3, 'Chat')]);
    expect(Object.keys(d)).toEqual([
      'service_export',
      'exported_at',
      'monitors',
      'channels',
      'status_page',
      'maintenance',
    ]);
    expect(d.service_export).toBe(1);
    expect(d.exported_at).toBe('2026-11-01T00:00:00.000Z');
    expect(d.monitors.map((m) => m.slug)).toEqual(['backup', 'web']);
    expect(d.channels.map((c) => c.name)).toEqual(['Chat', 'Ops']);
    expect(JSON.stringify(d.status_page)).toBe('{"a":{"c":2,"d":1},"b":1}');
  });

  it('gives the same text whatever order the rows came in', () => {
    const one = JSON.stringify(doc([web, beat], [channel(1, 'Ops'), channel(3, 'Chat')]));
    const two = JSON.stringify(doc([beat, web], [channel(3, 'Chat'), channel(1, 'Ops')]));
    expect(two).toBe(one);
  });

  it('orders channels of the same name by id (stable, though names should differ)', () => {
    const d = exportDocument({
      exportedAt: 0,
      monitors: [],
      channels: [channel(9, 'Same', { enabled: false }), channel(2, 'Same')],
      statusPage: {},
      maintenance: [],
      secrets: false,
    });
    expect(d.channels.map((c) => c.enabled)).toEqual([true, false]);
  });
});

describe('sortedDeep', () => {
  it.each<[unknown, string]>([
    [{ b: 1, a: [{ d: 1, c: 2 }] }, '{"a":[{"c":2,"d":1}],"b":1}'],
    [[3, 1, 2], '[3,1,2]'],
    [{ a: undefined, b: null }, '{"b":null}'],
    ['text', '"text"'],
  ])('%j -> %s', (value, text) => {
    expect(JSON.stringify(sortedDeep(value))).toBe(text);
  });
});
