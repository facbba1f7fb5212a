/**
 * Channel changes on the timeline (issue 42, item 4): creating, changing, disabling and deleting a
 * channel each leave a line with who did it, through API keys and the owner's session alike, and
 * no line carries a secret of the channel.
 */
import { bearer, createKey, createOwner, ORIGIN, startApp, TestApp } from '../support/app';

const SECRET = 'timeline-signing-secret-0001';
const NEW_SECRET = 'timeline-signing-secret-0002';
const HEADER = 'timeline-header-secret-0003';
const URL_PATH = 'hook-path-secret-0004';
const CHAT_URL = 'https://chat.example/hooks/chat-url-secret-0005';
const SECRETS = [SECRET, NEW_SECRET, HEADER, URL_PATH, 'chat-url-secret-0005'];

interface Line {
  kind: string;
  actor: string;
  text: string;
  monitor_id: number | null;
  data: Record<string, unknown> | null;
}

describe('channel changes on the timeline', () => {
  let t: TestApp;
  let session: Record<string, string>;
  let admin: Record<string, string>;
  let write: Record<string, string>;
  let read: Record<string, string>;

  beforeEach(async () => {
    t = await startApp();
    const owner = await createOwner(t);
    session = { Cookie: owner.cookie, Origin: ORIGIN };
    admin = bearer(await createKey(t, owner.cookie, 'admin', 'ops admin'));
    write = bearer(await createKey(t, owner.cookie, 'write', 'deploy bot'));
    read = bearer(await createKey(t, owner.cookie, 'read'));
  });
  afterEach(async () => t.close());

  const channelLines = async (): Promise<Line[]> => {
    const res = await t.http
      .get('/api/v1/events?kind=channel_created,channel_updated,channel_deleted&limit=500')
      .set(read)
      .expect(200);
    // Not in the lines, nor anywhere else in the answer.
    for (const s of SECRETS) expect(res.text).not.toContain(s);
    return (res.body.items as Line[]).reverse();
  };
  const webhook = (over: Record<string, unknown> = {}) => ({
    kind: 'webhook',
    name: 'Ops hook',
    config: { url: `http://127.0.0.1:9/${URL_PATH}`, secret: SECRET, headers: [{ name: 'X-Auth', value: HEADER }] },
    ...over,
  });

  it('records every change made with API keys, naming the key, the fields and never a secret', async () => {
    const c = (await t.http.post('/api/v1/channels').set(admin).send(webhook()).expect(201)).body;
    // A write key may change name, enabled and events: it can silence alerting, so each leaves a line.
    await t.http
      .patch(`/api/v1/channels/${c.id}`)
      .set(write)
      .send({ events: ['down'] })
      .expect(200);
    await t.http.patch(`/api/v1/channels/${c.id}`).set(write).send({ enabled: false }).expect(200);
    await t.http.patch(`/api/v1/channels/${c.id}`).set(write).send({ enabled: true, name: 'Pager' }).expect(200);
    await t.http
      .patch(`/api/v1/channels/${c.id}`)
      .set(admin)
      .send({ config: { url: '********', secret: NEW_SECRET, headers: [{ name: 'X-Auth', value: '********' }] } })
      .expect(200);
    await t.http.delete(`/api/v1/channels/${c.id}`).set(admin).expect(200);

    const lines = await channelLines();
    expect(lines.map((l) => [l.kind, l.actor, l.text, l.monitor_id])).toEqual([
      ['channel_created', 'key:ops admin', 'channel "Ops hook" created (webhook)', null],
      ['channel_updated', 'key:deploy bot', 'channel "Ops hook" changed: events', null],
      [
        'channel_updated',
        'key:deploy bot',
        'channel "Ops hook" disabled: it sends no alerts until enabled again',
        null,
      ],
      ['channel_updated', 'key:deploy bot', 'channel "Pager" (was "Ops hook") enabled; changed: name', null],
      ['channel_updated', 'key:ops admin', 'channel "Pager" changed: config.secret (secret changed)', null],
      ['channel_deleted', 'key:ops admin', 'channel "Pager" deleted (webhook)', null],
    ]);
    expect(lines.map((l) => l.data)).toEqual([
      { channel_id: c.id, channel_kind: 'webhook' },
      { channel_id: c.id, fields: ['events'] },
      { channel_id: c.id, fields: ['enabled'], enabled: false },
      { channel_id: c.id, fields: ['enabled', 'name'], enabled: true },
      { channel_id: c.id, fields: ['config.secret'] },
      { channel_id: c.id, channel_kind: 'webhook' },
    ]);
  });

  it("records the owner's changes through the session as the owner", async () => {
    const c = (
      await t.http
        .post('/api/v1/channels')
        .set(session)
        .send({ kind: 'chat', name: 'Chat', enabled: false, config: { url: CHAT_URL } })
        .expect(201)
    ).body;
    await t.http
      .patch(`/api/v1/channels/${c.id}`)
      .set(session)
      .send({ enabled: true, config: { url: `${CHAT_URL}-moved` } })
      .expect(200);
    await t.http.delete(`/api/v1/channels/${c.id}`).set(session).set('Content-Type', 'application/json').expect(200);
    expect((await channelLines()).map((l) => [l.kind, l.actor, l.text])).toEqual([
      ['channel_created', 'owner', 'channel "Chat" created (chat), disabled'],
      ['channel_updated', 'owner', 'channel "Chat" enabled; changed: config.url (secret changed)'],
      ['channel_deleted', 'owner', 'channel "Chat" deleted (chat)'],
    ]);
  });

  it('leaves no line for a change that changes nothing, nor for a refused one', async () => {
    const c = (await t.http.post('/api/v1/channels').set(admin).send(webhook()).expect(201)).body;
    await t.http.patch(`/api/v1/channels/${c.id}`).set(write).send({ name: 'Ops hook', enabled: true }).expect(200);
    await t.http
      .patch(`/api/v1/channels/${c.id}`)
      .set(admin)
      .send({ config: { url: '********', secret: '********', headers: [{ name: 'X-Auth', value: '********' }] } })
      .expect(200);
    await t.http
      .patch(`/api/v1/channels/${c.id}`)
      .set(write)
      .send({ config: { url: '********', secret: NEW_SECRET, headers: [] } })
      .expect(403);
    await t.http.patch(`/api/v1/channels/${c.id}`).set(write).send({ enabled: 'no' }).expect(422);
    await t.http.delete(`/api/v1/channels/${c.id}`).set(write).expect(403);
    expect((await channelLines()).map((l) => l.kind)).toEqual(['channel_created']);
  });

  it('records the channels an import creates and changes, with who imported', async () => {
    const doc = (channels: unknown[]) => ({
      service_export: 1,
      monitors: [],
      channels,
      status_page: {},
      dry_run: false,
    });
    const imported = {
      kind: 'webhook',
      name: 'Imported',
      enabled: true,
      events: ['down', 'up'],
      config: { url: `http://127.0.0.1:9/${URL_PATH}`, secret: SECRET, headers: [] },
    };
    await t.http
      .post('/api/v1/import')
      .set(admin)
      .send(doc([imported]))
      .expect(200);
    await t.http
      .post('/api/v1/import')
      .set(admin)
      .send(doc([{ ...imported, enabled: false }]))
      .expect(200);
    expect((await channelLines()).map((l) => [l.kind, l.actor, l.text])).toEqual([
      ['channel_created', 'key:ops admin', 'channel "Imported" created (webhook)'],
      ['channel_updated', 'key:ops admin', 'channel "Imported" disabled: it sends no alerts until enabled again'],
    ]);
  });
});
