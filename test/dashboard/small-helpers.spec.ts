/**
 * The small pure helpers of the dashboard's modules: an input's name after its row moved
 * (rows.js), a check's protocol status in words (check-result.js) and the chart's axis
 * (chart.js).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renamed } = require('../../public/dashboard/core/rows.js') as {
  renamed(name: string, list: string, index: number): string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { statusWords } = require('../../public/dashboard/monitor/check-result.js') as {
  statusWords(kind: string, status: number | null): string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { niceMax } = require('../../public/dashboard/monitor/chart.js') as { niceMax(v: number): number };

describe('renamed (rows.js): the API names list items by index, so names follow the order', () => {
  it.each([
    ['http.headers.3.value', 'http.headers', 1, 'http.headers.1.value'],
    ['http.headers.0.name', 'http.headers', 0, 'http.headers.0.name'],
    // Only the list's own index: a list inside a list item keeps its own numbers.
    ['http.json.2.rules.5.path', 'http.json', 0, 'http.json.0.rules.5.path'],
    ['http.json.2.rules.5.path', 'http.json.2.rules', 1, 'http.json.2.rules.1.path'],
    // A dot in the list's name is a dot, not "any character".
    ['httpxheaders.3.value', 'http.headers', 1, 'httpxheaders.3.value'],
    ['name', 'http.headers', 1, 'name'],
  ])('%s in list %s as row %p is %s', (name, list, index, out) => {
    expect(renamed(name, list, index)).toBe(out);
  });
});

describe('statusWords (check-result.js)', () => {
  it.each<[string, number | null, string]>([
    ['http', 200, '200'],
    ['http', null, ''],
    ['dns', 0, 'NOERROR'],
    ['dns', 3, 'NXDOMAIN'],
    ['dns', 9, 'rcode 9'],
    ['tcp', null, ''],
  ])('%s status %p is "%s"', (kind, status, words) => {
    expect(statusWords(kind, status)).toBe(words);
  });
});

describe('niceMax (chart.js)', () => {
  it.each([
    [0, 10],
    [-5, 10],
    [1, 1],
    [13, 20],
    [22, 25],
    [25, 25],
    [26, 50],
    [480, 500],
    [501, 1000],
    [9_999, 10_000],
  ])('%p ms tops the axis at %p', (v, top) => {
    expect(niceMax(v)).toBe(top);
  });
});
