import { emailSender, messageIdFor, renderAlertEmail } from './email';
import type { AlertEvent } from '../channel-kind';

describe('email config', () => {
  const parse = (config: unknown) => emailSender.parseConfig(config);

  it.each([
    [['ops@example.com']],
    [
      [
        'ops@example.com',
        'Owner+alerts@mail.example.org',
        'root@nas',
        'a.b-c@xn--bcher-kva.example',
        'jörg@bücher.example',
      ],
    ],
  ])('takes %j', (to) => {
    expect(parse({ to })).toEqual({ ok: true, config: { to } });
  });

  it.each<[string, unknown, { field: string; message: string }[]]>([
    ['not an object', 'ops@example.com', [{ field: 'config', message: 'must be an object' }]],
    ['no list', {}, [{ field: 'config.to', message: 'must list 1 to 5 email addresses' }]],
    ['an empty list', { to: [] }, [{ field: 'config.to', message: 'must list 1 to 5 email addresses' }]],
    [
      'more than 5',
      { to: ['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io', 'e@x.io', 'f@x.io'] },
      [{ field: 'config.to', message: 'must list 1 to 5 email addresses' }],
    ],
    [
      'an unknown field',
      { to: ['a@x.io'], cc: ['b@x.io'] },
      [{ field: 'config.cc', message: 'unknown field (allowed: to)' }],
    ],
    ['a number', { to: ['a@x.io', 5] }, [{ field: 'config.to[1]', message: 'must be an email address (a string)' }]],
    ['an empty address', { to: ['a@x.io', ''] }, [{ field: 'config.to[1]', message: 'must not be empty' }]],
    [
      'a line break (header injection)',
      { to: ['a@x.io', 'b@x.io', 'c@x.io\r\nBcc: all@x.io'] },
      [
        {
          field: 'config.to[2]',
          message: 'must not contain control characters (line breaks, tabs, NUL, bidirectional controls)',
        },
      ],
    ],
    [
      'a bidi control',
      { to: ['moc.elpmaxe\u202e@a'] },
      [
        {
          field: 'config.to[0]',
          message: 'must not contain control characters (line breaks, tabs, NUL, bidirectional controls)',
        },
      ],
    ],
    [
      'a display name',
      { to: ['Ops <ops@example.com>'] },
      [
        {
          field: 'config.to[0]',
          message: 'must be a bare address such as ops@example.com: no display name, no spaces',
        },
      ],
    ],
    [
      'a quoted name',
      { to: ['"ops"@example.com'] },
      [
        {
          field: 'config.to[0]',
          message: 'must be a bare address such as ops@example.com: no display name, no spaces',
        },
      ],
    ],
    [
      'spaces around',
      { to: [' ops@example.com'] },
      [
        {
          field: 'config.to[0]',
          message: 'must be a bare address such as ops@example.com: no display name, no spaces',
        },
      ],
    ],
    [
      'two at once',
      { to: ['a@x.io, b@x.io'] },
      [{ field: 'config.to[0]', message: 'must be one address: list each address on its own' }],
    ],
    [
      'no @',
      { to: ['ops.example.com'] },
      [{ field: 'config.to[0]', message: 'must be an address such as ops@example.com' }],
    ],
    [
      'nothing after @',
      { to: ['ops@'] },
      [{ field: 'config.to[0]', message: 'must be an address such as ops@example.com' }],
    ],
    [
      'a bad local part',
      { to: ['a..b@x.io'] },
      [{ field: 'config.to[0]', message: 'has a part before the @ that mail servers refuse' }],
    ],
    [
      'a bad domain',
      { to: ['a@-x.io'] },
      [{ field: 'config.to[0]', message: 'has a domain after the @ that is not a host name' }],
    ],
    [
      'an address literal',
      { to: ['a@[10.0.0.1]'] },
      [{ field: 'config.to[0]', message: 'has a domain after the @ that is not a host name' }],
    ],
    [
      'a duplicate in another case',
      { to: ['ops@example.com', 'OPS@Example.com'] },
      [{ field: 'config.to[1]', message: 'repeats config.to[0]' }],
    ],
  ])('refuses %s', (_, config, errors) => {
    expect(parse(config)).toEqual({ ok: false, errors });
  });

  it('has no secrets', () => {
    expect(emailSender.secrets).toEqual([]);
  });
});

describe('messageIdFor', () => {
  it.each([
    ['42', 'https://status.example.com', '<alert.42@status.example.com>'],
    ['7:abc', 'http://localhost:8080', '<alert.7=3aabc@localhost>'],
    ['x y<z>', 'http://[::1]:8080', '<alert.x=20y=3cz=3e@farsight.invalid>'],
  ])('%j under %s is %s', (id, url, want) => {
    expect(messageIdFor(id, url)).toBe(want);
  });
});

describe('renderAlertEmail', () => {
  const event: AlertEvent = {
    type: 'down',
    at: Date.UTC(2026, 10, 23, 11, 2),
    monitor: {
      id: 3,
      name: 'AT&T <router>',
      slug: 'att',
      group: 'Network',
      target: 'GET https://router.lan/?a=1&b=2',
      url: 'https://router.lan/?a=1&b=2',
      description: 'Fibre "box" in the hall',
      runbook_url: 'javascript:alert(1)',
    },
    message: 'AT&T <router> is down',
    duration_ms: 125_000,
    error: { code: 'status', message: 'status 503 <Service Unavailable>' },
  };

  it('writes the text part as text: nothing HTML-escaped', () => {
    const { subject, text } = renderAlertEmail({ id: '1', events: [event] }, [event], 'https://farsight.example.com');
    expect(subject).toBe('DOWN: AT&T <router> — status 503 <Service Unavailable>');
    expect(text).toBe(
      [
        'DOWN: AT&T <router> — status 503 <Service Unavailable>',
        'Fibre "box" in the hall',
        '  Target: GET https://router.lan/?a=1&b=2',
        '  Group: Network',
        '  Failing for: 2 min',
        '  When: 2026-11-23 11:02 UTC',
        '  Open in Farsight: https://farsight.example.com/monitors/3',
        '',
        '-- ',
        'Sent by Farsight at https://farsight.example.com',
        '',
      ].join('\n'),
    );
  });

  it('escapes everything in the HTML part, and links no runbook that is not http(s)', () => {
    const { html } = renderAlertEmail({ id: '1', events: [event] }, [event], 'https://farsight.example.com');
    expect(html).toContain('AT&amp;T &lt;router&gt;');
    expect(html).toContain('status 503 &lt;Service Unavailable&gt;');
    expect(html).toContain('Fibre &quot;box&quot; in the hall');
    expect(html).not.toContain('<router>');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="https://farsight.example.com/monitors/3"');
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
  });

  it('names the events past 50 by count', () => {
    const events = Array.from({ length: 60 }, (_, i) => ({
      ...event,
      monitor: { ...event.monitor!, id: i, name: `M${i}` },
    }));
    const { html, text, subject } = renderAlertEmail({ id: '1', events }, events, 'https://f.example');
    expect(subject).toBe('60 alerts: 60 down — M0, M1, +58');
    expect(html.match(/class="card"/g)).toHaveLength(50);
    expect(html).toContain('… and 10 more.');
    expect(text).toContain('… and 10 more: https://f.example/');
  });
});
