import { GC_PROBE_LINE, medianSlope, minuteFloors, slope } from './soak';

describe('soak figures', () => {
  it.each([
    [
      'flat',
      [
        [0, 5],
        [60, 5],
        [120, 5],
      ],
      0,
    ],
    [
      'one per second',
      [
        [0, 0],
        [1, 1],
        [2, 2],
      ],
      1,
    ],
    [
      'falling',
      [
        [0, 10],
        [10, 0],
      ],
      -1,
    ],
    ['a single point', [[0, 3]], 0],
  ] as const)('slope: %s', (_name, points, expected) => {
    expect(slope(points.map(([x, y]) => ({ x, y })))).toBeCloseTo(expected, 9);
  });

  it.each([
    [
      'flat',
      [
        [0, 5],
        [60, 5],
        [120, 5],
      ],
      0,
    ],
    [
      'one per second',
      [
        [0, 0],
        [1, 1],
        [2, 2],
        [3, 3],
      ],
      1,
    ],
    [
      'falling',
      [
        [0, 10],
        [10, 0],
      ],
      -1,
    ],
    ['a single point', [[0, 3]], 0],
    [
      'two points at one time',
      [
        [5, 1],
        [5, 2],
      ],
      0,
    ],
    [
      'one outlier on a flat line',
      [
        [0, 5],
        [10, 5],
        [20, 5],
        [30, 9],
        [40, 5],
        [50, 5],
      ],
      0,
    ],
    [
      'one outlier on a rising line',
      [
        [0, 0],
        [10, 1],
        [20, 2],
        [30, 30],
        [40, 4],
        [50, 5],
        [60, 6],
      ],
      0.1,
    ],
  ] as const)('median slope: %s', (_name, points, expected) => {
    expect(medianSlope(points.map(([x, y]) => ({ x, y })))).toBeCloseTo(expected, 9);
  });

  it('takes the lowest handle count of each minute, at its middle', () => {
    const samples = Array.from({ length: 24 }, (_, i) => ({ t_s: 120 + i * 5, handles: i === 3 ? 280 : 25 + (i % 3) }));
    expect(minuteFloors(samples)).toEqual([
      { t_s: 150, handles: 25 },
      { t_s: 210, handles: 25 },
    ]);
  });

  it('leaves out a minute with fewer than half its samples (the reading taken as the run ends)', () => {
    const samples = [
      ...Array.from({ length: 12 }, (_, i) => ({ t_s: 240 + i * 5, handles: 26 })),
      { t_s: 300, handles: 212 },
    ];
    expect(minuteFloors(samples)).toEqual([{ t_s: 270, handles: 26 }]);
  });

  it.each([
    ['gc-probe: heap 52400128 external 3100000 rss 210000000', ['52400128', '3100000', '210000000']],
    ['[1:0x1]   100 ms: Mark-Compact 60.1 (70.2) -> 40.5 (69.0) MB, 12.1 / 0.0 ms', null],
    ['farsight: listening on 127.0.0.1:8080', null],
    ['gc-probe: heap 1 external 2', null],
  ] as const)('reads the probe line: %s', (line, expected) => {
    const m = GC_PROBE_LINE.exec(line);
    expect(m ? [m[1], m[2], m[3]] : null).toEqual(expected);
  });
});
