/**
 * Password work under a flood of anonymous sign-in attempts (issue 42, informational): one scrypt
 * at a time per address and two in all, a few waiting, the rest answered 429 at once without any
 * hashing, and none of the 429s counted as a failed attempt.
 */
import { BUSY, BUSY_ADDRESS, PasswordWork } from '../../src/auth/password/password-work.service';
import { createOwner, startApp, TestApp } from '../support/app';
import { passwordStep, rows, TRUST_LOOPBACK } from './support';

interface Outcome {
  status: number;
  body: unknown;
  retryAfter: string | undefined;
}

describe('password work under a flood of sign-in attempts', () => {
  let t: TestApp;
  let work: PasswordWork;
  beforeEach(async () => {
    t = await startApp(TRUST_LOOPBACK);
    await createOwner(t);
    work = t.app.get(PasswordWork);
  });
  afterEach(async () => t.close());

  /** Sends every attempt at once and watches the gate's load until all are answered. */
  async function flood(ips: string[]): Promise<{ outcomes: Outcome[]; maxRunning: number; maxWaiting: number }> {
    let maxRunning = 0;
    let maxWaiting = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const { running, waiting } = work.load();
        maxRunning = Math.max(maxRunning, running);
        maxWaiting = Math.max(maxWaiting, waiting);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const outcomes = await Promise.all(
      ips.map(async (ip) => {
        const res = await passwordStep(t, { password: 'a wrong guess, again' }, ip);
        return {
          status: res.status,
          body: res.body as unknown,
          retryAfter: res.headers['retry-after'] as string | undefined,
        };
      }),
    );
    watching = false;
    await watch;
    return { outcomes, maxRunning, maxWaiting };
  }
  const failures = async () => (await rows<{ n: number }>(t, 'SELECT COUNT(*) AS n FROM sign_in_failures'))[0].n;

  it('runs one check at a time for an address, lets two wait, and answers the rest 429 at once', async () => {
    const { outcomes, maxRunning, maxWaiting } = await flood(Array.from({ length: 16 }, () => '203.0.113.7'));
    const checked = outcomes.filter((o) => o.status === 401);
    const refused = outcomes.filter((o) => o.status === 429);
    expect(checked.length + refused.length).toBe(16);
    expect(maxRunning).toBe(1);
    expect(maxWaiting).toBeLessThanOrEqual(2);
    // At least the three the gate holds are checked; a check that ends while the rest still arrive lets one more in.
    expect(checked.length).toBeGreaterThanOrEqual(3);
    expect(refused.length).toBeGreaterThanOrEqual(8);
    for (const o of refused)
      expect(o).toEqual({
        status: 429,
        body: { error: { code: 'too_many_requests', message: BUSY_ADDRESS } },
        retryAfter: '1',
      });
    // Refused before any check: not failed attempts.
    expect(await failures()).toBe(checked.length);
  });

  it('runs two checks at a time in all however many addresses ask, lets 16 wait, and refuses the rest', async () => {
    const { outcomes, maxRunning, maxWaiting } = await flood(
      Array.from({ length: 40 }, (_, i) => `198.51.100.${i + 1}`),
    );
    const refused = outcomes.filter((o) => o.status === 429);
    expect(outcomes.every((o) => o.status === 401 || o.status === 429)).toBe(true);
    expect(maxRunning).toBe(2);
    expect(maxWaiting).toBeLessThanOrEqual(16);
    expect(refused.length).toBeGreaterThanOrEqual(10);
    for (const o of refused)
      expect(o).toEqual({
        status: 429,
        body: { error: { code: 'too_many_requests', message: BUSY } },
        retryAfter: '1',
      });
    expect(work.load()).toEqual({ running: 0, waiting: 0 });
    // The gate is free again: the owner signs in.
    expect((await passwordStep(t, {}, '192.0.2.1')).status).toBe(200);
  });
});
