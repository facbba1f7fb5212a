import { mapMonitor, MonitorContext } from './kuma-monitors';

const ctx = (over: Partial<MonitorContext> = {}): MonitorContext => ({
  group: null,
  tags: [],
  channels: [],
  dockerEndpoint: null,
  page: null,
  ...over,
});
const hash = (t: string) => `hash(${t})`;
const row = (over: Record<string, unknown>) => ({
  id: 1,
  name: 'Site',
  type: 'http',
  url: 'https://site.example/',
  active: 1,
  interval: 60,
  retry_interval: 0,
  resend_interval: 0,
  maxretries: 0,
  timeout: 0,
  accepted_statuscodes_json: '["200-299"]',
  ...over,
});
const ok = (over: Record<string, unknown>, c = ctx()) => {
  const m = mapMonitor(row(over), c, hash);
  if (!m.ok) throw new Error(m.reason);
  return m;
};

describe('mapMonitor: Kuma timing in this service’s words', () => {
  it.each([
    // [Kuma columns, expected fields]
    [
      { interval: 60, maxretries: 0 },
      { interval_s: 60, confirm_after: 1, retry_interval_s: 60, timeout_ms: 48_000 },
    ],
    [
      { interval: 30, maxretries: 3, retry_interval: 15 },
      { confirm_after: 4, retry_interval_s: 15 },
    ],
    [{ interval: 60, resend_interval: 10 }, { remind_every_min: 10 }],
    [{ interval: 20, resend_interval: 4 }, { remind_every_min: 2 }],
    [{ interval: 60, timeout: 2.5 }, { timeout_ms: 2500 }],
    [{ interval: 600, timeout: 0 }, { timeout_ms: 60_000 }],
    [{ interval: 5 }, { interval_s: 10 }],
    [{ maxretries: 20 }, { confirm_after: 10 }],
    [{ active: 0 }, { paused: true }],
    [{ active: false }, { paused: true }],
  ])('%j → %j', (kuma, expected) => {
    expect(ok(kuma).item).toMatchObject(expected);
  });

  it.each([
    [{ interval: -5 }, 'interval -5 is not a positive number of seconds'],
    [{ interval: 'soon' }, 'interval soon is not a positive number of seconds'],
    [{ retry_interval: -1 }, 'retry interval -1 is not a number of seconds'],
    [{ maxretries: 1.5 }, 'retries 1.5 is not a whole number of 0 or more'],
    [{ resend_interval: -2 }, 'resend interval -2 is not a number of checks'],
    [{ timeout: -1 }, 'timeout -1 is not a number of seconds'],
    [{ name: '  ' }, 'it has no name'],
    [{ type: 'ping', hostname: 'h', upside_down: 1 }, 'upside-down mode cannot be expressed for a ping monitor'],
  ])('refuses %j: %s', (kuma, reason) => {
    expect(mapMonitor(row(kuma), ctx(), hash)).toEqual({ ok: false, reason });
  });

  it('notes Kuma 2.x conditions it does not keep, and says nothing of an empty list', () => {
    expect(ok({ conditions: '[{"type":"expression","variable":"record"}]' }).notes).toEqual([
      "Kuma's extra conditions are not kept: add the rule by hand",
    ]);
    expect(ok({ conditions: '[]' }).notes).toEqual([]);
  });

  it('notes every value it had to move to fit', () => {
    expect(ok({ interval: 5, maxretries: 20 }).notes).toEqual([
      'the interval (seconds) raised from 5 to 10, the least this service takes',
      'confirm_after (retries + 1) lowered from 21 to 10, the most this service takes',
    ]);
  });

  it('carries the group path, tags, channels and the status page place', () => {
    const m = ok(
      {},
      ctx({ group: 'Home / Servers', tags: ['env:prod', 'lan'], channels: ['Mail'], page: { group: 'Web', sort: 3 } }),
    );
    expect(m.item).toMatchObject({
      group: 'Home / Servers',
      tags: ['env:prod', 'lan'],
      channels: ['Mail'],
      public: true,
      public_group: 'Web',
      sort: 3,
    });
    expect(ok({}).item).toMatchObject({ public: false, public_group: null, channels: [] });
  });

  it('cuts a tag past 30 characters and says so', () => {
    const m = ok({}, ctx({ tags: [`owner:${'x'.repeat(40)}`] }));
    expect(m.item.tags).toEqual([`owner:${'x'.repeat(24)}`]);
    expect(m.notes[0]).toMatch(/cut to 30 characters/);
  });

  it('keeps a push monitor’s token as the hash of its ping token, and has no timeout for it', () => {
    const m = ok({ type: 'push', push_token: 'abc', interval: 3600 });
    expect(m.item).toMatchObject({
      kind: 'heartbeat',
      heartbeat: {},
      heartbeat_token_sha256: 'hash(abc)',
      interval_s: 3600,
    });
    expect(m.item).not.toHaveProperty('timeout_ms');
  });
});
