import type { IncidentRow } from '../events/incident';
import { initialState } from '../probes/status';
import {
  blindData,
  checkData,
  checkDataJson,
  incidentData,
  maintenanceData,
  pathData,
  stateData,
} from './stream-events';

const T = Date.UTC(2026, 10, 1, 12, 0, 0);

describe('check event data', () => {
  it.each<[string, object, object]>([
    [
      'a good check, latency rounded to whole ms',
      { id: 4, at: T, outcome: 'up', latency_ms: 12.6, status: 200, error: null },
      { monitor_id: 4, at_ms: T, outcome: 'up', latency_ms: 13, status: 200, error: null },
    ],
    [
      'a failed check without latency',
      {
        id: 4,
        at: T + 1,
        outcome: 'down',
        latency_ms: null,
        status: null,
        error: { code: 'refused', message: 'connection refused' },
      },
      {
        monitor_id: 4,
        at_ms: T + 1,
        outcome: 'down',
        latency_ms: null,
        status: null,
        error: { code: 'refused', message: 'connection refused' },
      },
    ],
  ])('%s', (_, bus, data) => {
    expect(checkData(bus as Parameters<typeof checkData>[0])).toEqual(data);
  });

  type CheckBus = Parameters<typeof checkData>[0];
  it.each<[string, CheckBus]>([
    ['a good check', { id: 4, at: T, outcome: 'up', latency_ms: 12.6, status: 200, error: null }],
    [
      'a slow check at half a millisecond',
      { id: 1, at: T, outcome: 'slow', latency_ms: 0.5, status: 204, error: null },
    ],
    ['no latency, no status', { id: 9, at: T + 1, outcome: 'unknown', latency_ms: null, status: null, error: null }],
    [
      'a latency that is not a number',
      { id: 9, at: T + 1, outcome: 'down', latency_ms: Number.NaN, status: null, error: null },
    ],
    [
      'a message with quotes, a backslash, control and non-ASCII characters',
      {
        id: 2 ** 40,
        at: T,
        outcome: 'down',
        latency_ms: 9999.5,
        status: 503,
        error: { code: 'body', message: 'body does not contain "ok\\" \u0000\n\t é ✓ \ud83d\ude00 \u2028' },
      },
    ],
    [
      'an unpaired surrogate',
      { id: 3, at: T, outcome: 'down', latency_ms: 1, status: null, error: { code: 'dns', message: 'name \ud800 x' } },
    ],
  ])('writes the JSON of %s exactly as JSON.stringify does', (_, bus) => {
    expect(checkDataJson(bus)).toBe(JSON.stringify(checkData(bus)));
  });
});

describe('state event data', () => {
  it.each<[string, number | null, boolean]>([
    ['not muted', null, false],
    ['muted until later', T + 60_000, true],
    ['muted until a moment that has passed', T - 1, false],
  ])('%s: the state as the monitors API shows it', (_, mutedUntil, muted) => {
    const state = {
      ...initialState(9, false, T - 5000),
      status: 'down' as const,
      failing: 2,
      error_code: 'timeout',
      error_message: 'no answer in 10 s',
      last_check_at: T,
    };
    expect(stateData(state, mutedUntil, T)).toEqual({
      monitor_id: 9,
      state: {
        status: 'down',
        since: '2026-11-01T11:59:55.000Z',
        failing: 2,
        flapping: false,
        muted,
        last_check_at: '2026-11-01T12:00:00.000Z',
        last_ok_at: null,
        latency_ms: null,
        error: { code: 'timeout', message: 'no answer in 10 s' },
        incident_id: null,
        cert_expires_at: null,
        note: null,
        maintenance: null,
        cause: null,
        locations: [
          {
            name: 'local',
            status: 'down',
            latency_ms: null,
            at: '2026-11-01T12:00:00.000Z',
            error: { code: 'timeout', message: 'no answer in 10 s' },
          },
        ],
      },
    });
  });

  it('carries the maintenance window holding the monitor', () => {
    const mark = { window_id: 4, title: 'Firmware', ends_at: T + 3_600_000 };
    expect(stateData(initialState(9, false, T), null, T, mark).state.maintenance).toEqual({
      window_id: 4,
      title: 'Firmware',
      ends_at: '2026-11-01T13:00:00.000Z',
    });
    expect(stateData(initialState(9, false, T), null, T, { ...mark, ends_at: null }).state.maintenance).toMatchObject({
      ends_at: null,
    });
  });
});

describe('maintenance event data', () => {
  it('names the window, its monitors and its times in RFC 3339', () => {
    expect(
      maintenanceData({ started: true, window_id: 2, title: 'NAS', monitors: [1, 5], at: T, ends_at: null }),
    ).toEqual({ window_id: 2, title: 'NAS', monitors: [1, 5], at: '2026-11-01T12:00:00.000Z', ends_at: null });
  });
});

describe('incident event data', () => {
  const open: IncidentRow = {
    id: 3,
    monitor_id: 9,
    monitor_name: 'Web',
    started_at: T - 120_000,
    down_at: T - 100_000,
    ended_at: null,
    end_reason: null,
    cause_code: 'status',
    cause_message: 'HTTP 503',
    last_error_code: 'timeout',
    last_error_message: 'no answer in 10 s',
    fails: 4,
    acknowledged_at: null,
    note: null,
  };

  it.each<[string, IncidentRow, object]>([
    [
      'an open incident: duration measured to now',
      open,
      {
        id: 3,
        monitor_id: 9,
        monitor_name: 'Web',
        started_at: '2026-11-01T11:58:00.000Z',
        ended_at: null,
        duration_ms: 120_000,
        cause: { code: 'status', message: 'HTTP 503' },
        last_error: { code: 'timeout', message: 'no answer in 10 s' },
        fails: 4,
        acknowledged_at: null,
        note: null,
        end_reason: null,
      },
    ],
    [
      'a closed, acknowledged incident with a note',
      { ...open, ended_at: T - 30_000, end_reason: 'recovered', acknowledged_at: T - 60_000, note: 'router rebooted' },
      {
        id: 3,
        monitor_id: 9,
        monitor_name: 'Web',
        started_at: '2026-11-01T11:58:00.000Z',
        ended_at: '2026-11-01T11:59:30.000Z',
        duration_ms: 90_000,
        cause: { code: 'status', message: 'HTTP 503' },
        last_error: { code: 'timeout', message: 'no answer in 10 s' },
        fails: 4,
        acknowledged_at: '2026-11-01T11:59:00.000Z',
        note: 'router rebooted',
        end_reason: 'recovered',
      },
    ],
  ])('%s: the incident object of the API', (_, row, data) => {
    expect(incidentData({ incident: row }, T)).toEqual(data);
  });
});

describe('blind and path event data', () => {
  it.each<[boolean, number, object]>([
    [true, T, { active: true, since: '2026-11-01T12:00:00.000Z' }],
    [false, T - 90_000, { active: false, since: '2026-11-01T11:58:30.000Z' }],
  ])('blind active=%s: since as RFC 3339', (active, since, data) => {
    expect(blindData({ active, since })).toEqual(data);
  });

  it('path: the host and the moment as RFC 3339', () => {
    expect(pathData({ host: '127.0.0.1:8080', at: T })).toEqual({
      host: '127.0.0.1:8080',
      at: '2026-11-01T12:00:00.000Z',
    });
  });
});
