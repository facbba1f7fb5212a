import { renderDoc, rewriteHref, slugger } from './docs-markdown';

const PAGES = new Map([
  ['api', 'API conventions'],
  ['stream', 'Live stream'],
  ['state-machine', 'Monitor status'],
]);

describe('slugger (GitHub heading anchors)', () => {
  it.each([
    ['Errors', 'errors'],
    ['Live stream (`GET /stream`)', 'live-stream-get-stream'],
    ['Offline periods (the service itself)', 'offline-periods-the-service-itself'],
    ['`system/`', 'system'],
    ['What `4274274` changed', 'what-4274274-changed'],
    ['Engine CPU per check: 0.92-0.98 ms against 0.4 ms', 'engine-cpu-per-check-092-098-ms-against-04-ms'],
    ['Sign-in, sessions, keys and secrets', 'sign-in-sessions-keys-and-secrets'],
  ])('%s -> %s', (text, id) => {
    expect(slugger()(text.replace(/`/g, ''))).toBe(id);
  });

  it('numbers repeated headings', () => {
    const slug = slugger();
    expect([slug('email'), slug('email'), slug('email')]).toEqual(['email', 'email-1', 'email-2']);
  });
});

describe('rewriteHref', () => {
  it.each<[string, string | null]>([
    ['stream.md', '/docs/stream'],
    ['./stream.md#ids-the-ring-and-resume', '/docs/stream#ids-the-ring-and-resume'],
    ['docs/api.md', '/docs/api'],
    ['#errors', '#errors'],
    ['https://example.com/x', 'https://example.com/x'],
    ['mailto:ops@example.com', 'mailto:ops@example.com'],
    ['/api/openapi.json', '/api/openapi.json'],
    ['missing.md', null],
    ['../README.md', null],
    ['../src/common/time.ts', null],
    ['//evil.example/x', null],
    ['images/status-horizon.png', '/docs/images/status-horizon.png'],
    ['./images/icon.svg', '/docs/images/icon.svg'],
    ['images/../secret.key', null],
    ['images/sub/x.png', null],
    ['javascript:alert(1)', null],
  ])('%s -> %s', (href, want) => {
    expect(rewriteHref(href, PAGES)).toBe(want);
  });
});

describe('renderDoc', () => {
  const md = [
    '# Title here',
    '',
    '> A note first, which is not the lead.',
    '',
    'The lead paragraph, with `code` and a [link](stream.md).',
    '',
    '## Section one',
    '',
    'Text <script>alert(1)</script> and <b>bold</b>, see [the code](../src/x.ts), [stream.md](stream.md#ids) and [`api.md`](api.md).',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '',
    '![diagram](x.png)',
    '',
    '![The page, dark](images/page-dark.png)',
  ].join('\n');
  const r = renderDoc(md, PAGES);

  it('finds the title, the lead and the headings', () => {
    expect(r.title).toBe('Title here');
    expect(r.lead).toBe('The lead paragraph, with code and a link.');
    expect(r.headings).toEqual([
      { depth: 1, id: 'title-here', text: 'Title here' },
      { depth: 2, id: 'section-one', text: 'Section one' },
    ]);
  });

  it('gives headings ids, and section headings a link to themselves', () => {
    expect(r.html).toContain('<h1 id="title-here">Title here</h1>');
    expect(r.html).toContain('<h2 id="section-one"><a class="self" href="#section-one">Section one</a></h2>');
  });

  it('rewrites links between pages and drops links to files that are not served', () => {
    expect(r.html).toContain('<a href="/docs/stream">link</a>');
    expect(r.html).toContain('see the code,');
    expect(r.links).toEqual(['/docs/stream', '/docs/stream#ids', '/docs/api', '/docs/images/page-dark.png']);
  });

  it('names a page by its name where the link text is only its file name', () => {
    expect(r.html).toContain('<a href="/docs/stream#ids">Live stream</a> and <a href="/docs/api">API conventions</a>');
  });

  it('shows raw HTML as text, pictures from docs/images/ as pictures, any other picture as its text', () => {
    expect(r.html).not.toMatch(/<script|<b>/);
    expect(r.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(r.html).toContain('<p>diagram</p>');
    expect(r.html).toContain(
      '<img src="/docs/images/page-dark.png" alt="The page, dark" loading="lazy" decoding="async">',
    );
    expect(r.html.match(/<img/g)).toHaveLength(1);
  });

  it('wraps tables so they scroll on a narrow screen', () => {
    expect(r.html).toContain('<div class="table-wrap" tabindex="0"><table>');
  });
});
