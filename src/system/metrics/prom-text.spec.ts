import { escapeHelp, escapeLabel, formatValue, labelSet, PromWriter } from './prom-text';

describe('prom-text', () => {
  it.each([
    ['plain', 'plain'],
    ['say "hi"', 'say \\"hi\\"'],
    ['back\\slash', 'back\\\\slash'],
    ['two\nlines', 'two\\nlines'],
    ['\\"\n', '\\\\\\"\\n'],
    ['ünïcode', 'ünïcode'],
  ])('escapes the label value %j as %j', (value, escaped) => {
    expect(escapeLabel(value)).toBe(escaped);
  });

  it.each([
    ['a\\b', 'a\\\\b'],
    ['a\nb', 'a\\nb'],
    ['"kept"', '"kept"'],
  ])('escapes the HELP text %j as %j', (text, escaped) => {
    expect(escapeHelp(text)).toBe(escaped);
  });

  it.each([
    [0, '0'],
    [1, '1'],
    [0.125, '0.125'],
    [-3, '-3'],
    [1e-7, '1e-7'],
    [NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
  ])('writes the value %p as %s', (v, text) => {
    expect(formatValue(v)).toBe(text);
  });

  it.each([
    [[], ''],
    [[['channel', 'ops "night"']], '{channel="ops \\"night\\""}'],
    [
      [
        ['a', 'x'],
        ['b', 'y'],
      ],
      '{a="x",b="y"}',
    ],
  ] as [[string, string][], string][])('makes the label set of %j', (pairs, text) => {
    expect(labelSet(pairs)).toBe(text);
  });

  it('grows its buffer past the first size and starts again at the same buffer after reset', () => {
    const w = new PromWriter(16);
    w.family('x_total', 'counter', 'Things.\nCounted.');
    for (let i = 0; i < 1000; i++) w.sample(`x_total{n="${i}"}`, i);
    const text = w.bytes().toString('utf8');
    expect(text.startsWith('# HELP x_total Things.\\nCounted.\n# TYPE x_total counter\nx_total{n="0"} 0\n')).toBe(true);
    expect(text.endsWith('x_total{n="999"} 999\n')).toBe(true);
    expect(w.length).toBe(Buffer.byteLength(text));
    w.reset();
    w.sample('é', 1);
    expect(w.bytes().toString('utf8')).toBe('é 1\n');
  });
});
