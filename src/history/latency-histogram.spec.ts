import {
  addTo,
  bucketValue,
  decodeHistogram,
  encodeHistogram,
  exactQuantile,
  Histogram,
  mergeEncoded,
  mergeInto,
  quantile,
} from './latency-histogram';

describe('latency histogram', () => {
  it.each([
    [[]],
    [[0]],
    [[1, 1, 1]],
    [[5, 80, 300, 300, 59_999]],
    [Array.from({ length: 1000 }, (_, i) => (i * 37) % 4000)],
  ])('round-trips through its stored form: %j', (values) => {
    const h: Histogram = {};
    for (const v of values) addTo(h, v);
    expect(decodeHistogram(encodeHistogram(h))).toEqual(h);
  });

  it('stores a typical hour in about two bytes a bucket', () => {
    const h: Histogram = {};
    for (let i = 0; i < 60; i++) addTo(h, 20 + i * 7);
    expect(encodeHistogram(h)!.length).toBeLessThanOrEqual(2 * Object.keys(h).length + 2);
  });

  it('refuses a truncated stored form', () => {
    expect(() => decodeHistogram(Buffer.from([0x85]))).toThrow('truncated');
  });

  it.each([0.5, 0.95, 0.99])('reads the %s quantile at most 4 %% above the exact one', (q) => {
    let seed = 3;
    const values = Array.from({ length: 500 }, () => 1 + ((seed = (seed * 48271) % 2147483647) % 3000));
    const h: Histogram = {};
    for (const v of values) addTo(h, v);
    const exact = exactQuantile(values, q)!;
    const read = quantile(h, q)!;
    expect(read).toBeGreaterThanOrEqual(exact);
    expect(read).toBeLessThanOrEqual(Math.ceil(exact * 1.04) + 1);
  });

  it('answers null for an empty histogram', () => {
    expect(quantile({}, 0.5)).toBeNull();
    expect(exactQuantile([], 0.5)).toBeNull();
    expect(bucketValue(0)).toBe(1);
  });
});

describe('mergeEncoded', () => {
  const h = (...pairs: [number, number][]): Record<number, number> => Object.fromEntries(pairs);
  it.each<[string, Record<number, number> | null, Record<number, number>]>([
    ['nothing stored', null, h([12, 1])],
    ['nothing to add', h([3, 2], [90, 1]), {}],
    ['a bucket before all stored ones', h([50, 2], [90, 1]), h([4, 1])],
    ['a bucket between', h([50, 2], [90, 1]), h([60, 3])],
    ['a bucket after all', h([50, 2], [90, 1]), h([400, 1])],
    ['to a stored bucket', h([50, 2], [90, 1]), h([90, 5])],
    [
      'several at once, a large count (multi-byte varints)',
      h([0, 1], [130, 200], [300, 7]),
      h([0, 4], [131, 1], [299, 1000], [500, 2]),
    ],
  ])('%s: the bytes of encode(decode + merge)', (_, stored, add) => {
    const bytes = stored ? encodeHistogram(stored) : null;
    const expected = decodeHistogram(bytes);
    mergeInto(expected, add);
    expect(mergeEncoded(bytes, add)).toEqual(encodeHistogram(expected));
  });
});
