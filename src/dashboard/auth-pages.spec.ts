import { homeView } from './auth-pages';

describe('homeView', () => {
  const at = Date.UTC(2026, 10, 23, 11, 2);

  it.each([
    ['passkey', 'a passkey'],
    ['password', 'password and authenticator code'],
    ['recovery', 'password and a recovery code'],
    ['setup', 'the first-run setup link'],
    ['enroll', 'a break-glass enrolment link'],
    ['reset', 'a password reset'],
  ])('says how a %s session began: %s', (method, words) => {
    expect(homeView({ email: 'o@example.com', method, since: at }, []).method).toBe(words);
  });

  it('gives every moment as RFC 3339 for the page script and in UTC words for a page without it', () => {
    const v = homeView({ email: 'o@example.com', method: 'passkey', since: at }, [
      { id: 3, label: 'Phone', created_at: '2026-11-20T08:00:00.000Z', last_used_at: null },
      { id: 4, label: 'Key', created_at: '2026-11-21T08:00:00.000Z', last_used_at: '2026-11-23T11:02:00.000Z' },
    ]);
    expect(v.since).toEqual({ iso: '2026-11-23T11:02:00.000Z', text: '2026-11-23 11:02 UTC' });
    expect(v.passkeys).toEqual([
      {
        id: 3,
        label: 'Phone',
        created: { iso: '2026-11-20T08:00:00.000Z', text: '2026-11-20 08:00 UTC' },
        lastUsed: null,
      },
      {
        id: 4,
        label: 'Key',
        created: { iso: '2026-11-21T08:00:00.000Z', text: '2026-11-21 08:00 UTC' },
        lastUsed: { iso: '2026-11-23T11:02:00.000Z', text: '2026-11-23 11:02 UTC' },
      },
    ]);
  });
});
