import type { AlertEvent, AlertEventType } from './channel-kind';
import {
  clip,
  eventTitle,
  formatDuration,
  formatWhen,
  oneLine,
  shownEvents,
  subjectOf,
  TEST_TEXT,
  withoutName,
} from './messages';

const MIN = 60_000;
const HOUR = 60 * MIN;

function event(type: AlertEventType, extra: Partial<AlertEvent> & { name?: string } = {}): AlertEvent {
  const { name = 'NAS web UI', ...rest } = extra;
  return {
    type,
    at: Date.UTC(2026, 10, 23, 11, 2),
    monitor: { id: 3, name, slug: 'nas-web-ui', group: null, target: 'GET https://nas.lan/', url: 'https://nas.lan/' },
    message: `${name} changed`,
    ...rest,
  };
}

const refused = { code: 'refused', message: 'connection refused by 10.0.0.5:443' };

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [44_600, '45 s'],
    [59_400, '59 s'],
    [60_000, '1 min'],
    [12 * MIN + 20_000, '12 min'],
    [59 * MIN + 40_000, '1 h'],
    [HOUR + 5 * MIN, '1 h 5 min'],
    [3 * HOUR, '3 h'],
    [24 * HOUR, '1 day'],
    [52 * HOUR + 10 * MIN, '2 days 4 h'],
    [-5, '0 s'],
  ])('%d ms reads "%s"', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('eventTitle: one line per event type', () => {
  it.each<[string, AlertEvent, string]>([
    ['down with its error', event('down', { error: refused }), 'DOWN: NAS web UI — connection refused by 10.0.0.5:443'],
    ['down without an error', event('down', { message: 'NAS web UI is down' }), 'DOWN: NAS web UI'],
    ['up with how long it was down', event('up', { duration_ms: 12 * MIN }), 'UP: NAS web UI — after 12 min'],
    ['up without a duration', event('up'), 'UP: NAS web UI — back up'],
    [
      'slow',
      event('slow', { error: { code: 'too_slow', message: 'answered in 2300 ms (slow_ms 1000)' } }),
      'SLOW: NAS web UI — answered in 2300 ms (slow_ms 1000)',
    ],
    ['slow without an error', event('slow'), 'SLOW: NAS web UI — responding slowly'],
    [
      'back to normal speed',
      event('slow', { ended: true, duration_ms: 20 * MIN }),
      'BACK TO NORMAL: NAS web UI — slow for 20 min',
    ],
    [
      'back to normal without a duration',
      event('slow', { ended: true }),
      'BACK TO NORMAL: NAS web UI — responding at normal speed',
    ],
    ['flapping', event('flapping'), 'FLAPPING: NAS web UI — going up and down repeatedly'],
    ['flapping ended', event('flapping', { ended: true }), 'STABLE: NAS web UI — stopped flapping'],
    [
      'cert, from the message without the name',
      event('cert', { message: 'NAS web UI: certificate expires in 7 days' }),
      'CERT: NAS web UI — certificate expires in 7 days',
    ],
    [
      'cert, from its error when there is one',
      event('cert', { error: { code: 'cert', message: 'certificate expires in 3 days' } }),
      'CERT: NAS web UI — certificate expires in 3 days',
    ],
    [
      'reminder with duration and error',
      event('reminder', { duration_ms: 2 * HOUR, error: refused }),
      'STILL DOWN: NAS web UI — 2 h so far, connection refused by 10.0.0.5:443',
    ],
    [
      'reminder with the duration only',
      event('reminder', { duration_ms: 90 * MIN }),
      'STILL DOWN: NAS web UI — 1 h 30 min so far',
    ],
    [
      'notice (no monitor)',
      { type: 'notice', at: 0, monitor: null, message: 'Farsight was offline for 12 min' },
      'NOTICE: Farsight was offline for 12 min',
    ],
  ])('%s', (_, e, title) => {
    expect(eventTitle(e)).toBe(title);
  });

  it('a test reads TEST', () => {
    expect(eventTitle({ type: 'notice', at: 0, monitor: null, message: TEST_TEXT }, true)).toBe(`TEST: ${TEST_TEXT}`);
  });

  it('keeps a title on one line and long names and errors short', () => {
    const e = event('down', {
      name: 'A'.repeat(100),
      error: { code: 'body', message: `line one\nline two\r\n\tthree ${'x'.repeat(300)}` },
    });
    const title = eventTitle(e);
    expect(title).not.toMatch(/[\r\n\t]/);
    expect(title).toContain(`${'A'.repeat(39)}…`);
    expect(title).toContain('line one line two three');
    expect(title.length).toBeLessThan(180);
  });
});

describe('subjectOf', () => {
  const router = (type: AlertEventType, extra: Partial<AlertEvent> = {}): AlertEvent =>
    event(type, { name: 'Router', ...extra });

  it.each<[string, AlertEvent[], string]>([
    [
      'one event is its title',
      [event('down', { error: refused })],
      'DOWN: NAS web UI — connection refused by 10.0.0.5:443',
    ],
    [
      'counts most urgent first, names of the down ones first',
      [event('up', { name: 'Printer' }), event('down'), router('down')],
      '3 alerts: 2 down, 1 up — NAS web UI, Router, +1',
    ],
    [
      'a monitor named twice is listed once',
      [event('down'), event('up', { duration_ms: MIN })],
      '2 alerts: 1 down, 1 up — NAS web UI',
    ],
    [
      'every kind of count',
      [
        event('reminder'),
        router('slow'),
        event('slow', { ended: true, name: 'DNS' }),
        event('cert', { name: 'Web' }),
        event('flapping', { name: 'Wifi' }),
        { type: 'notice', at: 0, monitor: null, message: 'x' },
      ],
      '6 alerts: 1 still down, 1 flapping, 1 slow, 1 certificate, 1 back to normal, 1 notice — NAS web UI, Wifi, +3',
    ],
    [
      'only notices: no names',
      [
        { type: 'notice', at: 0, monitor: null, message: 'a' },
        { type: 'notice', at: 1, monitor: null, message: 'b' },
      ],
      '2 alerts: 2 notices',
    ],
  ])('%s', (_, events, subject) => {
    expect(subjectOf({ id: 'm1', events })).toBe(subject);
  });

  it('a test message without events gets one test notice', () => {
    const message = { id: 't', events: [], test: true };
    const events = shownEvents(message, 5);
    expect(events).toEqual([{ type: 'notice', at: 5, monitor: null, message: TEST_TEXT }]);
    expect(subjectOf(message, events)).toBe(`TEST: ${TEST_TEXT}`);
  });

  it('stays short with a thousand monitors', () => {
    const events = Array.from({ length: 1000 }, (_, i) =>
      event('down', { name: `Monitor number ${i} with a long name` }),
    );
    const subject = subjectOf({ id: 'm', events });
    expect(
      subject.startsWith(
        '1000 alerts: 1000 down — Monitor number 0 with a long name, Monitor number 1 with a long name, +998',
      ),
    ).toBe(true);
    expect(subject.length).toBeLessThanOrEqual(200);
  });
});

describe('small text helpers', () => {
  it.each([
    ['NAS web UI: certificate expires', 'NAS web UI', 'certificate expires'],
    ['NAS web UI — certificate expires', 'NAS web UI', 'certificate expires'],
    ['Certificate of NAS web UI expires', 'NAS web UI', 'Certificate of NAS web UI expires'],
    ['NAS web UI', 'NAS web UI', 'NAS web UI'],
    ['anything', null, 'anything'],
  ])('withoutName(%j, %j) = %j', (message, name, want) => {
    expect(withoutName(message, name)).toBe(want);
  });

  it('oneLine and clip', () => {
    expect(oneLine(' a\r\n\u2028b\u0000  c ')).toBe('a b c');
    expect(clip('abcdef', 6)).toBe('abcdef');
    expect(clip('abcdefg', 6)).toBe('abcde…');
    expect(clip('👍👍👍', 2)).toBe('👍…');
  });

  it('formatWhen is UTC to the minute', () => {
    expect(formatWhen(Date.UTC(2026, 10, 23, 11, 2, 59))).toBe('2026-11-23 11:02 UTC');
  });
});
