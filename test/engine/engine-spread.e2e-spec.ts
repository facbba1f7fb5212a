/**
 * Monitors created together are not checked together forever (issue 42): a bulk create or an
 * import checks each new monitor at once, and puts its next checks on its own phase of the
 * interval, as a start spreads them. A single create keeps its cadence from the moment it was made.
 */
import { bearer, createKey } from '../support/app';
import { EngineHarness, startEngineHarness } from '../support/engine-harness';
import { httpMonitor } from '../support/monitors';

const N = 40;
const INTERVAL_S = 20;

describe('checks of monitors created together are spread', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await startEngineHarness();
  });
  afterEach(() => h.close());

  const items = () =>
    Array.from({ length: N }, (_, i) =>
      httpMonitor({ name: `Svc ${i}`, interval_s: INTERVAL_S }, { url: `${h.target.url}?n=${i}` }),
    );

  it('after a bulk create: the next checks fall spread over the interval, each monitor once per interval', async () => {
    const res = await h.t.http
      .post('/api/v1/monitors/bulk')
      .set(bearer(h.write))
      .send({ monitors: items(), dry_run: false })
      .expect(200);
    expect(res.body.created).toHaveLength(N);
    const per = await hitsPerSecond(h);
    expect(per.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(N * 1.5);
    // Together, all 40 would fall in one second of each interval: spread, no second holds more than twice its share.
    expect(Math.max(...per)).toBeLessThanOrEqual((2 * N) / INTERVAL_S);
    expect(per.filter((n) => n > 0).length).toBeGreaterThanOrEqual(INTERVAL_S);
  });

  it('after an import: the same', async () => {
    const doc = { service_export: 1, monitors: items(), channels: [], status_page: {}, dry_run: false };
    await h.t.http
      .post('/api/v1/import')
      .set(bearer(await createKey(h.t, h.cookie, 'admin', 'admin')))
      .send(doc)
      .expect(200);
    const per = await hitsPerSecond(h);
    expect(Math.max(...per)).toBeLessThanOrEqual((2 * N) / INTERVAL_S);
  });

  it('a single create keeps its cadence: checked at once, then every interval from then', async () => {
    const m = (
      await h.t.http
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(httpMonitor({ interval_s: INTERVAL_S }, { url: h.target.url }))
        .expect(201)
    ).body;
    await h.advance(0);
    expect(h.engine.dueOf(m.id)).toBe(h.t.clock.now() + INTERVAL_S * 1000);
  });
});

describe('checks of monitors created or resumed one request each, in a burst, are spread', () => {
  let h: EngineHarness;
  beforeEach(async () => {
    h = await startEngineHarness();
  });
  afterEach(() => h.close());

  it('a script creating 40 monitors one POST each: the ones past the first four fall spread', async () => {
    for (let i = 0; i < N; i++) {
      await h.t.http
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(httpMonitor({ name: `Svc ${i}`, interval_s: INTERVAL_S }, { url: `${h.target.url}?n=${i}` }))
        .expect(201);
    }
    const per = await hitsPerSecond(h);
    expect(Math.max(...per)).toBeLessThanOrEqual((2 * N) / INTERVAL_S + 4);
  });

  it('resuming 40 paused monitors one request each (the dashboard’s bulk resume): the same', async () => {
    // Made paused, one every 3 s: no burst, nothing to spread yet.
    const ids: number[] = [];
    for (let i = 0; i < N; i++) {
      const m = await h.t.http
        .post('/api/v1/monitors')
        .set(bearer(h.write))
        .send(
          httpMonitor({ name: `Svc ${i}`, interval_s: INTERVAL_S, paused: true }, { url: `${h.target.url}?n=${i}` }),
        )
        .expect(201);
      ids.push(m.body.id as number);
      await h.advance(3_000);
    }
    expect(h.target.hits).toBe(0);
    for (const id of ids) await h.t.http.post(`/api/v1/monitors/${id}/resume`).set(bearer(h.write)).expect(200);
    const per = await hitsPerSecond(h);
    expect(Math.max(...per)).toBeLessThanOrEqual((2 * N) / INTERVAL_S + 4);
  });
});

/** Hits at the target in each second over two intervals after the first checks (each monitor checked once, at once). */
async function hitsPerSecond(h: EngineHarness): Promise<number[]> {
  await h.advance(0);
  expect(h.target.hits).toBe(N);
  const per: number[] = [];
  for (let s = 0; s < 2 * INTERVAL_S; s++) {
    const before = h.target.hits;
    await h.advance(1_000);
    per.push(h.target.hits - before);
  }
  return per;
}
