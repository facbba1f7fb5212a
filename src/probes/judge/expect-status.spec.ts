import { parseExpectStatus, statusMatches, StatusRange } from './expect-status';

describe('parseExpectStatus', () => {
  it.each<[string, StatusRange[]]>([
    ['200', [[200, 200]]],
    ['200-299', [[200, 299]]],
    [
      '200-299,401',
      [
        [200, 299],
        [401, 401],
      ],
    ],
    [
      ' 200 - 299 , 401 ',
      [
        [200, 299],
        [401, 401],
      ],
    ],
    ['100-599', [[100, 599]]],
    [
      '301,302,307',
      [
        [301, 301],
        [302, 302],
        [307, 307],
      ],
    ],
    [Array(20).fill('200').join(','), Array(20).fill([200, 200])],
  ])('accepts %j', (text, ranges) => {
    expect(parseExpectStatus(text)).toEqual({ ok: true, ranges });
  });

  it.each<[string, string]>([
    ['', 'expected status is empty; use codes and ranges like 200-299,401'],
    ['   ', 'expected status is empty; use codes and ranges like 200-299,401'],
    ['200,', 'an entry between commas is empty; use codes and ranges like 200-299,401'],
    ['200,,300', 'an entry between commas is empty; use codes and ranges like 200-299,401'],
    ['abc', '"abc" is not a status code or range; use codes and ranges like 200-299,401'],
    ['2xx', '"2xx" is not a status code or range; use codes and ranges like 200-299,401'],
    ['200-', '"200-" is not a status code or range; use codes and ranges like 200-299,401'],
    ['1000', '"1000" is not a status code or range; use codes and ranges like 200-299,401'],
    ['99', '99 is not an HTTP status code (100-599)'],
    ['200-600', '600 is not an HTTP status code (100-599)'],
    ['299-200', 'range 299-200 runs backwards; write 200-299'],
    [Array(21).fill('200').join(','), 'at most 20 codes or ranges, got 21'],
  ])('rejects %j with a message for the user', (text, message) => {
    expect(parseExpectStatus(text)).toEqual({ ok: false, message });
  });
});

describe('statusMatches', () => {
  const ranges: StatusRange[] = [
    [200, 299],
    [401, 401],
  ];
  it.each<[number, boolean]>([
    [200, true],
    [250, true],
    [299, true],
    [401, true],
    [199, false],
    [300, false],
    [400, false],
    [402, false],
  ])('code %i matches 200-299,401: %s', (code, expected) => {
    expect(statusMatches(ranges, code)).toBe(expected);
  });
});
