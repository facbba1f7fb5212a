import { CHANNEL_KINDS } from '../channel-kind';
import { SENDERS, senderOf } from './registry';

describe('sender registry', () => {
  it.each(CHANNEL_KINDS)('has the %s sender under its own kind', (kind) => {
    expect(senderOf(kind)).toBe(SENDERS[kind]);
    expect(senderOf(kind).kind).toBe(kind);
  });

  it('lists every kind and no other', () => {
    expect(Object.keys(SENDERS).sort()).toEqual([...CHANNEL_KINDS].sort());
  });

  it.each<[string, string[]]>([
    ['email', []],
    ['chat', ['url']],
    ['webhook', ['url', 'secret', 'headers[*].value']],
    ['ntfy', ['token']],
    ['gotify', ['token']],
    ['telegram', ['bot_token']],
    ['pushover', ['user_key', 'app_token']],
    ['matrix', ['access_token']],
    ['pagerduty', ['routing_key']],
    ['home-assistant', ['token']],
    ['apprise', ['url']],
  ])('%s declares its secret fields: %j', (kind, paths) => {
    expect(SENDERS[kind as keyof typeof SENDERS].secrets.map((s) => s.path)).toEqual(paths);
  });
});
