import { ChannelLine, channelChangedLine, channelCreatedLine, channelDeletedLine } from './channel-lines';
import type { Channel } from './channel-body';
import { WEBHOOK_SECRETS } from './senders/webhook';
import { CHAT_SECRETS } from './senders/chat';

const SECRET = 'a-long-signing-secret-0123456789';
const hook = (over: Partial<Channel> = {}, config: Record<string, unknown> = {}): Channel => ({
  id: 7,
  kind: 'webhook',
  name: 'Ops hook',
  enabled: true,
  events: ['down', 'up'],
  config: {
    url: 'https://hooks.example/in',
    secret: SECRET,
    headers: [{ name: 'X-Auth', value: 'header-secret-value' }],
    ...config,
  },
  created_at: 0,
  updated_at: 0,
  ...over,
});

/** Every secret value a test uses: none may reach a line's text or data. */
const SECRETS = [
  SECRET,
  'header-secret-value',
  'hooks.example',
  'new-signing-secret-0123456789',
  'other-header-value',
  'hooks.other',
  'T000/B000',
];
function expectNoSecret(line: ChannelLine | null): void {
  const text = JSON.stringify(line);
  for (const s of SECRETS) expect(text).not.toContain(s);
}

describe('channelCreatedLine / channelDeletedLine', () => {
  it.each<[string, Channel, ChannelLine]>([
    [
      'an enabled channel',
      hook(),
      {
        kind: 'channel_created',
        text: 'channel "Ops hook" created (webhook)',
        data: { channel_id: 7, channel_kind: 'webhook' },
      },
    ],
    [
      'a channel created disabled says so',
      hook({ enabled: false }),
      {
        kind: 'channel_created',
        text: 'channel "Ops hook" created (webhook), disabled',
        data: { channel_id: 7, channel_kind: 'webhook', enabled: false },
      },
    ],
  ])('%s', (_, c, want) => {
    const line = channelCreatedLine(c);
    expect(line).toEqual(want);
    expectNoSecret(line);
  });

  it('names the deleted channel and its kind, never its config', () => {
    const line = channelDeletedLine(hook());
    expect(line).toEqual({
      kind: 'channel_deleted',
      text: 'channel "Ops hook" deleted (webhook)',
      data: { channel_id: 7, channel_kind: 'webhook' },
    });
    expectNoSecret(line);
  });
});

describe('channelChangedLine', () => {
  it.each<[string, Channel, Channel, string | null, Record<string, unknown> | null]>([
    ['nothing changed: no line', hook(), hook({ updated_at: 5 }), null, null],
    [
      'the same config in another key order: no line',
      hook(),
      hook({}, { headers: [{ value: 'header-secret-value', name: 'X-Auth' }] }),
      null,
      null,
    ],
    [
      'events',
      hook(),
      hook({ events: ['down'] }),
      'channel "Ops hook" changed: events',
      { channel_id: 7, fields: ['events'] },
    ],
    [
      'a rename names the old name',
      hook(),
      hook({ name: 'Pager' }),
      'channel "Pager" (was "Ops hook") changed: name',
      { channel_id: 7, fields: ['name'] },
    ],
    [
      'disabled',
      hook(),
      hook({ enabled: false }),
      'channel "Ops hook" disabled: it sends no alerts until enabled again',
      { channel_id: 7, fields: ['enabled'], enabled: false },
    ],
    [
      'enabled',
      hook({ enabled: false }),
      hook(),
      'channel "Ops hook" enabled',
      { channel_id: 7, fields: ['enabled'], enabled: true },
    ],
    [
      'disabled with other changes in the same request',
      hook(),
      hook({ enabled: false, events: ['down'] }),
      'channel "Ops hook" disabled: it sends no alerts until enabled again; changed: events',
      { channel_id: 7, fields: ['enabled', 'events'], enabled: false },
    ],
    [
      'the signing secret',
      hook(),
      hook({}, { secret: 'new-signing-secret-0123456789' }),
      'channel "Ops hook" changed: config.secret (secret changed)',
      { channel_id: 7, fields: ['config.secret'] },
    ],
    [
      'the URL (a secret of a webhook)',
      hook(),
      hook({}, { url: 'https://hooks.other/in' }),
      'channel "Ops hook" changed: config.url (secret changed)',
      { channel_id: 7, fields: ['config.url'] },
    ],
    [
      'a header value',
      hook(),
      hook({}, { headers: [{ name: 'X-Auth', value: 'other-header-value' }] }),
      'channel "Ops hook" changed: config.headers (secret changed)',
      { channel_id: 7, fields: ['config.headers'] },
    ],
    [
      'a header renamed, its value kept',
      hook(),
      hook({}, { headers: [{ name: 'X-Key', value: 'header-secret-value' }] }),
      'channel "Ops hook" changed: config.headers',
      { channel_id: 7, fields: ['config.headers'] },
    ],
    [
      'several at once, in the order of monitor lines (by name)',
      hook(),
      hook(
        { name: 'Pager', events: ['down'] },
        { url: 'https://hooks.other/in', secret: 'new-signing-secret-0123456789' },
      ),
      'channel "Pager" (was "Ops hook") changed: config.secret (secret changed), config.url (secret changed), events, name',
      { channel_id: 7, fields: ['config.secret', 'config.url', 'events', 'name'] },
    ],
  ])('%s', (_, before, after, text, data) => {
    const line = channelChangedLine(before, after, WEBHOOK_SECRETS);
    expect(line && { text: line.text, data: line.data }).toEqual(text === null ? null : { text, data });
    if (line) expect(line.kind).toBe('channel_updated');
    expectNoSecret(line);
  });

  it('says a chat URL changed without showing either URL', () => {
    const chat = (url: string): Channel => ({ ...hook(), kind: 'chat', config: { url, format: 'auto' } });
    const line = channelChangedLine(
      chat('https://hooks.slack.com/services/T000/B000/aaa'),
      chat('https://hooks.slack.com/services/T000/B000/bbb'),
      CHAT_SECRETS,
    );
    expect(line?.text).toBe('channel "Ops hook" changed: config.url (secret changed)');
    expectNoSecret(line);
  });

  it("names an email channel's recipients as a field, not a secret", () => {
    const mail = (to: string[]): Channel => ({ ...hook(), kind: 'email', config: { to } });
    expect(channelChangedLine(mail(['a@example.com']), mail(['b@example.com']), [])?.text).toBe(
      'channel "Ops hook" changed: config.to',
    );
  });
});
