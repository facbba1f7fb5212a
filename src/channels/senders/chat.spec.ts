import { maskSecrets } from '../../common/secrets/secret-fields';
import { chatFormatOf, chatSender } from './chat';

describe('chat config', () => {
  const parse = (config: unknown) => chatSender.parseConfig(config);

  it.each<[unknown, object]>([
    [
      { url: 'https://hooks.slack.com/services/T0/B0/abc' },
      { url: 'https://hooks.slack.com/services/T0/B0/abc', format: 'auto' },
    ],
    [
      { url: 'http://192.168.1.10:8065/hooks/abc', format: 'chat' },
      { url: 'http://192.168.1.10:8065/hooks/abc', format: 'chat' },
    ],
    [
      { url: 'https://proxy.lan/discord/1/abc', format: 'discord' },
      { url: 'https://proxy.lan/discord/1/abc', format: 'discord' },
    ],
    [
      { url: '********', format: 'auto' },
      { url: '********', format: 'auto' },
    ],
  ])('takes %j', (config, want) => {
    expect(parse(config)).toEqual({ ok: true, config: want });
  });

  it.each<[string, unknown, { field: string; message: string }[]]>([
    ['no url', {}, [{ field: 'config.url', message: 'must be a URL starting with https:// or http://' }]],
    [
      'a url that is not one',
      { url: 'hooks.slack.com/x' },
      [{ field: 'config.url', message: 'must be a URL starting with https:// or http://' }],
    ],
    [
      'another scheme',
      { url: 'ftp://example.com/x' },
      [{ field: 'config.url', message: 'must start with https:// or http://' }],
    ],
    [
      'credentials in the url',
      { url: 'https://u:p@chat.lan/hooks/x' },
      [{ field: 'config.url', message: 'must not carry a user name or password' }],
    ],
    [
      'a fragment',
      { url: 'https://chat.lan/hooks/x#y' },
      [{ field: 'config.url', message: 'must not have a #fragment (it is never sent)' }],
    ],
    [
      'a space',
      { url: 'https://chat.lan/hooks/x y' },
      [{ field: 'config.url', message: 'must not contain spaces or control characters' }],
    ],
    [
      'a long url',
      { url: `https://chat.lan/${'a'.repeat(2100)}` },
      [{ field: 'config.url', message: 'must be at most 2048 characters' }],
    ],
    [
      'an unknown format',
      { url: 'https://chat.lan/x', format: 'irc' },
      [{ field: 'config.format', message: 'must be one of auto, slack, discord, teams, google-chat, chat' }],
    ],
    [
      'an unknown field',
      { url: 'https://chat.lan/x', channel: '#ops' },
      [{ field: 'config.channel', message: 'unknown field (allowed: url, format)' }],
    ],
  ])('refuses %s', (_, config, errors) => {
    expect(parse(config)).toEqual({ ok: false, errors });
  });

  it('masks the url in answers', () => {
    expect(
      maskSecrets({ url: 'https://hooks.slack.com/services/T0/B0/abc', format: 'auto' }, chatSender.secrets),
    ).toEqual({ url: '********', format: 'auto' });
  });

  it.each([
    [{ url: 'https://discord.com/api/webhooks/1/a', format: 'auto' as const }, 'discord'],
    [{ url: 'https://discord.com/api/webhooks/1/a', format: 'slack' as const }, 'slack'],
    [{ url: 'https://chat.lan/x', format: 'auto' as const }, 'chat'],
  ])('sends %j as %s', (config, format) => {
    expect(chatFormatOf(config)).toBe(format);
  });
});
