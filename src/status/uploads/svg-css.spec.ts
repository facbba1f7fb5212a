import { cssProblem, cssView } from './svg-css';

describe('cssView: the text as a browser tokenizes it', () => {
  it.each<[string, string, string]>([
    ['a hex escape', '@\\69mport', '@import'],
    ['six hex digits and the one space they take', '@\\000069 mport', '@import'],
    ['an escape and a line break after it', 'u\\72\r\nl(', 'url('],
    ['any other character escaped', '@\\import', '@import'],
    ['a code point out of range', 'a\\110000b', 'a\uFFFDb'],
    ['a comment, as a space', 'u/**/rl(', 'u rl('],
    ['a comment inside a string, kept', '"/*" x "*/"', '"/*" x "*/"'],
    ['an escape inside a string', '"\\75rl("', '"url("'],
    ['a string ended by a line break', '"a\n/* c */b', '"a\n b'],
  ])('%s', (_what, css, view) => expect(cssView(css)).toBe(view));
});

describe('cssProblem', () => {
  it.each<[string, string | null]>([
    ['.a{fill:#123;stroke:rgb(1,2,3)}', null],
    ['@media (max-width: 10px){.a{opacity:.5}}', null],
    ['@keyframes spin{to{transform:rotate(360deg)}}', null],
    ['fill:url(#g)', null],
    ["fill:url( '#g' )", null],
    ['filter:drop-shadow(0 0 1px black) blur(1px)', null],
    ['@import "a.css"', '@import'],
    ['@IMPORT "a.css"', '@import'],
    ['@namespace svg url(http://www.w3.org/2000/svg)', '@namespace'],
    ['fill:url(https://x.example/p.svg#g)', 'url()'],
    ['fill:url(p.svg#g)', 'url()'],
    ['background:image-set("x.png" 1x)', 'image-set()'],
    ['background:-webkit-image-set("x.png" 1x)', '-webkit-image-set()'],
    ['width:expression(alert(1))', 'expression()'],
    ['-moz-binding:url(x.xml#b)', 'url()'],
    ['a/**/url(x)', 'url()'],
  ])('%s', (css, words) => {
    const problem = cssProblem(css);
    if (words === null) expect(problem).toBeNull();
    else expect(problem).toContain(words);
  });
});

describe('cssProblem on a logo-sized stylesheet', () => {
  // A regex ending in \( rescans a long name from each of its characters: 256 KB took minutes.
  it.each([
    ['one long name', 'a'.repeat(256 * 1024)],
    ['many fragment urls', 'url(#a)'.repeat((256 * 1024) / 7)],
  ])('judges %s in linear time', (_what, css) => {
    const started = process.hrtime.bigint();
    expect(cssProblem(css)).toBeNull();
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2000);
  });
});
