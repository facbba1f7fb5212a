import { confirmMail, NoticePayload, noticeMail, renderSubscriberMail } from './subscriber-mails';

const ctx = { pageTitle: 'Acme status', origin: 'https://status.example.com' };
const T = Date.UTC(2026, 10, 23, 11, 2);
const TOKEN = 'u'.repeat(43);

describe('noticeMail', () => {
  it.each<[string, NoticePayload, string, RegExp]>([
    ['opened', { kind: 'opened', service: 'NAS', started_at: T }, 'NAS is down', /Since: 2026-11-23 11:02 UTC/],
    [
      'resolved',
      { kind: 'resolved', service: 'NAS', started_at: T, ended_at: T + 12 * 60_000 },
      'NAS is back',
      /Down for: 12 min/,
    ],
    [
      'maintenance',
      {
        kind: 'maintenance',
        title: 'Disk swap',
        description: null,
        starts_at: T,
        ends_at: null,
        services: ['NAS', 'Wiki'],
      },
      'Planned maintenance: Disk swap',
      /Ends: when the work is done[\s\S]*Services: NAS, Wiki/,
    ],
  ])('words the %s mail, with the one-click unsubscribe headers and link', (_kind, payload, subject, body) => {
    const mail = renderSubscriberMail(noticeMail(ctx, payload, TOKEN));
    const url = `https://status.example.com/status/unsubscribe/${TOKEN}`;
    expect(mail.subject).toBe(subject);
    expect(mail.text).toMatch(body);
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(url);
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<${url}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('keeps a subject to one line of at most 120 characters, whatever a title holds', () => {
    const title = `Line one\r\nBcc: x@example.com ${'long '.repeat(40)}`;
    const mail = noticeMail(
      ctx,
      { kind: 'maintenance', title, description: null, starts_at: T, ends_at: T, services: [] },
      TOKEN,
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject.length).toBeLessThanOrEqual(120);
  });

  it('escapes a public name in the HTML part', () => {
    const mail = renderSubscriberMail(noticeMail(ctx, { kind: 'opened', service: '<b>NAS</b>', started_at: T }, TOKEN));
    expect(mail.html).toContain('&lt;b&gt;NAS&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>NAS</b>');
  });
});

describe('confirmMail', () => {
  it('carries the single-use link and its expiry, and no unsubscribe headers (nobody is subscribed yet)', () => {
    const mail = renderSubscriberMail(confirmMail(ctx, TOKEN, T + 48 * 3_600_000));
    expect(mail.subject).toBe('Confirm your subscription to Acme status');
    expect(mail.text).toContain(`https://status.example.com/status/subscription/${TOKEN}`);
    expect(mail.text).toContain('until 2026-11-25 11:02 UTC');
    expect(mail.headers).toEqual({});
  });
});
