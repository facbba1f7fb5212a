/**
 * The sign-in throttle end to end with the fake clock: 5 failures in 15 minutes block an address
 * for an hour, the third block within a day lasts a day, an IPv6 client is counted by its /64, a
 * blocked address gets exactly the answer of a wrong password, blocks survive a restart, and the
 * owner lists and lifts them. Addresses are chosen per request through X-Forwarded-For from a
 * trusted loopback proxy.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeClock } from '../../src/common/clock';
import { TestApp, bearer, createKey, createOwner, startApp } from '../support/app';
import { API, Owner, TRUST_LOOPBACK, from, nextCode, passwordStep, rows, withSession } from './support';

const HOUR = 3600_000;
const MIN = 60_000;
const WRONG_PASSWORD = { error: { code: 'sign_in', message: 'the email or password is not right' } };

describe('sign-in throttle', () => {
  let t: TestApp;
  let owner: Owner;
  beforeEach(async () => {
    t = await startApp(TRUST_LOOPBACK);
    owner = await createOwner(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const wrong = async (ip: string) => {
    const res = await passwordStep(t, { password: 'this is a wrong guess' }, ip).expect(401);
    expect(res.body).toEqual(WRONG_PASSWORD);
  };
  const failTimes = async (ip: string, n: number) => {
    for (let i = 0; i < n; i++) await wrong(ip);
  };
  /** The right password from `ip`: a ticket (200) or the wrong-password answer (401). */
  const rightPassword = async (ip: string) => {
    const res = await passwordStep(t, {}, ip);
    return {
      status: res.status,
      body: res.body as unknown,
      headers: Object.keys(res.headers)
        .filter((h) => !['date', 'content-length', 'etag'].includes(h))
        .sort(),
    };
  };
  const isBlocked = async (ip: string) => {
    const res = await rightPassword(ip);
    if (res.status === 200) return false;
    expect(res.body).toEqual(WRONG_PASSWORD);
    return true;
  };
  const blocked = async () => (await t.http.get(`${API}/me/blocked-ips`).set('Cookie', owner.cookie).expect(200)).body;

  it('blocks an address for an hour at the fifth failure within 15 minutes, with exactly the wrong-password answer', async () => {
    const ip = '203.0.113.9';
    const wrongAnswer = await (async () => {
      const res = await passwordStep(t, { password: 'this is a wrong guess' }, ip);
      return {
        status: res.status,
        body: res.body as unknown,
        headers: Object.keys(res.headers)
          .filter((h) => !['date', 'content-length', 'etag'].includes(h))
          .sort(),
      };
    })();
    await failTimes(ip, 3);
    t.clock.advance(14 * MIN);
    expect(await isBlocked(ip)).toBe(false); // four failures: the right password still works
    await wrong(ip);
    // Blocked: the right password gets the wrong-password answer, status, body and headers alike.
    expect(await rightPassword(ip)).toEqual(wrongAnswer);
    expect(await rows(t, 'SELECT id FROM sign_in_tickets')).toHaveLength(1);
    // Another address is not affected.
    expect(await isBlocked('203.0.113.10')).toBe(false);

    const list = await blocked();
    expect(list).toEqual({
      items: [
        {
          ip,
          blocked_at: new Date(t.clock.now()).toISOString(),
          blocked_until: new Date(t.clock.now() + HOUR).toISOString(),
          failures: 6,
          reason: 'failures',
        },
      ],
      next_cursor: null,
    });
    const [line] = await rows(t, "SELECT text, actor, data FROM events WHERE kind = 'address_blocked'");
    expect(line).toEqual({
      text: '203.0.113.9 blocked for 1 h after 5 failed sign-in attempts within 15 min',
      actor: 'system',
      data: JSON.stringify({ ip, until: t.clock.now() + HOUR, reason: 'failures' }),
    });

    t.clock.advance(HOUR - 1);
    expect(await isBlocked(ip)).toBe(true);
    t.clock.advance(1);
    expect(await isBlocked(ip)).toBe(false);
    expect((await blocked()).items).toEqual([]);
  });

  it('does not block five failures spread over more than 15 minutes', async () => {
    const ip = '203.0.113.11';
    await failTimes(ip, 4);
    t.clock.advance(15 * MIN + 1);
    await failTimes(ip, 4);
    expect(await isBlocked(ip)).toBe(false);
  });

  it('forgets the failures of an address once it signs in completely', async () => {
    const ip = '203.0.113.12';
    await failTimes(ip, 4);
    const ticket = (await passwordStep(t, {}, ip).expect(200)).body.ticket;
    await t.http
      .post(`${API}/auth/code`)
      .set(from(ip))
      .send({ ticket, code: nextCode(t, owner.secret) })
      .expect(200);
    await failTimes(ip, 4);
    expect(await isBlocked(ip)).toBe(false);
  });

  it('does not forget failures for a right password alone (the second factor is still unproven)', async () => {
    const ip = '203.0.113.13';
    await failTimes(ip, 4);
    expect(await isBlocked(ip)).toBe(false); // a right password: a ticket, but the count stays
    await wrong(ip);
    expect(await isBlocked(ip)).toBe(true);
  });

  it('climbs the ladder: the third block within a day lasts a day; then it starts again at an hour', async () => {
    const ip = '198.51.100.7';
    for (const round of [1, 2]) {
      await failTimes(ip, 5);
      expect([round, await isBlocked(ip)]).toEqual([round, true]);
      t.clock.advance(HOUR);
      expect([round, await isBlocked(ip)]).toEqual([round, false]);
    }
    await failTimes(ip, 5);
    const [item] = (await blocked()).items;
    expect(item).toMatchObject({
      ip,
      reason: 'repeated',
      blocked_until: new Date(t.clock.now() + 24 * HOUR).toISOString(),
    });
    const lines = await rows<{ text: string }>(t, "SELECT text FROM events WHERE kind = 'address_blocked' ORDER BY id");
    expect(lines.map((l) => l.text)).toEqual([
      '198.51.100.7 blocked for 1 h after 5 failed sign-in attempts within 15 min',
      '198.51.100.7 blocked for 1 h after 5 failed sign-in attempts within 15 min',
      '198.51.100.7 blocked for 1 day after its third block within a day',
    ]);
    t.clock.advance(HOUR);
    expect(await isBlocked(ip)).toBe(true);
    t.clock.advance(23 * HOUR - 1);
    expect(await isBlocked(ip)).toBe(true);
    t.clock.advance(1);
    expect(await isBlocked(ip)).toBe(false);
    // A day later the earlier blocks have left the 24-hour window: the next block is an hour again.
    await failTimes(ip, 5);
    expect((await blocked()).items[0]).toMatchObject({
      ip,
      reason: 'failures',
      blocked_until: new Date(t.clock.now() + HOUR).toISOString(),
    });
  });

  it('counts failures made while blocked on the block, not towards the next one', async () => {
    const ip = '198.51.100.8';
    await failTimes(ip, 5);
    await failTimes(ip, 7);
    expect((await blocked()).items[0]).toMatchObject({ ip, failures: 12 });
    t.clock.advance(HOUR);
    await failTimes(ip, 4);
    expect(await isBlocked(ip)).toBe(false);
  });

  it('counts wrong codes, wrong reset attempts and wrong step-ups with wrong passwords', async () => {
    const ip = '198.51.100.9';
    await wrong(ip);
    const ticket = (await passwordStep(t, {}, ip).expect(200)).body.ticket;
    const right = nextCode(t, owner.secret);
    const bad = right === '000000' ? '111111' : '000000';
    await t.http.post(`${API}/auth/code`).set(from(ip)).send({ ticket, code: bad }).expect(401);
    await t.http.post(`${API}/auth/code`).set(from(ip)).send({ ticket, recovery_code: 'aaaaa-bbbbb' }).expect(401);
    await t.http
      .post(`${API}/auth/reset`)
      .set(from(ip))
      .send({ token: 'x'.repeat(43), password: 'a brand new passphrase', code: bad })
      .expect(401);
    await t.http
      .post(`${API}/auth/step-up/password`)
      .set(withSession(owner.cookie, ip))
      .send({ password: 'not it at all', code: right })
      .expect(401);
    // Blocked now: even the right code with the live ticket gets the wrong-code answer.
    const res = await t.http.post(`${API}/auth/code`).set(from(ip)).send({ ticket, code: right }).expect(401);
    expect(res.body.error.message).toMatch(/^the code is not right/);
    expect(await isBlocked(ip)).toBe(true);
  });

  it('counts an IPv6 client by its /64: any address in it is blocked, the next /64 is not', async () => {
    for (let i = 1; i <= 5; i++) await wrong(`2001:db8:1:2::${i}`);
    expect(await isBlocked('2001:db8:1:2:abcd:ef01:2345:6789')).toBe(true);
    expect(await isBlocked('2001:db8:1:3::1')).toBe(false);
    expect(await isBlocked('2001:db8:1:1:ffff:ffff:ffff:ffff')).toBe(false);
    expect((await blocked()).items).toEqual([expect.objectContaining({ ip: '2001:0db8:0001:0002::/64', failures: 6 })]);
  });

  it('counts IPv4 addresses one by one', async () => {
    for (let i = 1; i <= 5; i++) await wrong(`192.0.2.${i}`);
    expect(await isBlocked('192.0.2.6')).toBe(false);
    expect((await blocked()).items).toEqual([]);
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    await t.close();
    t = await startApp(); // no FARSIGHT_TRUST_PROXY
    owner = await createOwner(t);
    for (let i = 1; i <= 5; i++) await wrong(`192.0.2.${i}`);
    // Every attempt came from the socket's address, whatever the header said.
    expect((await blocked()).items).toEqual([expect.objectContaining({ ip: '127.0.0.1' })]);
  });

  it('lets the owner lift a block with an URL-encoded IPv6 prefix or any address in it; the ladder starts again', async () => {
    for (const round of [1, 2]) {
      for (let i = 1; i <= 5; i++) await wrong(`2001:db8:9:9::${i}`);
      if (round === 1) t.clock.advance(HOUR);
    }
    const del = (ip: string) =>
      t.http.delete(`${API}/me/blocked-ips/${encodeURIComponent(ip)}`).set(withSession(owner.cookie));
    const res = await del('2001:db8:9:9::/64').expect(200);
    expect(res.body).toEqual({ ok: true });
    expect(await isBlocked('2001:db8:9:9::1')).toBe(false);
    expect((await blocked()).items).toEqual([]);
    const [line] = await rows(t, "SELECT text, actor FROM events WHERE kind = 'address_unblocked'");
    expect(line).toEqual({ text: '2001:0db8:0009:0009::/64 unblocked', actor: 'owner' });
    // Its history went with it: the next block is an hour, not the third of the day.
    for (let i = 1; i <= 5; i++) await wrong(`2001:db8:9:9::${i}`);
    expect((await blocked()).items[0]).toMatchObject({ reason: 'failures' });
    await del('2001:db8:9:9:1234::1').expect(200);
    await del('2001:db8:9:9:1234::1').expect(404);
    await failTimes('203.0.113.50', 5);
    await del('203.0.113.50').expect(200);
  });

  it.each([
    ['not an address', 'not-an-ip'],
    ['an IPv6 /48', '2001:db8:1::/48'],
    ['an IPv4 with a prefix', '203.0.113.0/24'],
  ])('refuses to unblock %s: 422 on ip', async (_, ip) => {
    const res = await t.http
      .delete(`${API}/me/blocked-ips/${encodeURIComponent(ip)}`)
      .set(withSession(owner.cookie))
      .expect(422);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'ip' });
  });

  it('lets an admin key list blocked addresses, never unblock; read and write keys not even list', async () => {
    await failTimes('203.0.113.77', 5);
    const admin = await createKey(t, owner.cookie, 'admin');
    const list = await t.http.get(`${API}/me/blocked-ips`).set(bearer(admin)).expect(200);
    expect(list.body.items).toEqual([expect.objectContaining({ ip: '203.0.113.77' })]);
    for (const scope of ['read', 'write'] as const) {
      const key = await createKey(t, owner.cookie, scope);
      expect((await t.http.get(`${API}/me/blocked-ips`).set(bearer(key)).expect(403)).body.error.code).toBe(
        'forbidden',
      );
    }
    expect(
      (await t.http.delete(`${API}/me/blocked-ips/203.0.113.77`).set(bearer(admin)).expect(403)).body.error.code,
    ).toBe('forbidden');
    await t.http.get(`${API}/me/blocked-ips`).expect(401);
    expect(await isBlocked('203.0.113.77')).toBe(true);
  });

  it('asks for a step-up before unblocking, 12 hours after sign-in', async () => {
    await failTimes('203.0.113.78', 5);
    t.clock.advance(12 * HOUR + 1);
    await t.db.query('UPDATE address_blocks SET blocked_until = ?', [t.clock.now() + HOUR]);
    const res = await t.http.delete(`${API}/me/blocked-ips/203.0.113.78`).set(withSession(owner.cookie)).expect(403);
    expect(res.body.error.code).toBe('step_up');
    // The list needs no step-up.
    await t.http.get(`${API}/me/blocked-ips`).set('Cookie', owner.cookie).expect(200);
  });

  it('pages the list, newest block first', async () => {
    for (const ip of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) await failTimes(ip, 5);
    const first = await t.http.get(`${API}/me/blocked-ips?limit=2`).set('Cookie', owner.cookie).expect(200);
    expect(first.body.items.map((b: { ip: string }) => b.ip)).toEqual(['192.0.2.3', '192.0.2.2']);
    const second = await t.http
      .get(`${API}/me/blocked-ips?limit=2&before=${first.body.next_cursor}`)
      .set('Cookie', owner.cookie)
      .expect(200);
    expect(second.body).toEqual({ items: [expect.objectContaining({ ip: '192.0.2.1' })], next_cursor: null });
    await t.http.get(`${API}/me/blocked-ips?limit=0`).set('Cookie', owner.cookie).expect(422);
  });
});

describe('sign-in throttle across a restart', () => {
  it('keeps a block when the service restarts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-throttle-'));
    const clock = new FakeClock(Date.UTC(2026, 10, 1, 12));
    let t = await startApp(TRUST_LOOPBACK, { dataDir, clock });
    try {
      await createOwner(t);
      for (let i = 0; i < 5; i++)
        await passwordStep(t, { password: 'this is a wrong guess' }, '203.0.113.200').expect(401);
      await t.close();
      t = await startApp(TRUST_LOOPBACK, { dataDir, clock });
      clock.advance(30 * MIN);
      expect((await passwordStep(t, {}, '203.0.113.200').expect(401)).body).toEqual(WRONG_PASSWORD);
      await passwordStep(t, {}, '203.0.113.201').expect(200);
      clock.advance(30 * MIN);
      await passwordStep(t, {}, '203.0.113.200').expect(200);
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
