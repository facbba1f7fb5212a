import { CHALLENGE_TTL_MS, ChallengeBook } from './challenge-book';

describe('ChallengeBook', () => {
  const t0 = 1_767_225_600_000;

  it('gives a fresh random challenge of 32 bytes and a different id each time', () => {
    const book = new ChallengeBook();
    const a = book.issue('sign_in', '', t0);
    const b = book.issue('sign_in', '', t0);
    expect(Buffer.from(a.challenge, 'base64url')).toHaveLength(32);
    expect(a.challenge).not.toBe(b.challenge);
    expect(a.id).not.toBe(b.id);
    expect(a.expiresAt).toBe(t0 + CHALLENGE_TTL_MS);
  });

  it('hands the challenge back for the right purpose and binding until the end of its life', () => {
    const book = new ChallengeBook();
    const issued = book.issue('step_up', 'session:7', t0);
    expect(book.take(issued.id, 'step_up', 'session:7', t0 + CHALLENGE_TTL_MS - 1)).toBe(issued.challenge);
  });

  it('knows no id it did not issue', () => {
    const book = new ChallengeBook();
    book.issue('step_up', 'session:7', t0);
    expect(book.take('nope', 'step_up', 'session:7', t0)).toBeNull();
    expect(book.size).toBe(1);
  });

  it.each<[string, (book: ChallengeBook, id: string) => string | null]>([
    ['the end of its life', (book, id) => book.take(id, 'step_up', 'session:7', t0 + CHALLENGE_TTL_MS)],
    ['another purpose', (book, id) => book.take(id, 'sign_in', 'session:7', t0)],
    ['another session', (book, id) => book.take(id, 'step_up', 'session:8', t0)],
  ])('refuses %s, and the id is spent afterwards', (_label, take) => {
    const book = new ChallengeBook();
    const issued = book.issue('step_up', 'session:7', t0);
    expect(take(book, issued.id)).toBeNull();
    expect(book.take(issued.id, 'step_up', 'session:7', t0)).toBeNull();
  });

  it('gives a challenge back only once', () => {
    const book = new ChallengeBook();
    const issued = book.issue('sign_in', '', t0);
    expect(book.take(issued.id, 'sign_in', '', t0)).toBe(issued.challenge);
    expect(book.take(issued.id, 'sign_in', '', t0)).toBeNull();
  });

  it('forgets expired challenges when new ones are issued', () => {
    const book = new ChallengeBook(1000, 100);
    for (let i = 0; i < 10; i++) book.issue('sign_in', '', t0 + i);
    book.issue('sign_in', '', t0 + 1005);
    // issued at t0..t0+5 have expired by t0+1005; t0+6..t0+9 and the new one remain
    expect(book.size).toBe(5);
  });

  it('drops the oldest challenge when full, and keeps the newest', () => {
    const book = new ChallengeBook(CHALLENGE_TTL_MS, 3);
    const [a, b, c, d] = [0, 1, 2, 3].map((i) => book.issue('sign_in', '', t0 + i));
    expect(book.size).toBe(3);
    expect(book.take(a.id, 'sign_in', '', t0 + 10)).toBeNull();
    expect(book.take(b.id, 'sign_in', '', t0 + 10)).toBe(b.challenge);
    expect(book.take(c.id, 'sign_in', '', t0 + 10)).toBe(c.challenge);
    expect(book.take(d.id, 'sign_in', '', t0 + 10)).toBe(d.challenge);
  });
});
