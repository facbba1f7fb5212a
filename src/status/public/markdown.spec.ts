import { markdownHtml, safeHref } from './markdown';

describe('markdownHtml: the subset', () => {
  it.each<[string, string | null, string]>([
    ['nothing', null, ''],
    ['blank', '  \n\n \n', ''],
    ['one paragraph', 'Upgrading the NAS.', '<p>Upgrading the NAS.</p>'],
    ['paragraphs, line breaks kept', 'a\nb\n\n\nc', '<p>a<br>b</p><p>c</p>'],
    ['Windows line ends', 'a\r\n\r\nb', '<p>a</p><p>b</p>'],
    [
      'strong and emphasis',
      '**Files** stay *readable* and _fast_',
      '<p><strong>Files</strong> stay <em>readable</em> and <em>fast</em></p>',
    ],
    ['snake_case stays text', 'see my_file_name here', '<p>see my_file_name here</p>'],
    ['a lone star stays', '5 * 3 = 15', '<p>5 * 3 = 15</p>'],
    ['code, not interpreted', 'run `a <b> *c*`', '<p>run <code>a &lt;b&gt; *c*</code></p>'],
    ['a backslash escapes', '\\*not em\\*', '<p>*not em*</p>'],
    [
      'a link',
      '[the plan](https://example.com/plan?a=1&b=2)',
      '<p><a href="https://example.com/plan?a=1&amp;b=2" rel="noopener nofollow">the plan</a></p>',
    ],
    [
      'a mail link',
      '[mail us](mailto:ops@example.com)',
      '<p><a href="mailto:ops@example.com" rel="noopener nofollow">mail us</a></p>',
    ],
    [
      'emphasis inside a link',
      '[**big** news](https://x.example/)',
      '<p><a href="https://x.example/" rel="noopener nofollow"><strong>big</strong> news</a></p>',
    ],
    ['a bulleted list', '- one\n- two\n  more\n* three', '<ul><li>one</li><li>two<br>more</li><li>three</li></ul>'],
    ['a numbered list', '1. stop\n2) upgrade', '<ol><li>stop</li><li>upgrade</li></ol>'],
    ['a list after a paragraph', 'Steps:\n\n- a\n- b', '<p>Steps:</p><ul><li>a</li><li>b</li></ul>'],
    ['a heading is text', '# Big', '<p># Big</p>'],
  ])('%s', (_name, source, html) => {
    expect(markdownHtml(source)).toBe(html);
  });
});

describe('markdownHtml: hostile input stays text', () => {
  it.each<[string, string, string]>([
    ['raw HTML', '<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['an image tag with a handler', '<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
    ['a javascript: link', '[click](javascript:alert(1))', '<p>[click](javascript:alert(1))</p>'],
    [
      'a JavaScript: link in capitals',
      '[click](JaVaScRiPt:alert`1`)',
      '<p>[click](JaVaScRiPt:alert<code>1</code>)</p>',
    ],
    ['a data: link', '[x](data:text/html;base64,PHNjcmlwdD4=)', '<p>[x](data:text/html;base64,PHNjcmlwdD4=)</p>'],
    ['a vbscript: link', '[x](vbscript:msgbox)', '<p>[x](vbscript:msgbox)</p>'],
    ['a relative link', '[x](/api/v1/monitors)', '<p>[x](/api/v1/monitors)</p>'],
    ['a protocol-relative link', '[x](//evil.example/)', '<p>[x](//evil.example/)</p>'],
    [
      'a quote that would leave the attribute',
      '[x](https://a.example/"onmouseover="alert(1))',
      '<p>[x](https://a.example/&quot;onmouseover=&quot;alert(1))</p>',
    ],
    [
      'a quote inside a good address',
      '[x](https://a.example/"x)',
      '<p><a href="https://a.example/&quot;x" rel="noopener nofollow">x</a></p>',
    ],
    [
      'HTML in link text',
      '[<b>x</b>](https://a.example/)',
      '<p><a href="https://a.example/" rel="noopener nofollow">&lt;b&gt;x&lt;/b&gt;</a></p>',
    ],
    [
      'a link in a link',
      '[[in](https://b.example/)](https://a.example/)',
      '<p>[<a href="https://b.example/" rel="noopener nofollow">in</a>](https://a.example/)</p>',
    ],
    ['entities stay as written', '&lt;script&gt; &#x3C;', '<p>&amp;lt;script&amp;gt; &amp;#x3C;</p>'],
    [
      'an image',
      '![x](https://a.example/x.png)',
      '<p>!<a href="https://a.example/x.png" rel="noopener nofollow">x</a></p>',
    ],
    ['an unclosed code span', '`<i>', '<p>`&lt;i&gt;</p>'],
    ['quotes and apostrophes', `"it's"`, '<p>&quot;it&#39;s&quot;</p>'],
  ])('%s', (_name, source, html) => {
    expect(markdownHtml(source)).toBe(html);
  });

  it('keeps to its tags on a long run of marks (no tag but the subset, in linear-ish time)', () => {
    const source = `${'**_*`['.repeat(400)}<x>`;
    const started = process.hrtime.bigint();
    const html = markdownHtml(source);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(500);
    const tags = new Set([...html.matchAll(/<\/?([a-z]+)/g)].map((m) => m[1]));
    for (const tag of tags) expect(['p', 'strong', 'em', 'code', 'br']).toContain(tag);
    expect(html).not.toContain('<x>');
  });
});

describe('safeHref', () => {
  it.each<[string, boolean]>([
    ['https://example.com/', true],
    ['HTTP://EXAMPLE.COM', true],
    ['mailto:a@b.example', true],
    ['https://', false],
    ['mailto:', false],
    ['javascript:alert(1)', false],
    ['ftp://example.com/', false],
    [' https://example.com/', false],
  ])('%s → %s', (url, ok) => expect(safeHref(url)).toBe(ok));
});
