import { SESSION_IDLE_MS, SESSION_MAX_MS, sessionExpiry } from './session-lifetime';

const DAY = 24 * 3600_000;
const T0 = Date.UTC(2026, 10, 1);

describe('sessionExpiry', () => {
  it.each([
    ['a new session: idle limit', 0, T0 + SESSION_IDLE_MS],
    ['used after 10 days: 14 days from then', 10 * DAY, T0 + 24 * DAY],
    ['used after 16 days: the absolute end comes first', 16 * DAY, T0 + SESSION_MAX_MS],
    ['used after 29 days: still the absolute end', 29 * DAY, T0 + SESSION_MAX_MS],
  ])('%s', (_, seenAfter, expiry) => {
    expect(sessionExpiry(T0, T0 + seenAfter)).toBe(expiry);
  });
});
