import type { AlertEvent, OutboundMessage } from '../../channel-kind';
import { appriseBody } from './apprise';
import { gotifyBody } from './gotify';
import { matrixContent, matrixTxnId } from './matrix';
import { ntfyBody } from './ntfy';
import { pagerDutyEvents } from './pagerduty';
import { pushoverBody } from './pushover';
import { telegramBody } from './telegram';

const PUBLIC = 'https://farsight.lan';
const monitor = (id: number, name = `Service ${id}`) => ({
  id,
  name,
  slug: `s${id}`,
  group: null,
  target: `GET https://s${id}.lan/`,
  url: null,
  runbook_url: 'https://wiki.lan/runbook?a=1&b=2',
});
const event = (type: AlertEvent['type'], over: Partial<AlertEvent> = {}): AlertEvent => ({
  type,
  at: 1_700_000_000_000,
  monitor: monitor(1, 'NAS <b>&</b> @room'),
  message: 'NAS is down: refused',
  error: { code: 'refused', message: 'connection refused' },
  incident_id: 7,
  ...over,
});
const msg = (events: AlertEvent[], test = false): OutboundMessage => ({ id: 'farsight-alert-12', events, test });
const downs = (n: number) =>
  Array.from({ length: n }, (_, i) => event('down', { monitor: monitor(i + 1), incident_id: i + 1 }));
const NOW = 1_700_000_000_000;

describe('service message shapes', () => {
  it.each<[AlertEvent['type'], number, string[]]>([
    ['down', 4, ['rotating_light']],
    ['reminder', 4, ['rotating_light']],
    ['up', 3, ['white_check_mark']],
    ['cert', 3, ['warning']],
  ])('ntfy: a %s has priority %i and tags %j', (type, priority, tags) => {
    const b = ntfyBody(
      { server: 'https://ntfy.sh', topic: 't', token: null },
      msg([event(type)]),
      NOW,
      PUBLIC,
    ) as Record<string, unknown>;
    expect(b).toMatchObject({ topic: 't', priority, tags, click: `${PUBLIC}/monitors/1` });
  });

  it.each<[AlertEvent['type'], number, number, string]>([
    ['down', 1, 8, 'failure'],
    ['up', 0, 4, 'success'],
    ['slow', 0, 5, 'warning'],
  ])('pushover, gotify, apprise: a %s has priority %i / %i and type %s', (type, pushover, gotify, apprise) => {
    expect(
      pushoverBody({ user_key: 'u', app_token: 'a', device: null }, msg([event(type)]), NOW, PUBLIC).priority,
    ).toBe(pushover);
    expect(gotifyBody(msg([event(type)]), NOW, PUBLIC)).toMatchObject({ priority: gotify });
    expect(appriseBody({ url: 'x', tags: null }, msg([event(type)]), NOW, PUBLIC)).toMatchObject({ type: apprise });
  });

  it('telegram: HTML escaped, links quoted, previews off', () => {
    const b = telegramBody(
      { bot_token: 't', chat_id: '1', api_base: 'x' },
      msg([event('down')]),
      NOW,
      PUBLIC,
    ) as Record<string, string>;
    expect(b.text).toContain('<b>DOWN: NAS &lt;b&gt;&amp;&lt;/b&gt; @room — connection refused</b>');
    expect(b.text).toContain('<a href="https://wiki.lan/runbook?a=1&amp;b=2">Runbook</a>');
    expect(b).toMatchObject({
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      disable_web_page_preview: true,
    });
  });

  it('matrix: plain body and HTML formatted_body, m.text, mentions off, the message id as transaction id', () => {
    const c = matrixContent(msg([event('down')]), NOW, PUBLIC) as Record<string, unknown>;
    expect(c).toMatchObject({ msgtype: 'm.text', format: 'org.matrix.custom.html', 'm.mentions': {} });
    expect(c.body).toContain('DOWN: NAS <b>&</b> @room');
    expect(c.formatted_body).toContain('NAS &lt;b&gt;&amp;&lt;/b&gt; @room');
    expect(c.formatted_body).not.toContain('\n');
    expect(matrixTxnId(msg([]))).toBe('farsight-alert-12');
  });

  it.each<[string, (m: OutboundMessage) => string, (s: string) => number, number]>([
    [
      'pushover',
      (m) => pushoverBody({ user_key: 'u', app_token: 'a', device: null }, m, NOW, PUBLIC).message as string,
      (s) => [...s].length,
      1024,
    ],
    [
      'telegram',
      (m) => (telegramBody({ bot_token: 't', chat_id: '1', api_base: 'x' }, m, NOW, PUBLIC) as { text: string }).text,
      (s) => s.length,
      4096,
    ],
    [
      'ntfy',
      (m) => (ntfyBody({ server: 'x', topic: 't', token: null }, m, NOW, PUBLIC) as { message: string }).message,
      (s) => Buffer.byteLength(s),
      4096,
    ],
  ])('%s: 200 Downs fit the service’s limit and the rest are counted', (_kind, textOf, measure, limit) => {
    const text = textOf(msg(downs(200)));
    expect(measure(text)).toBeLessThanOrEqual(limit);
    const more = Number(/… and (\d+) more$/.exec(text)?.[1]);
    const shown = text.split('\n').filter((l) => /DOWN: Service \d+/.test(l)).length;
    expect(shown + more).toBe(200);
  });

  it('a test message says so in every shape', () => {
    const test = msg([], true);
    expect(ntfyBody({ server: 'x', topic: 't', token: null }, test, NOW, PUBLIC)).toMatchObject({
      title: expect.stringMatching(/^TEST/),
      message: expect.stringContaining('this channel works'),
    });
    expect(pushoverBody({ user_key: 'u', app_token: 'a', device: null }, test, NOW, PUBLIC).message).toContain(
      'this channel works',
    );
  });

  it('pagerduty: trigger on down, resolve on up, acknowledge, nothing for reminders and warnings', () => {
    const events = [
      event('down'),
      event('reminder'),
      event('slow', { incident_id: undefined }),
      event('acknowledged'),
      event('up'),
    ];
    const out = pagerDutyEvents(msg(events), PUBLIC, NOW) as Record<string, unknown>[];
    expect(out.map((e) => [e.event_action, e.dedup_key])).toEqual([
      ['trigger', '7'],
      ['acknowledge', '7'],
      ['resolve', '7'],
    ]);
    expect(out[0].payload).toMatchObject({
      severity: 'critical',
      source: 'GET https://s1.lan/',
      class: 'refused',
      component: 'NAS <b>&</b> @room',
    });
    expect(out[0].links).toEqual([
      { href: `${PUBLIC}/monitors/1`, text: 'Open in Farsight' },
      { href: 'https://wiki.lan/runbook?a=1&b=2', text: 'Runbook' },
    ]);
  });

  it('pagerduty: a test triggers and resolves one alert of its own', () => {
    const out = pagerDutyEvents(msg([], true), PUBLIC, NOW) as Record<string, unknown>[];
    expect(out.map((e) => e.event_action)).toEqual(['trigger', 'resolve']);
    expect(out[0].dedup_key).toBe(out[1].dedup_key);
  });
});
