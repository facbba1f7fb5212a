/**
 * Offline detection of probe locations (docs/agents.md, "Contact"), on the real app with a fake
 * clock: an agent in contact is online; after a minute of silence (its monitors' shortest
 * interval is shorter than 20 s) it is offline, with a `location` timeline line committed before
 * the owner's notice goes out, and its votes stop counting; its next contact brings it back.
 */
import { bearer, createKey, createOwner, ORIGIN, startApp, TestApp } from '../support/app';
import { httpMonitor } from '../support/monitors';
import { LocationBook } from '../../src/locations/location-book';
import { EventBus } from '../../src/events/event-bus';
import { EngineService } from '../../src/engine/engine.service';

describe('location offline detection', () => {
  let t: TestApp;
  let read: string;
  let token: string;
  let book: LocationBook;
  const notices: string[] = [];

  beforeEach(async () => {
    t = await startApp();
    const { cookie } = await createOwner(t);
    read = await createKey(t, cookie, 'read');
    const write = await createKey(t, cookie, 'write');
    const res = await t.http
      .post('/api/v1/locations')
      .set({ Cookie: cookie, Origin: ORIGIN, 'Content-Type': 'application/json' })
      .send({ name: 'vps' })
      .expect(201);
    token = res.body.token;
    await t.http
      .post('/api/v1/monitors')
      .set(bearer(write))
      .send(httpMonitor({ locations: ['local', 'vps'], interval_s: 10, retry_interval_s: 10 }))
      .expect(201);
    book = t.app.get(LocationBook);
    notices.length = 0;
    t.app.get(EventBus).on('notice', ({ message }) => notices.push(message));
  });
  afterEach(async () => t.close());

  const contact = () => t.http.get('/api/agent/config?wait_s=0').set(bearer(token)).expect(200);
  const state = async () => (await t.http.get('/api/v1/locations').set(bearer(read)).expect(200)).body.items[0].state;
  const lines = async () =>
    (await t.http.get('/api/v1/events?kind=location').set(bearer(read)).expect(200)).body.items as {
      text: string;
      data: { online: boolean };
    }[];

  it('is never, then online on contact, offline after 60 s of silence with a line and a notice, and back', async () => {
    expect(await state()).toBe('never');
    await contact();
    expect(await state()).toBe('online');
    expect(t.app.get(EngineService).votes.isOnline('vps')).toBe(true);

    t.clock.advance(59_000);
    await book.sweep();
    expect(await state()).toBe('online');
    expect(await lines()).toEqual([]);

    t.clock.advance(1_000);
    await book.sweep();
    expect(await state()).toBe('offline');
    expect(t.app.get(EngineService).votes.isOnline('vps')).toBe(false);
    const offline = await lines();
    expect(offline).toHaveLength(1);
    expect(offline[0].data.online).toBe(false);
    expect(offline[0].text).toContain('Location "vps" is offline');
    expect(notices).toEqual([offline[0].text]);

    // A second sweep says nothing new.
    await book.sweep();
    expect(await lines()).toHaveLength(1);

    await contact();
    expect(await state()).toBe('online');
    const back = await lines();
    expect(back).toHaveLength(2);
    expect(back[0].data.online).toBe(true);
    expect(notices).toHaveLength(2);
  });
});
