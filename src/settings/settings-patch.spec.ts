import { DEFAULT_SETTINGS } from './settings-defaults';
import {
  changesBetween,
  describeChanges,
  planSettingsPatch,
  ReadOnlyValues,
  SETTING_RANGES,
  WATCHDOG_DEFAULT_INTERVAL_S,
} from './settings-patch';

const SHOWN: ReadOnlyValues = {
  owner_email: 'owner@example.com',
  public_url: 'http://farsight.test',
  email: { configured: true, providers: ['smtp.lan'], from: 'Farsight <farsight@localhost>', sent_today: 3 },
};

const plan = (body: unknown) => planSettingsPatch(body, DEFAULT_SETTINGS, SHOWN);
const errorsOf = (body: unknown) => {
  const p = plan(body);
  if (p.ok) throw new Error('expected errors');
  return p.errors;
};

describe('planSettingsPatch: accepted values', () => {
  it.each([
    [{ defaults: { interval_s: 30 } }, 'defaults.interval_s', 60, 30],
    [{ defaults: { timeout_ms: 5000 } }, 'defaults.timeout_ms', 10_000, 5000],
    [{ defaults: { confirm_after: 5 } }, 'defaults.confirm_after', 2, 5],
    [{ defaults: { retry_interval_s: 20 } }, 'defaults.retry_interval_s', 10, 20],
    [{ defaults: { recover_after: 3 } }, 'defaults.recover_after', 1, 3],
    [{ defaults: { slow_after: 20 } }, 'defaults.slow_after', 3, 20],
    [{ tz_offset_min: 345 }, 'tz_offset_min', 0, 345],
    [{ tz_offset_min: -720 }, 'tz_offset_min', 0, -720],
    [{ retention: { checks_days: 1 } }, 'retention.checks_days', 7, 1],
    [{ retention: { hourly_days: 400 } }, 'retention.hourly_days', 35, 400],
    [{ retention: { events_days: 30 } }, 'retention.events_days', 400, 30],
    [{ email: { daily_cap: 50 } }, 'email.daily_cap', 200, 50],
    [{ allow_private_targets: false }, 'allow_private_targets', true, false],
    [{ metrics_public: true }, 'metrics_public', false, true],
  ])('%j changes %s from %p to %p', (body, field, from, to) => {
    const p = plan(body);
    expect(p).toMatchObject({ ok: true, changes: [{ field, from, to }] });
  });

  it.each([
    [null, { url: 'https://hc-ping.com/u', interval_s: 60 }, { url: 'https://hc-ping.com/u', interval_s: 60 }],
    [null, { url: 'https://hc-ping.com/u', interval_s: 300 }, { url: 'https://hc-ping.com/u', interval_s: 300 }],
    [
      { url: 'enc:v1:sealed', interval_s: 60 },
      { url: '********', interval_s: 90 },
      { url: 'enc:v1:sealed', interval_s: 90 },
    ],
    [{ url: 'enc:v1:sealed', interval_s: 60 }, { interval_s: 120 }, { url: 'enc:v1:sealed', interval_s: 120 }],
    [{ url: 'enc:v1:sealed', interval_s: 60 }, { url: null }, null],
    [{ url: 'enc:v1:sealed', interval_s: 60 }, null, null],
  ])('watchdog %j patched with %j becomes %j', (current, body, next) => {
    const p = planSettingsPatch({ watchdog: body }, { ...DEFAULT_SETTINGS, watchdog: current }, SHOWN);
    expect(p.ok && p.next.watchdog).toEqual(next);
  });

  it('never writes the watchdog URL into a change, only that it changed', () => {
    const p = planSettingsPatch({ watchdog: { url: 'https://hc-ping.com/secret-uuid' } }, DEFAULT_SETTINGS, SHOWN);
    expect(p.ok && p.changes).toEqual([
      { field: 'watchdog.url', from: null, to: '********' },
      { field: 'watchdog.interval_s', from: null, to: 60 },
    ]);
    expect(JSON.stringify(p)).not.toContain('"from":"https');
  });

  it('writes email.daily_cap to the stored daily_cap and leaves everything else as it was', () => {
    const p = plan({ email: { daily_cap: 7 } });
    expect(p.ok && p.next).toEqual({ ...DEFAULT_SETTINGS, daily_cap: 7 });
  });

  it('answers no change for a GET answer sent back as it was (read-only keys equal, sent_today ignored)', () => {
    const body = {
      ...structuredClone(DEFAULT_SETTINGS),
      owner_email: SHOWN.owner_email,
      public_url: SHOWN.public_url,
      email: { ...SHOWN.email, daily_cap: DEFAULT_SETTINGS.daily_cap, sent_today: 99 },
    } as Record<string, unknown>;
    delete body.daily_cap;
    expect(plan(body)).toEqual({ ok: true, next: DEFAULT_SETTINGS, changes: [] });
  });

  it('does not change the settings it was given', () => {
    const before = structuredClone(DEFAULT_SETTINGS);
    plan({ defaults: { interval_s: 30 }, retention: { checks_days: 2 } });
    expect(DEFAULT_SETTINGS).toEqual(before);
  });
});

describe('planSettingsPatch: refused values name the key', () => {
  it.each([
    [{ defaults: { interval_s: 9 } }, 'defaults.interval_s', 'must be an integer from 10 to 86400'],
    [{ defaults: { interval_s: 86_401 } }, 'defaults.interval_s', 'must be an integer from 10 to 86400'],
    [{ defaults: { interval_s: 30.5 } }, 'defaults.interval_s', 'must be an integer from 10 to 86400'],
    [{ defaults: { interval_s: '60' } }, 'defaults.interval_s', 'must be an integer from 10 to 86400'],
    [{ defaults: { timeout_ms: 499 } }, 'defaults.timeout_ms', 'must be an integer from 500 to 60000'],
    [{ defaults: { confirm_after: 0 } }, 'defaults.confirm_after', 'must be an integer from 1 to 10'],
    [{ defaults: { retry_interval_s: 4 } }, 'defaults.retry_interval_s', 'must be an integer from 5 to 86400'],
    [{ defaults: { recover_after: 11 } }, 'defaults.recover_after', 'must be an integer from 1 to 10'],
    [{ defaults: { slow_after: 21 } }, 'defaults.slow_after', 'must be an integer from 1 to 20'],
    [{ defaults: { slow_ms: 100 } }, 'defaults.slow_ms', 'unknown key'],
    [{ defaults: null }, 'defaults', 'must be an object'],
    [{ tz_offset_min: 841 }, 'tz_offset_min', 'must be an integer from -720 to 840'],
    [{ tz_offset_min: -721 }, 'tz_offset_min', 'must be an integer from -720 to 840'],
    [{ tz_offset_min: 10 }, 'tz_offset_min', 'must be a multiple of 15'],
    [{ tz_offset_min: null }, 'tz_offset_min', 'must be an integer'],
    [{ retention: { checks_days: 0 } }, 'retention.checks_days', 'must be an integer from 1 to 400'],
    [{ retention: { hourly_days: 30 } }, 'retention.hourly_days', 'must be an integer from 31 to 400'],
    [{ retention: { events_days: 3651 } }, 'retention.events_days', 'must be an integer from 7 to 3650'],
    [{ retention: { daily_days: 10 } }, 'retention.daily_days', 'unknown key'],
    [{ email: { daily_cap: 0 } }, 'email.daily_cap', 'must be an integer from 1 to 100000'],
    [{ email: { from: 'me@example.com' } }, 'email.from', 'read-only: it comes from the FARSIGHT_MAIL_FROM'],
    [{ email: { configured: false } }, 'email.configured', 'read-only'],
    [{ email: { providers: [] } }, 'email.providers', 'read-only'],
    [{ email: { to: 'x' } }, 'email.to', 'unknown key'],
    [{ email: 5 }, 'email', 'must be an object'],
    [{ daily_cap: 10 }, 'daily_cap', 'unknown key; the daily email cap is email.daily_cap'],
    [{ owner_email: 'evil@example.com' }, 'owner_email', 'read-only: it comes from the owner account'],
    [{ public_url: 'https://elsewhere.example' }, 'public_url', 'read-only: it comes from the FARSIGHT_PUBLIC_URL'],
    [{ allow_private_targets: 'no' }, 'allow_private_targets', 'must be true or false'],
    [{ metrics_public: 1 }, 'metrics_public', 'must be true or false'],
    [{ watchdog: 'https://hc-ping.com/x' }, 'watchdog', 'must be null (off) or an object {url, interval_s}'],
    [{ watchdog: { url: 'ftp://x/y' } }, 'watchdog.url', 'must be an http or https URL'],
    [
      { watchdog: { url: 'https://a b/' } },
      'watchdog.url',
      'must be an http or https URL without spaces or control characters',
    ],
    [{ watchdog: { url: `https://x/${'a'.repeat(2000)}` } }, 'watchdog.url', 'must be at most 2000 characters'],
    [{ watchdog: { url: '********' } }, 'watchdog.url', 'no URL is stored yet: send the URL itself'],
    [{ watchdog: { interval_s: 60 } }, 'watchdog.url', 'is required to set a watchdog'],
    [{ watchdog: { url: 'https://x/', interval_s: 29 } }, 'watchdog.interval_s', 'must be an integer from 30 to 3600'],
    [
      { watchdog: { url: 'https://x/', interval_s: 30.5 } },
      'watchdog.interval_s',
      'must be an integer from 30 to 3600',
    ],
    [{ watchdog: { url: 'https://x/', every: 1 } }, 'watchdog.every', 'unknown key; watchdog has url and interval_s'],
    [{ colour: 'blue' }, 'colour', 'unknown key'],
  ])('%j is refused on %s', (body, field, message) => {
    expect(errorsOf(body)).toEqual([{ field, message: expect.stringContaining(message) }]);
  });

  it.each([null, [], 'x', 3])('refuses a body that is not an object (%p)', (body) => {
    expect(errorsOf(body)).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
  });

  it('reports every bad key at once', () => {
    expect(errorsOf({ tz_offset_min: 1000, retention: { checks_days: -1 }, nope: 1 }).map((e) => e.field)).toEqual([
      'tz_offset_min',
      'retention.checks_days',
      'nope',
    ]);
  });

  it('cuts a very long unknown key in the error', () => {
    const [e] = errorsOf({ ['k'.repeat(500)]: 1 });
    expect(e.field.length).toBeLessThanOrEqual(61);
  });
});

describe('planSettingsPatch: defaults that new monitors could not use', () => {
  it.each([
    [{ defaults: { timeout_ms: 20_000, interval_s: 10 } }, 'defaults.timeout_ms', 'default timeout (20000 ms)'],
    [{ defaults: { retry_interval_s: 120 } }, 'defaults.retry_interval_s', 'default retry interval (120 s)'],
    [
      { defaults: { interval_s: 20, retry_interval_s: 30 } },
      'defaults.retry_interval_s',
      'default retry interval (30 s)',
    ],
  ])('%j is refused on %s', (body, field, message) => {
    expect(errorsOf(body)).toEqual([{ field, message: expect.stringContaining(message) }]);
  });

  it('accepts an interval that the default timeout and retry interval just fit (10 s, 10,000 ms, 10 s)', () => {
    expect(plan({ defaults: { interval_s: 10 } })).toMatchObject({
      ok: true,
      changes: [{ field: 'defaults.interval_s', to: 10 }],
    });
  });

  it('blames the interval when only the interval was sent', () => {
    const p = planSettingsPatch(
      { defaults: { interval_s: 15 } },
      { ...DEFAULT_SETTINGS, defaults: { ...DEFAULT_SETTINGS.defaults, retry_interval_s: 30 } },
      SHOWN,
    );
    expect(p).toEqual({
      ok: false,
      errors: [{ field: 'defaults.interval_s', message: expect.stringContaining('retry interval (30 s)') }],
    });
  });
});

describe('changesBetween and describeChanges', () => {
  it('lists each changed value once, in the order of the settings object, with the words of the timeline', () => {
    const after = {
      ...DEFAULT_SETTINGS,
      tz_offset_min: 60,
      defaults: { ...DEFAULT_SETTINGS.defaults, interval_s: 30 },
      allow_private_targets: false,
    };
    const changes = changesBetween(DEFAULT_SETTINGS, after);
    expect(changes).toEqual([
      { field: 'defaults.interval_s', from: 60, to: 30 },
      { field: 'tz_offset_min', from: 0, to: 60 },
      { field: 'allow_private_targets', from: true, to: false },
    ]);
    expect(describeChanges(changes)).toBe(
      'defaults.interval_s from 60 to 30, tz_offset_min from 0 to 60, allow_private_targets from true to false',
    );
  });
});

describe('SETTING_RANGES', () => {
  it('holds the built-in defaults', () => {
    const d = DEFAULT_SETTINGS;
    const values: Record<string, number> = {
      ...Object.fromEntries(Object.entries(d.defaults).map(([k, v]) => [`defaults.${k}`, v])),
      tz_offset_min: d.tz_offset_min,
      ...Object.fromEntries(Object.entries(d.retention).map(([k, v]) => [`retention.${k}`, v])),
      'email.daily_cap': d.daily_cap,
      // No watchdog by default: the interval a new one takes.
      'watchdog.interval_s': WATCHDOG_DEFAULT_INTERVAL_S,
    };
    expect(Object.keys(values).sort()).toEqual(Object.keys(SETTING_RANGES).sort());
    for (const [field, r] of Object.entries(SETTING_RANGES)) {
      expect([field, values[field] >= r.min && values[field] <= r.max]).toEqual([field, true]);
    }
  });
});
