/**
 * The status page fed by the real engine: an http monitor on 127.0.0.1 goes down and comes back
 * through real checks; the public page follows (status, overall, the open and then the recent
 * incident, today's bar) from the rows the engine wrote, and shows nothing of the target or its
 * errors.
 */
import { bearer } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { httpMonitor } from '../support/monitors';

describe('the status page over real checks', () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await startEngineHarness();
  });
  afterEach(async () => h.close());

  const status = async (range = '24h') => (await h.t.http.get(`/api/public/status?range=${range}`).expect(200)).body;

  it('follows a monitor down and back up, from what the engine wrote', async () => {
    const w = bearer(h.write);
    const m = (
      await h.t.http
        .post('/api/v1/monitors')
        .set(w)
        .send(
          httpMonitor(
            { name: 'Backend at 127.0.0.1', public: true, public_name: 'Shop', confirm_after: 2, retry_interval_s: 10 },
            { url: h.target.url },
          ),
        )
        .expect(201)
    ).body;
    await h.advance(0);
    await h.writer.flush();
    expect((await status()).overall).toBe('operational');

    h.target.status = 500;
    await h.advance(60_000);
    await h.advance(10_000);
    await h.writer.flush();
    h.t.clock.advance(30_000); // past the page cache
    const down = await status();
    expect(down.overall).toBe('major_outage');
    expect(down.groups[0].services[0]).toMatchObject({ name: 'Shop', page: '/status/shop', status: 'down' });
    expect(down.incidents.open).toEqual([
      {
        name: 'Shop',
        page: '/status/shop',
        started_at: expect.any(String),
        ended_at: null,
        duration_ms: expect.any(Number),
      },
    ]);
    const text =
      JSON.stringify(down) +
      (await h.t.http.get('/status').expect(200)).text +
      (await h.t.http.get('/status/shop').expect(200)).text;
    for (const secret of ['127.0.0.1', String(new URL(h.target.url).port), 'Backend', 'expected 200', 'status code']) {
      expect([secret, text.includes(secret)]).toEqual([secret, false]);
    }

    h.target.status = 200;
    await h.advance(10_000);
    await h.writer.flush();
    h.t.clock.advance(30_000);
    const up = await status();
    expect(up.overall).toBe('operational');
    expect(up.incidents.open).toEqual([]);
    expect(up.incidents.recent).toHaveLength(1);
    expect(up.summary.incidents).toBe(1);
    const today = up.groups[0].services[0].bars[23];
    expect(today.down_ms).toBeGreaterThan(0);
    expect(['warn', 'bad']).toContain(today.state);
    expect(m.id).toBeGreaterThan(0);
  });
});
