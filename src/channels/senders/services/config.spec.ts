import { keepSecrets, maskSecrets } from '../../../common/secrets/secret-fields';
import { sameReceiver } from '../../channel-body';
import type { ChannelKind } from '../../channel-kind';
import { senderOf } from '../registry';

const TG = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1';
const PO_USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const PO_APP = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const PD = 'R0123456789abcdefghijklmnopqrstu';
const HA = 'eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJmYXJzaWdodCJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
const NTFY = 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz9';

const parse = (kind: ChannelKind, raw: unknown) => senderOf(kind).parseConfig(raw);
const fieldsOf = (kind: ChannelKind, raw: unknown): string[] => {
  const r = parse(kind, raw);
  return r.ok ? [] : r.errors.map((e) => e.field);
};

describe('service configs', () => {
  it.each<[ChannelKind, unknown, unknown]>([
    ['ntfy', { topic: 'alerts' }, { server: 'https://ntfy.sh', topic: 'alerts', token: null }],
    [
      'ntfy',
      { server: 'http://ntfy.lan/', topic: 'a_b-1', token: NTFY },
      { server: 'http://ntfy.lan', topic: 'a_b-1', token: NTFY },
    ],
    [
      'gotify',
      { server: 'https://push.lan/gotify', token: 'AaBbCcDd.Ee-F_1' },
      { server: 'https://push.lan/gotify', token: 'AaBbCcDd.Ee-F_1' },
    ],
    [
      'telegram',
      { bot_token: TG, chat_id: -1001234567890 },
      { bot_token: TG, chat_id: '-1001234567890', api_base: 'https://api.telegram.org' },
    ],
    [
      'telegram',
      { bot_token: TG, chat_id: '@farsight_alerts' },
      { bot_token: TG, chat_id: '@farsight_alerts', api_base: 'https://api.telegram.org' },
    ],
    [
      'pushover',
      { user_key: PO_USER, app_token: PO_APP, device: 'phone,tablet' },
      { user_key: PO_USER, app_token: PO_APP, device: 'phone,tablet' },
    ],
    [
      'matrix',
      { homeserver: 'https://matrix.org', access_token: 'syt_abcdefgh', room_id: '!AbCd:matrix.org' },
      { homeserver: 'https://matrix.org', access_token: 'syt_abcdefgh', room_id: '!AbCd:matrix.org' },
    ],
    ['pagerduty', { routing_key: PD }, { routing_key: PD }],
    [
      'home-assistant',
      { url: 'http://homeassistant.local:8123', token: HA, service: 'notify.mobile_app_phone' },
      { url: 'http://homeassistant.local:8123', token: HA, service: 'notify.mobile_app_phone' },
    ],
    [
      'apprise',
      { url: 'http://apprise:8000/notify/abc', tags: 'phones, ops' },
      { url: 'http://apprise:8000/notify/abc', tags: 'phones, ops' },
    ],
  ])('%s accepts %j', (kind, raw, config) => {
    expect(parse(kind, raw)).toEqual({ ok: true, config });
  });

  it.each<[ChannelKind, unknown, string[]]>([
    ['ntfy', {}, ['config.topic']],
    ['ntfy', { topic: 'has space' }, ['config.topic']],
    ['ntfy', { topic: 'a', token: 'secret123' }, ['config.token']],
    ['ntfy', { topic: 'a', server: 'ftp://ntfy.lan' }, ['config.server']],
    ['ntfy', { topic: 'a', server: 'https://ntfy.lan/?x=1' }, ['config.server']],
    ['ntfy', { topic: 'a', priority: 5 }, ['config.priority']],
    ['gotify', { server: 'https://g.lan' }, ['config.token']],
    ['gotify', { server: 'https://g.lan', token: 'Cshortclient' }, ['config.token']],
    ['gotify', { token: 'AaBbCcDd.Ee-F_1' }, ['config.server']],
    ['telegram', { bot_token: 'nope', chat_id: '1' }, ['config.bot_token']],
    ['telegram', { bot_token: TG, chat_id: 'my group' }, ['config.chat_id']],
    ['telegram', { bot_token: TG, chat_id: 1.5 }, ['config.chat_id']],
    ['telegram', { bot_token: TG, chat_id: '1', api_base: 'https://u:p@tg.lan' }, ['config.api_base']],
    ['pushover', { user_key: 'short', app_token: PO_APP }, ['config.user_key']],
    ['pushover', { user_key: PO_USER }, ['config.app_token']],
    ['pushover', { user_key: PO_USER, app_token: PO_APP, device: 'my phone' }, ['config.device']],
    [
      'matrix',
      { homeserver: 'https://m.org', access_token: 'syt_abcdefgh', room_id: '#alerts:m.org' },
      ['config.room_id'],
    ],
    [
      'matrix',
      { homeserver: 'https://m.org', access_token: 'has space in it', room_id: '!a:m.org' },
      ['config.access_token'],
    ],
    ['pagerduty', { routing_key: 'abc' }, ['config.routing_key']],
    ['pagerduty', {}, ['config.routing_key']],
    ['home-assistant', { url: 'http://ha.lan', token: HA, service: 'light.turn_on' }, ['config.service']],
    ['home-assistant', { url: 'http://ha.lan', token: 'abc', service: 'notify.x' }, ['config.token']],
    ['apprise', { url: 'apprise://x' }, ['config.url']],
    ['apprise', { url: 'http://a/notify/k', tags: 'a;b' }, ['config.tags']],
    ['apprise', 'http://a/notify/k', ['config']],
  ])('%s refuses %j at %j', (kind, raw, fields) => {
    expect(fieldsOf(kind, raw)).toEqual(fields);
  });

  it.each<[ChannelKind, Record<string, unknown>, Record<string, unknown>, string | null]>([
    // ******** keeps a secret while the server stays; a new server needs it again (rule 2).
    [
      'ntfy',
      { server: 'https://n.lan', topic: 'a', token: NTFY },
      { server: 'https://n.lan', topic: 'b', token: '********' },
      null,
    ],
    [
      'ntfy',
      { server: 'https://n.lan', topic: 'a', token: NTFY },
      { server: 'https://evil.example', topic: 'a', token: '********' },
      'config.token',
    ],
    [
      'telegram',
      { bot_token: TG, chat_id: '1', api_base: 'https://api.telegram.org' },
      { bot_token: '********', chat_id: '2' },
      null,
    ],
    [
      'telegram',
      { bot_token: TG, chat_id: '1', api_base: 'https://api.telegram.org' },
      { bot_token: '********', chat_id: '1', api_base: 'https://tg.evil' },
      'config.bot_token',
    ],
    [
      'matrix',
      { homeserver: 'https://m.org', access_token: 'syt_abcdefgh', room_id: '!a:m.org' },
      { homeserver: 'https://m2.org', access_token: '********', room_id: '!a:m.org' },
      'config.access_token',
    ],
    [
      'home-assistant',
      { url: 'http://ha.lan', token: HA, service: 'notify.a' },
      { url: 'http://ha2.lan', token: '********', service: 'notify.a' },
      'config.token',
    ],
    // A fixed address: the keys stay with any change.
    [
      'pushover',
      { user_key: PO_USER, app_token: PO_APP, device: null },
      { user_key: '********', app_token: '********', device: 'phone' },
      null,
    ],
    ['pagerduty', { routing_key: PD }, { routing_key: '********' }, null],
  ])('%s: keeping %j -> %j errs at %s', (kind, stored, body, field) => {
    const r = parse(kind, body);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const next = r.config as Record<string, unknown>;
    const errors = keepSecrets(next, stored, senderOf(kind).secrets, sameReceiver(senderOf(kind)), 'config');
    expect(errors.map((e) => e.field)).toEqual(field ? [field] : []);
    if (!field) for (const s of senderOf(kind).secrets) expect(next[s.path]).toBe(stored[s.path]);
  });

  it('masks every secret of every service kind in answers', () => {
    const shown = maskSecrets({ user_key: PO_USER, app_token: PO_APP, device: null }, senderOf('pushover').secrets);
    expect(shown).toEqual({ user_key: '********', app_token: '********', device: null });
  });
});
