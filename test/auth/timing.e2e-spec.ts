/**
 * Nothing in an answer or its timing tells whether an email is the owner's: statistical tests
 * over many tries, measured with the wall clock (the fake clock only drives the service's
 * notion of time). Two kinds of request are sent interleaved in a shuffled order, so a slow
 * moment of the machine falls on both alike, and their distributions are compared: the medians
 * must lie within a tolerance relative to the spread (interquartile range) of the measurements;
 * there is no assertion on absolute durations. Each /auth/password try comes from an address of
 * its own, so the throttle never blocks one of them (its answer would be the same anyway).
 *
 * A control shows the comparison has the power to fail: requests that skip the password hash (a
 * malformed body) are told apart from the others by the same rule.
 */
import { ResetService } from '../../src/auth/password/reset.service';
import { SignInService } from '../../src/auth/sign-in/sign-in.service';
import { OWNER, TestApp, createOwner, startApp } from '../support/app';
import { SmtpServer, startSmtp } from '../../harness/servers/smtp-farm';
import { API, TRUST_LOOPBACK, from } from './support';

interface Stats {
  median: number;
  iqr: number;
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  return { median: quantile(s, 0.5), iqr: quantile(s, 0.75) - quantile(s, 0.25) };
}

/**
 * The rule: two sets of timings are alike when their medians differ by at most half the larger
 * interquartile range. With 60 or more tries a side, two samples of one distribution break it
 * about once in ten thousand runs; a path that skips a scrypt (tens of milliseconds, against a
 * spread of a few) breaks it every time.
 */
function alike(a: number[], b: number[]): { ok: boolean; detail: string } {
  const x = stats(a);
  const y = stats(b);
  const tolerance = 0.5 * Math.max(x.iqr, y.iqr);
  const gap = Math.abs(x.median - y.median);
  const ms = (n: number) => `${(n / 1e6).toFixed(2)} ms`;
  return {
    ok: gap <= tolerance,
    detail: `medians ${ms(x.median)} and ${ms(y.median)} (gap ${ms(gap)}), IQRs ${ms(x.iqr)} and ${ms(y.iqr)}, tolerance ${ms(tolerance)}`,
  };
}

/** A fixed shuffle (mulberry32), so a failure can be replayed with the same order. */
function shuffled<T>(items: T[], seed: number): T[] {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let r = Math.imul(s ^ (s >>> 15), 1 | s);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

interface Answer {
  status: number;
  body: unknown;
  headers: string[];
}

function answerOf(res: { status: number; body: unknown; headers: Record<string, unknown> }): Answer {
  return {
    status: res.status,
    body: res.body,
    headers: Object.keys(res.headers)
      .filter((h) => !['date', 'content-length', 'etag'].includes(h))
      .sort(),
  };
}

/** Wall-clock nanoseconds of one request. */
async function timed<T>(send: () => Promise<T>): Promise<{ ns: number; res: T }> {
  const start = process.hrtime.bigint();
  const res = await send();
  return { ns: Number(process.hrtime.bigint() - start), res };
}

describe('timing: unknown email and wrong password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(TRUST_LOOPBACK);
    await createOwner(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers an unknown email and a wrong password alike, in answer and in time', async () => {
    const N = 60;
    const kinds = shuffled(
      [...Array(N).fill('unknown'), ...Array(N).fill('wrong'), ...Array(N).fill('malformed')] as string[],
      13,
    );
    const bodies: Record<string, Record<string, unknown>> = {
      unknown: { email: 'nobody-here@example.org', password: 'a guess at the password' },
      wrong: { email: OWNER.email, password: 'a guess at the password' },
      // Control: refused before any password is hashed.
      malformed: { email: OWNER.email, password: 'a guess at the password', extra: 1 },
    };
    let n = 0;
    const send = (kind: string) => {
      n++;
      const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      return t.http.post(`${API}/auth/password`).set(from(ip)).send(bodies[kind]);
    };
    for (const kind of ['unknown', 'wrong', 'unknown', 'wrong', 'malformed', 'malformed']) await send(kind); // warm-up
    const times: Record<string, number[]> = { unknown: [], wrong: [], malformed: [] };
    const answers: Record<string, Answer[]> = { unknown: [], wrong: [], malformed: [] };
    for (const kind of kinds) {
      const { ns, res } = await timed(() => send(kind));
      times[kind].push(ns);
      answers[kind].push(answerOf(res));
    }
    const reference = answers.wrong[0];
    expect(reference).toMatchObject({
      status: 401,
      body: { error: { code: 'sign_in', message: 'the email or password is not right' } },
    });
    for (const a of [...answers.unknown, ...answers.wrong]) expect(a).toEqual(reference);
    expect(await t.db.query('SELECT id FROM address_blocks')).toEqual([]);

    const same = alike(times.unknown, times.wrong);
    expect({ same: same.ok, detail: same.detail }).toEqual({ same: true, detail: same.detail });
    // The rule tells a path without the scrypt apart (the control).
    const control = alike(times.malformed, times.wrong);
    expect({ same: control.ok, detail: control.detail }).toEqual({ same: false, detail: control.detail });
    // 120 password hashes one after another: seconds on a quiet machine, minutes on a busy one.
  }, 600_000);
});

describe("timing: /auth/forgot with the owner's email and with another", () => {
  let smtp: SmtpServer;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startApp({ FARSIGHT_SMTP: smtp.url });
    await createOwner(t);
    await t.app.get(SignInService).settled();
    smtp.mails.length = 0;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('answers {ok: true} alike, in answer and in time, and mails only the owner', async () => {
    const N = 80;
    const kinds = shuffled([...Array(N).fill('owner'), ...Array(N).fill('other')] as string[], 29);
    const resets = t.app.get(ResetService);
    const send = (kind: string) =>
      t.http
        .post(`${API}/auth/forgot`)
        .set(from())
        .send({ email: kind === 'owner' ? OWNER.email : 'nobody-here@example.org' });
    for (const kind of ['owner', 'other', 'owner', 'other']) await send(kind); // warm-up
    await resets.settled();
    const mailedBefore = smtp.mails.length;
    const times: Record<string, number[]> = { owner: [], other: [] };
    const answers: Answer[] = [];
    for (const kind of kinds) {
      // 20 minutes apart: under the limit of 3 reset mails an hour, every owner try mails a link.
      t.clock.advance(20 * 60_000);
      const { ns, res } = await timed(() => send(kind));
      times[kind].push(ns);
      answers.push(answerOf(res));
      // The mail goes out after the answer; let it finish before the next try is timed.
      await resets.settled();
    }
    for (const a of answers) expect(a).toEqual({ ...answers[0], status: 200, body: { ok: true } });
    expect(smtp.mails.length - mailedBefore).toBe(N);
    expect(new Set(smtp.mails.map((m) => m.to.join(',')))).toEqual(new Set([OWNER.email]));

    const same = alike(times.owner, times.other);
    expect({ same: same.ok, detail: same.detail }).toEqual({ same: true, detail: same.detail });
  }, 300_000);
});
