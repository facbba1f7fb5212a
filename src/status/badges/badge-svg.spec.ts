import { escapeXml, LABEL_COLOR, renderBadge, textWidth } from './badge-svg';

describe('badge SVG', () => {
  it.each([
    ['', 11, false, 0],
    [' ', 11, false, 3.498],
    ['0', 11, false, 6.996],
    ['up', 11, false, 13.959],
    ['W', 10, true, 11.03],
    ['中', 11, false, 11],
  ])('measures %j at %p px (bold %p) as %p px from the table', (text, size, bold, px) => {
    expect(textWidth(text, size, bold)).toBeCloseTo(px, 2);
  });

  it.each([
    ['a & b', 'a &#38; b'],
    ['<x>', '&#60;x&#62;'],
    [`"it's"`, '&#34;it&#39;s&#34;'],
  ])('escapes %j as %j', (raw, escaped) => {
    expect(escapeXml(raw)).toBe(escaped);
  });

  it.each(['flat', 'flat-square', 'for-the-badge'] as const)(
    '%s: an accessible image whose parts add up to its width',
    (style) => {
      const svg = renderBadge({ label: 'Web <1>', message: 'up', color: '#1a7f37' }, style);
      expect(svg).toMatch(
        /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="(\d+)" height="(20|28)" viewBox="0 0 \1 \2" role="img" aria-label="Web &#60;1&#62;: up"><title>Web &#60;1&#62;: up<\/title>/,
      );
      const width = Number(/width="(\d+)"/.exec(svg)![1]);
      const [left, right] = [...svg.matchAll(/<rect (?:x="\d+" )?width="(\d+)" height="\d+" fill="#/g)].map((m) =>
        Number(m[1]),
      );
      expect(left + right).toBe(width);
      expect(svg).toContain(`fill="${LABEL_COLOR}"`);
      expect(svg).not.toContain('<1>');
    },
  );

  it('gives each badge ids of its own, so badges inline on one page do not share a clip path', () => {
    const a = renderBadge({ label: 'a', message: 'up', color: '#1a7f37' }, 'flat');
    const b = renderBadge({ label: 'b', message: 'down', color: '#c4281c' }, 'flat');
    const ids = (svg: string) => [...svg.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids(a)).toHaveLength(2);
    expect(ids(a).filter((id) => ids(b).includes(id))).toEqual([]);
    expect(renderBadge({ label: 'a', message: 'up', color: '#1a7f37' }, 'flat')).toBe(a);
  });
});
