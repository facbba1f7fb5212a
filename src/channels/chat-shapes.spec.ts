import type { AlertEvent } from './channel-kind';
import { chatBody, ChatFormat, markdownEscape, recogniseChat } from './chat-shapes';

const PUBLIC = 'https://farsight.example.com';

function down(name = 'NAS web UI', id = 3, extra: Partial<AlertEvent> = {}): AlertEvent {
  return {
    type: 'down',
    at: Date.UTC(2026, 10, 23, 11, 2),
    monitor: {
      id,
      name,
      slug: 'nas',
      group: null,
      target: 'GET https://nas.lan/',
      url: 'https://nas.lan/',
      description: 'The NAS admin page',
      runbook_url: 'https://wiki.lan/nas',
    },
    message: `${name} is down`,
    duration_ms: 120_000,
    error: { code: 'refused', message: 'connection refused by 10.0.0.5:443' },
    ...extra,
  };
}

describe('recogniseChat', () => {
  it.each<[string, ChatFormat]>([
    ['https://hooks.slack.com/services/T0/B0/abc', 'slack'],
    ['https://HOOKS.SLACK.COM./services/T0/B0/abc', 'slack'],
    ['https://hooks.slack-gov.com/services/T0/B0/abc', 'slack'],
    ['https://discord.com/api/webhooks/1/abc', 'discord'],
    ['https://discordapp.com/api/webhooks/1/abc', 'discord'],
    ['https://canary.discord.com/api/webhooks/1/abc', 'discord'],
    ['https://discord.com/channels/1/2', 'chat'],
    ['https://prod-12.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=x', 'teams'],
    ['https://contoso.webhook.office.com/webhookb2/abc', 'teams'],
    [
      'https://default1234.56.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/abc',
      'teams',
    ],
    ['https://outlook.office.com/webhook/abc', 'teams'],
    ['https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t', 'google-chat'],
    ['https://mattermost.lan/hooks/abc', 'chat'],
    ['http://192.168.1.10:3000/hooks/abc/def', 'chat'],
    ['https://notslack.com/services/x', 'chat'],
    ['https://hooks.slack.com.evil.example/services/x', 'chat'],
    ['https://evildiscord.com/api/webhooks/1/abc', 'chat'],
    ['https://logic.azure.com.evil.example/x', 'chat'],
  ])('%s is %s', (url, format) => {
    expect(recogniseChat(new URL(url))).toBe(format);
  });
});

describe('chatBody', () => {
  it('Slack: {text} in mrkdwn with the details of a single event and <url|label> links', () => {
    const body = chatBody('slack', [down('NAS <web> & UI')], { publicUrl: PUBLIC }) as { text: string };
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toBe(
      [
        '🔴 *DOWN: NAS &lt;web&gt; &amp; UI — connection refused by 10.0.0.5:443*',
        'GET https://nas.lan/',
        'failing for 2 min',
        'The NAS admin page',
        `<${PUBLIC}/monitors/3|Open in Farsight> · <https://wiki.lan/nas|Runbook>`,
      ].join('\n'),
    );
  });

  it('Google Chat: the same {text} format as Slack', () => {
    expect(chatBody('google-chat', [down()], { publicUrl: PUBLIC })).toEqual(
      chatBody('slack', [down()], { publicUrl: PUBLIC }),
    );
  });

  it('Slack-compatible (Mattermost, Rocket.Chat): {text}, no bold, bare links, markdown escaped', () => {
    const body = chatBody('chat', [down('*NAS* _web_')], { publicUrl: PUBLIC }) as { text: string };
    expect(body.text.split('\n')[0]).toBe('🔴 DOWN: \\*NAS\\* \\_web\\_ — connection refused by 10.0.0.5:443');
    expect(body.text).toContain(`Open in Farsight: ${PUBLIC}/monitors/3 · Runbook: https://wiki.lan/nas`);
  });

  it('Discord: {content} with mentions disabled and links that unfold no preview', () => {
    const body = chatBody('discord', [down('@everyone NAS')], { publicUrl: PUBLIC }) as {
      content: string;
      allowed_mentions: unknown;
    };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content.split('\n')[0]).toBe('🔴 **DOWN: @everyone NAS — connection refused by 10.0.0.5:443**');
    expect(body.content).toContain(`[Open in Farsight](<${PUBLIC}/monitors/3>)`);
  });

  it('a batch: a tally, then one line per event with its link', () => {
    const up: AlertEvent = { ...down('Router', 4), type: 'up', duration_ms: 720_000, error: undefined };
    const notice: AlertEvent = { type: 'notice', at: 0, monitor: null, message: 'Farsight was offline for 12 min' };
    const body = chatBody('slack', [down(), up, notice], { publicUrl: PUBLIC }) as { text: string };
    expect(body.text).toBe(
      [
        '*3 alerts: 1 down, 1 up, 1 notice*',
        `🔴 *DOWN: NAS web UI — connection refused by 10.0.0.5:443* · <${PUBLIC}/monitors/3|Open in Farsight>`,
        `🟢 *UP: Router — after 12 min* · <${PUBLIC}/monitors/4|Open in Farsight>`,
        'ℹ️ *NOTICE: Farsight was offline for 12 min*',
      ].join('\n'),
    );
  });

  it.each<[ChatFormat, number]>([
    ['discord', 2000],
    ['slack', 3500],
    ['chat', 3500],
    ['google-chat', 3500],
  ])('%s: a thousand events fit in %d characters, the rest counted', (format, limit) => {
    const events = Array.from({ length: 1000 }, (_, i) => down(`Monitor ${i} with a name of some length`, i));
    const body = chatBody(format, events, { publicUrl: PUBLIC }) as { text?: string; content?: string };
    const text = body.text ?? body.content ?? '';
    expect(text.length).toBeLessThanOrEqual(limit);
    expect(text).toMatch(/… and 9\d\d more$/);
    expect(text).toContain('Monitor 0 with a name');
  });

  it('Teams: an Adaptive Card message with coloured titles, links and a button', () => {
    const body = chatBody('teams', [down()], { publicUrl: PUBLIC }) as {
      type: string;
      attachments: {
        contentType: string;
        content: { type: string; version: string; body: { text: string; color?: string }[]; actions: unknown[] };
      }[];
    };
    expect(body.type).toBe('message');
    expect(body.attachments).toHaveLength(1);
    const card = body.attachments[0];
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content.type).toBe('AdaptiveCard');
    expect(card.content.version).toBe('1.4');
    expect(card.content.body[0]).toMatchObject({
      text: 'DOWN: NAS web UI — connection refused by 10.0.0.5:443',
      color: 'Attention',
    });
    expect(card.content.body[1].text).toContain(
      `[Open in Farsight](${PUBLIC}/monitors/3) · [Runbook](https://wiki.lan/nas)`,
    );
    expect(card.content.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open Farsight', url: PUBLIC }]);
  });

  it('Teams: at most 25 events on a card, the rest counted', () => {
    const events = Array.from({ length: 40 }, (_, i) => down(`M${i}`, i));
    const card = (
      chatBody('teams', events, { publicUrl: PUBLIC }) as { attachments: { content: { body: { text: string }[] } }[] }
    ).attachments[0].content;
    expect(card.body[0].text).toBe('40 alerts: 40 down');
    expect(card.body.filter((b) => b.text.startsWith('DOWN:'))).toHaveLength(25);
    expect(card.body.at(-1)!.text).toBe('… and 15 more');
  });

  it('a test message says so', () => {
    const body = chatBody(
      'slack',
      [{ type: 'notice', at: 0, monitor: null, message: 'Test message from Farsight: this channel works.' }],
      { publicUrl: PUBLIC, test: true },
    );
    expect(body).toEqual({ text: 'ℹ️ *TEST: Test message from Farsight: this channel works.*' });
  });

  it('never links a runbook that is not http or https', () => {
    const e = down();
    e.monitor!.runbook_url = 'javascript:alert(1)';
    for (const format of ['slack', 'discord', 'chat', 'teams'] as ChatFormat[]) {
      expect(JSON.stringify(chatBody(format, [e], { publicUrl: PUBLIC }))).not.toContain('javascript:');
    }
  });
});

describe('markdownEscape', () => {
  it.each([
    ['plain words', 'plain words'],
    ['*bold* _it_ ~s~ `c` |x| [a](b) <u>', '\\*bold\\* \\_it\\_ \\~s\\~ \\`c\\` \\|x\\| \\[a\\](b) \\<u\\>'],
    ['# heading', '\\# heading'],
    ['- item', '\\- item'],
    ['> quote', '\\> quote'],
    ['1. first', '1\\. first'],
    ['a - b # c', 'a - b # c'],
  ])('%j -> %j', (text, want) => {
    expect(markdownEscape(text)).toBe(want);
  });
});
