import { mapNotification } from './kuma-channels';

const row = (config: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
  id: 1,
  name: 'N',
  active: 1,
  is_default: 0,
  config: JSON.stringify(config),
  ...over,
});

describe('mapNotification: every Kuma provider the importer maps, with extensions.md field names', () => {
  it.each([
    [
      { type: 'smtp', smtpHost: 'm', smtpTo: 'a@x.org, b@x.org', smtpCC: 'c@x.org', smtpBCC: 'a@x.org' },
      'email',
      { to: ['a@x.org', 'b@x.org', 'c@x.org'] },
    ],
    [
      { type: 'webhook', webhookURL: 'https://h.example/k', webhookAdditionalHeaders: '{"X-T":"1"}' },
      'webhook',
      { url: 'https://h.example/k', headers: [{ name: 'X-T', value: '1' }] },
    ],
    [
      { type: 'discord', discordWebhookUrl: 'https://discord.com/api/webhooks/1/a' },
      'chat',
      { url: 'https://discord.com/api/webhooks/1/a', format: 'discord' },
    ],
    [
      { type: 'slack', slackwebhookURL: 'https://hooks.slack.com/services/x' },
      'chat',
      { url: 'https://hooks.slack.com/services/x', format: 'slack' },
    ],
    [
      { type: 'teams', webhookUrl: 'https://x.webhook.office.com/y' },
      'chat',
      { url: 'https://x.webhook.office.com/y', format: 'teams' },
    ],
    [
      { type: 'GoogleChat', googleChatWebhookURL: 'https://chat.googleapis.com/v1/x' },
      'chat',
      { url: 'https://chat.googleapis.com/v1/x', format: 'google-chat' },
    ],
    [
      {
        type: 'ntfy',
        ntfytopic: 't',
        ntfyserverurl: 'https://ntfy.lan',
        ntfyAuthenticationMethod: 'accessToken',
        ntfyaccesstoken: 'tk',
      },
      'ntfy',
      { server: 'https://ntfy.lan', topic: 't', token: 'tk' },
    ],
    [{ type: 'ntfy', ntfytopic: 't' }, 'ntfy', { server: 'https://ntfy.sh', topic: 't' }],
    [
      { type: 'gotify', gotifyserverurl: 'https://g.lan/', gotifyapplicationToken: 'A' },
      'gotify',
      { server: 'https://g.lan', token: 'A' },
    ],
    [
      { type: 'telegram', telegramBotToken: '1:a', telegramChatID: '-1' },
      'telegram',
      { bot_token: '1:a', chat_id: '-1', api_base: 'https://api.telegram.org' },
    ],
    [
      { type: 'pushover', pushoveruserkey: 'u', pushoverapptoken: 'a', pushoverdevice: 'phone' },
      'pushover',
      { user_key: 'u', app_token: 'a', device: 'phone' },
    ],
    [
      { type: 'matrix', homeserverUrl: 'https://m.lan', accessToken: 's', internalRoomId: '!r:lan' },
      'matrix',
      { homeserver: 'https://m.lan', access_token: 's', room_id: '!r:lan' },
    ],
    [{ type: 'PagerDuty', pagerdutyIntegrationKey: 'k' }, 'pagerduty', { routing_key: 'k' }],
    [
      {
        type: 'HomeAssistant',
        homeAssistantUrl: 'http://ha:8123/',
        longLivedAccessToken: 't',
        notificationService: 'mobile_app_p',
      },
      'home-assistant',
      { url: 'http://ha:8123', token: 't', service: 'notify.mobile_app_p' },
    ],
  ])('%j → %s %j', (config, kind, expected) => {
    const m = mapNotification(row(config));
    if (!m.ok) throw new Error(m.reason);
    expect(m.kind).toBe(kind);
    expect(m.item).toMatchObject({ name: 'N', kind, enabled: true });
    expect(m.item.config).toEqual(expected);
  });

  it.each([
    [row({ type: 'line' }), 'Kuma\'s "line" notifications have no counterpart here'],
    [row({ type: 'apprise', appriseURL: 'discord://x' }), expect.stringMatching(/Apprise API server/)],
    [
      row({ type: 'ntfy', ntfytopic: 't', ntfyAuthenticationMethod: 'usernamePassword' }),
      expect.stringMatching(/user name and password/),
    ],
    [row({ type: 'smtp', smtpHost: 'm' }), 'it has no recipient'],
    [
      row({ type: 'webhook', webhookURL: 'https://h', webhookAdditionalHeaders: '{bad' }),
      'its additional headers are not a JSON object',
    ],
    [{ id: 1, name: 'N', config: '{not json' }, 'its config is not a JSON object'],
    [{ id: 1, name: 'N', config: '{"name":"N"}' }, 'its config names no provider (type)'],
    [{ id: 1, name: '', config: '{"type":"slack"}' }, 'it has no name'],
  ])('refuses %j', (r, reason) => {
    expect(mapNotification(r)).toEqual({ ok: false, reason });
  });

  it('says what it leaves out: Kuma’s own SMTP server, recipients past five, a custom webhook body', () => {
    const mail = mapNotification(row({ type: 'smtp', smtpHost: 'mail.lan', smtpTo: 'a@x,b@x,c@x,d@x,e@x,f@x' }));
    expect(mail.ok && mail.notes).toEqual([
      '1 recipients left out: an email channel has at most 5',
      "Kuma's own SMTP server (mail.lan) is not kept: mail goes out through FARSIGHT_SMTP here",
    ]);
    const hook = mapNotification(row({ type: 'webhook', webhookURL: 'https://h', webhookContentType: 'custom' }));
    expect(hook.ok && hook.notes[0]).toMatch(/"custom" body is not kept/);
  });

  it('keeps whether it was off and whether it was a default', () => {
    const m = mapNotification(row({ type: 'slack', slackwebhookURL: 'https://s', isDefault: true }, { active: 0 }));
    expect(m.ok && [m.item.enabled, m.isDefault]).toEqual([false, true]);
  });
});
