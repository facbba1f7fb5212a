import {
  BLOCK_MS,
  FAILURE_WINDOW_MS,
  LONG_BLOCK_MS,
  bucketOfParam,
  countingFrom,
  decideBlock,
  throttleBucket,
} from './throttle';

const NOW = Date.UTC(2026, 10, 1, 12);

describe('throttleBucket', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::1', '2001:0db8:0001:0002::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0db8:0001:0002::/64'],
    ['2001:DB8:1:2::9', '2001:0db8:0001:0002::/64'],
    ['2001:db8:1:3::1', '2001:0db8:0001:0003::/64'],
    ['::1', '0000:0000:0000:0000::/64'],
    ['', 'unknown'],
    [null, 'unknown'],
  ])('puts %s in %s', (ip, bucket) => {
    expect(throttleBucket(ip)).toBe(bucket);
  });
});

describe('countingFrom', () => {
  it.each([
    ['no block yet: the last 15 minutes', null, NOW - FAILURE_WINDOW_MS],
    ['a block ended an hour ago', NOW - 3600_000, NOW - FAILURE_WINDOW_MS],
    ['a block ended 5 minutes ago: from its end', NOW - 300_000, NOW - 300_000],
  ])('%s', (_, lastEnd, from) => {
    expect(countingFrom(NOW, lastEnd)).toBe(from);
  });
});

describe('decideBlock', () => {
  it.each([
    ['4 failures', 4, 0, null],
    ['5 failures, first block of the day', 5, 0, { until: NOW + BLOCK_MS, reason: 'failures' }],
    ['5 failures, second block of the day', 5, 1, { until: NOW + BLOCK_MS, reason: 'failures' }],
    ['5 failures, third block of the day', 5, 2, { until: NOW + LONG_BLOCK_MS, reason: 'repeated' }],
    ['5 failures, fourth block of the day', 5, 3, { until: NOW + LONG_BLOCK_MS, reason: 'repeated' }],
    ['4 failures after two blocks', 4, 2, null],
  ] as const)('%s', (_, counted, blocks, decision) => {
    expect(decideBlock(counted, blocks, NOW)).toEqual(decision);
  });
});

describe('bucketOfParam', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::/64', '2001:0db8:0001:0002::/64'],
    ['2001:0db8:0001:0002::/64', '2001:0db8:0001:0002::/64'],
    ['2001:db8:1:2::77', '2001:0db8:0001:0002::/64'],
    ['2001:db8:1:2::/48', null],
    ['203.0.113.7/32', null],
    ['203.0.113.0/64', null],
    ['not-an-address', null],
    ['unknown', null],
    ['', null],
    ['1'.repeat(61), null],
  ])('reads %s as %s', (text, bucket) => {
    expect(bucketOfParam(text)).toBe(bucket);
  });
});
