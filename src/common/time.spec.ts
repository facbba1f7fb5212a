import { parseIso, toIso } from './time';

describe('toIso', () => {
  it.each<[number, string]>([
    [0, '1970-01-01T00:00:00.000Z'],
    [1767225600000, '2026-01-01T00:00:00.000Z'],
    [1767225600123, '2026-01-01T00:00:00.123Z'],
    [1772323199999, '2026-02-28T23:59:59.999Z'],
  ])('formats %i ms as %s (UTC with milliseconds)', (ms, iso) => {
    expect(toIso(ms)).toBe(iso);
  });

  it.each([null, undefined])('passes %s through as null', (ms) => {
    expect(toIso(ms)).toBeNull();
  });

  it.each([0, 1767225600123, 1709164800000])('round-trips %i through parseIso', (ms) => {
    expect(parseIso(toIso(ms))).toBe(ms);
  });
});

describe('parseIso', () => {
  const newYear2026 = Date.UTC(2026, 0, 1);

  it.each<[string, number]>([
    ['2026-01-01T00:00:00Z', newYear2026],
    ['2026-01-01T00:00:00.000Z', newYear2026],
    ['2026-01-01t00:00:00z', newYear2026],
    ['2026-01-01T00:00:00+00:00', newYear2026],
    ['2026-01-01T00:00:00-00:00', newYear2026],
    ['2026-01-01T01:00:00+01:00', newYear2026],
    ['2025-12-31T19:00:00-05:00', newYear2026],
    ['2026-01-01T05:30:00+05:30', newYear2026],
    ['2026-03-01T00:30:00+01:00', Date.UTC(2026, 1, 28, 23, 30)],
    ['2026-02-28T23:30:00-01:00', Date.UTC(2026, 2, 1, 0, 30)],
    ['2024-02-29T12:00:00Z', Date.UTC(2024, 1, 29, 12)],
    ['2026-12-31T23:59:59.999Z', Date.UTC(2026, 11, 31, 23, 59, 59, 999)],
  ])('reads %s as %i', (text, ms) => {
    expect(parseIso(text)).toBe(ms);
  });

  it.each<[string, number]>([
    ['.1', 100],
    ['.12', 120],
    ['.123', 123],
    ['.1234', 123],
    ['.123456', 123],
    ['.123456789', 123],
  ])('accepts fractional seconds %s (kept to whole milliseconds: %i)', (fraction, ms) => {
    expect(parseIso(`2026-01-01T00:00:00${fraction}Z`)).toBe(newYear2026 + ms);
  });

  it.each([
    '2026-01-01T00:00:00',
    '2026-01-01T00:00:00.000',
    '2026-01-01',
    '2026-01-01Z',
    '2026-01-01 00:00:00Z',
    '2026-01-01T00:00Z',
    '2026-1-01T00:00:00Z',
    '2026-01-01T00:00:00.Z',
    '2026-01-01T00:00:00.1234567890Z',
    '2026-01-01T00:00:00+0100',
    '2026-01-01T00:00:00+01',
    '2026-01-01T00:00:00+24:00',
    '2026-01-01T00:00:00+05:99',
    '2026-01-01T00:00:00 Z',
    ' 2026-01-01T00:00:00Z',
    '2026-01-01T00:00:00Z ',
    '2026-02-30T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-02-30T23:00:00-05:00',
    '2026-01-32T00:00:00Z',
    '2026-01-00T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-01T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:60:00Z',
    '2026-01-01T23:59:61Z',
    '+002026-01-01T00:00:00Z',
    'yesterday',
    '',
  ])('rejects %j', (text) => {
    expect(parseIso(text)).toBeNull();
  });

  it.each<[string, unknown]>([
    ['a number', 1767225600000],
    ['null', null],
    ['undefined', undefined],
    ['a Date', new Date(0)],
    ['an array', ['2026-01-01T00:00:00Z']],
    ['an object', { at: '2026-01-01T00:00:00Z' }],
  ])('rejects %s (only strings are parsed)', (_label, value) => {
    expect(parseIso(value)).toBeNull();
  });

  it.each([
    ['a 41-character string', `2026-01-01T00:00:00.000000000+00:00${'0'.repeat(6)}`],
    ['a megabyte of digits', '2'.repeat(1024 * 1024)],
  ])('rejects %s as too long to be a timestamp', (_label, text) => {
    expect(parseIso(text)).toBeNull();
  });
});
