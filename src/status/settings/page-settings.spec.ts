import { BAD_TEXT } from '../../../test/support/bad-text';
import { defaultPageSettings, pickRange } from './look';
import { parseSettingsBody } from './page-settings';

const current = defaultPageSettings();
const ok = (body: Record<string, unknown>) => {
  const r = parseSettingsBody(body, current);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.patch;
};
const fields = (body: Record<string, unknown>) => {
  const r = parseSettingsBody(body, current);
  return r.ok ? [] : r.errors.map((e) => e.field);
};

describe('parseSettingsBody', () => {
  it('changes nothing for an empty body', () => {
    expect(ok({})).toEqual({ next: current, changed: [], monitors: [] });
  });

  it.each([
    ['enabled', false],
    ['title', 'Acme status'],
    ['app_name', 'Acme'],
    ['app_name', ''],
    ['description', 'Line one\nLine two'],
    ['layout', 'ledger'],
    ['theme', 'dark'],
    ['palette', 'colorblind'],
    ['font', 'plex'],
    ['font', 'system'],
    ['bar_style', 'share'],
    ['bar_shape', 'slim'],
    ['show_response', false],
    ['show_uptime', false],
    ['show_summary', false],
    ['show_locations', true],
    ['fold_groups', false],
    ['auto_refresh', true],
    ['subscribers', true],
    ['group_order', ['Core', 'Edge']],
    ['website', { label: 'Acme', url: 'https://acme.example' }],
    ['website', null],
    [
      'links',
      [
        { label: 'Support', url: 'mailto:help@acme.example' },
        { label: 'Docs', url: 'http://docs.acme.example/x' },
      ],
    ],
  ])('accepts %s = %j', (key, value) => {
    const p = ok({ [key]: value });
    expect((p.next as unknown as Record<string, unknown>)[key]).toEqual(value);
  });

  it('stores an accent in lower case and ranges in their own order', () => {
    const p = ok({ accent: '#AABBCC', ranges: ['90d', '24h'], default_range: '24h' });
    expect(p.next.accent).toBe('#aabbcc');
    expect(p.next.ranges).toEqual(['24h', '90d']);
    expect(p.changed.sort()).toEqual(['accent', 'default_range', 'ranges']);
  });

  it('takes null for app_name and description as empty', () => {
    expect(ok({ app_name: null, description: null }).next).toMatchObject({ app_name: '', description: '' });
  });

  it('normalises hosts and lists only keys that really changed', () => {
    const p = ok({ hosts: ['Status.Example.com.', 'bücher.example'], layout: 'horizon' });
    expect(p.next.hosts).toEqual(['status.example.com', 'xn--bcher-kva.example']);
    expect(p.changed).toEqual(['hosts']);
  });

  it('ignores the read-only keys of a GET answer sent back', () => {
    expect(ok({ url: 'x', logo: null, domains: [], server_ips: [] }).changed).toEqual([]);
  });

  it.each([
    [{ enabled: 'yes' }, ['enabled']],
    [{ subscribers: 'on' }, ['subscribers']],
    [{ title: '' }, ['title']],
    [{ title: 'x'.repeat(101) }, ['title']],
    [{ title: 'a\u202Eb' }, ['title']],
    [{ title: null }, ['title']],
    [{ app_name: 'x'.repeat(31) }, ['app_name']],
    [{ description: 'x'.repeat(501) }, ['description']],
    [{ description: 'a\u202Eb' }, ['description']],
    [{ hosts: 'status.example.com' }, ['hosts']],
    [{ hosts: ['a.example', 'b.example', 'c.example', 'd.example', 'e.example', 'f.example'] }, ['hosts']],
    [{ hosts: ['ok.example', '10.0.0.1'] }, ['hosts[1]']],
    [{ hosts: ['ok.example', 'OK.example.'] }, ['hosts[1]']],
    [{ hosts: [42] }, ['hosts[0]']],
    [{ group_order: ['a', 'a'] }, ['group_order[1]']],
    [{ group_order: ['x'.repeat(61)] }, ['group_order[0]']],
    [{ layout: 'grid' }, ['layout']],
    [{ theme: 'sepia' }, ['theme']],
    [{ accent: 'red' }, ['accent']],
    [{ accent: '#abc' }, ['accent']],
    [{ palette: 'mono' }, ['palette']],
    [{ font: 'comic' }, ['font']],
    [{ bar_style: 'best' }, ['bar_style']],
    [{ bar_shape: 'round' }, ['bar_shape']],
    [{ ranges: [] }, ['ranges']],
    [{ ranges: ['1h'] }, ['ranges[0]']],
    [{ ranges: ['7d', '7d'] }, ['ranges[1]']],
    [{ default_range: '1y' }, ['default_range']],
    [{ ranges: ['24h'] }, ['default_range']],
    [{ ranges: ['24h'], default_range: '7d' }, ['default_range']],
    [{ show_response: 1 }, ['show_response']],
    [{ website: { label: 'x' } }, ['website.url']],
    [{ website: { label: 'x', url: 'ftp://x.example' } }, ['website.url']],
    [{ website: { label: 'x', url: 'mailto:a@b.example' } }, ['website.url']],
    [{ website: { label: 'x', url: 'javascript:alert(1)' } }, ['website.url']],
    [{ website: { label: '', url: 'https://x.example' } }, ['website.label']],
    [{ website: { label: 'x', url: 'https://x.example', extra: 1 } }, ['website.extra']],
    [
      {
        links: [
          { label: 'a', url: 'https://a.example' },
          { label: 'b', url: 'https://b.example' },
          { label: 'c', url: 'https://c.example' },
          { label: 'd', url: 'https://d.example' },
        ],
      },
      ['links'],
    ],
    [{ links: [{ label: 'a', url: 'data:text/html,hi' }] }, ['links[0].url']],
    [{ links: ['https://a.example'] }, ['links[0]']],
    [{ monitors: {} }, ['monitors']],
    [{ monitors: [{ id: 0 }] }, ['monitors[0].id']],
    [{ monitors: [{ id: 1 }, { id: 1 }] }, ['monitors[1].id']],
    [{ monitors: [{ id: 1, public: 'yes' }] }, ['monitors[0].public']],
    [{ monitors: [{ id: 1, public_name: 'x'.repeat(101) }] }, ['monitors[0].public_name']],
    [{ monitors: [{ id: 1, public_group: 'x'.repeat(61) }] }, ['monitors[0].public_group']],
    [{ monitors: [{ id: 1, sort: 1.5 }] }, ['monitors[0].sort']],
    [{ monitors: [{ id: 1, name: 'x' }] }, ['monitors[0].name']],
    [{ colour: '#fff' }, ['colour']],
  ])('refuses %j on %j', (body, expected) => {
    expect(fields(body)).toEqual(expected);
  });

  // The one text rule (common/validation/text-rules.ts) on every text of the page (issue 42).
  const TEXTS: [string, (text: string) => Record<string, unknown>][] = [
    ['title', (text) => ({ title: text })],
    ['app_name', (text) => ({ app_name: text })],
    ['description', (text) => ({ description: text })],
    ['group_order[0]', (text) => ({ group_order: [text] })],
    ['website.label', (text) => ({ website: { label: text, url: 'https://x.example' } })],
    ['links[0].label', (text) => ({ links: [{ label: text, url: 'https://x.example' }] })],
    ['monitors[0].public_name', (text) => ({ monitors: [{ id: 1, public_name: text }] })],
    ['monitors[0].public_group', (text) => ({ monitors: [{ id: 1, public_group: text }] })],
  ];
  it.each(TEXTS.flatMap(([field, put]) => BAD_TEXT.map(([what, text]) => [field, what, put(text)] as const)))(
    '%s refuses %s',
    (field, _what, body) => {
      const r = parseSettingsBody(body, current);
      expect(r.ok ? [] : r.errors).toEqual([
        { field, message: expect.stringMatching(/control characters|lone surrogate/) },
      ]);
    },
  );

  it('takes line breaks and tabs in the description only', () => {
    expect(ok({ description: 'One.\r\n\tTwo.' }).next.description).toBe('One.\r\n\tTwo.');
    expect(fields({ title: 'One\tTwo', monitors: [{ id: 1, public_group: 'a\nb' }] })).toEqual([
      'title',
      'monitors[0].public_group',
    ]);
  });

  it('reports every problem at once', () => {
    expect(fields({ layout: 'x', theme: 'y', nope: 1 })).toEqual(['layout', 'theme', 'nope']);
  });

  it('reads monitor items with only the fields given', () => {
    expect(
      ok({
        monitors: [
          { id: 3, public: true },
          { id: 4, public_name: null, public_group: 'Edge', sort: -2 },
        ],
      }).monitors,
    ).toEqual([
      { id: 3, public: true },
      { id: 4, public_name: null, public_group: 'Edge', sort: -2 },
    ]);
  });

  it('drops ignored keys unchecked (the preview ignores hosts)', () => {
    const r = parseSettingsBody({ hosts: ['10.0.0.1'] }, current, ['hosts']);
    expect(r.ok).toBe(true);
  });
});

describe('pickRange', () => {
  const s = { ranges: ['24h', '7d', '90d'] as const, default_range: '7d' as const };
  it.each([
    ['24h', '24h'],
    ['90d', '90d'],
    ['30d', '7d'],
    ['1y', '7d'],
    [undefined, '7d'],
    [['24h'], '7d'],
  ])('reads %j as %j', (raw, range) => {
    expect(pickRange(raw, { ranges: [...s.ranges], default_range: s.default_range })).toBe(range);
  });
});
