import type { CheckRow } from './check-row';
import { FoldMemory, planWrite } from './fold-plan';
import type { WriteKind } from './write-hook';

const T = Date.UTC(2026, 10, 1);
const MIN = 60_000;
const row = (monitorId: number, at = T): CheckRow => ({
  monitor_id: monitorId,
  at,
  outcome: 0,
  latency: 5,
  dns: null,
  conn: null,
  tls: null,
  ttfb: null,
  status: null,
  error: null,
  info: null,
});
const memory = (m: Partial<FoldMemory>): FoldMemory => ({
  lastBucket: 3,
  unfolded: new Map(),
  spans: new Map(),
  cursor: 0,
  credit: 0,
  tick: T,
  everyMs: MIN,
  ...m,
});

interface Expected {
  bucket: number;
  folding: number[];
  added: [number, number][];
  dropThrough: number;
  cursor: number;
  credit: number;
}

describe('planWrite', () => {
  it.each<[string, WriteKind, CheckRow[], Partial<FoldMemory>, Expected]>([
    [
      'a commit with no fold owed logs its results in a new bucket, and their monitors become unfolded',
      'commit',
      [row(1), row(2, T - 5)],
      {},
      {
        bucket: 4,
        folding: [],
        added: [
          [1, 4],
          [2, 4],
        ],
        dropThrough: 3,
        cursor: 0,
        credit: 0,
      },
    ],
    [
      'a commit without results keeps the last bucket',
      'commit',
      [],
      {},
      { bucket: 3, folding: [], added: [], dropThrough: 3, cursor: 0, credit: 0 },
    ],
    [
      'a flush folds every unfolded monitor and every monitor with a result, and drops every bucket',
      'flush',
      [row(2)],
      {
        unfolded: new Map([
          [1, 2],
          [3, 3],
        ]),
      },
      { bucket: 4, folding: [1, 2, 3], added: [], dropThrough: 4, cursor: 0, credit: 0 },
    ],
    [
      'folds owed go to the next monitors after the cursor, and buckets an unfolded monitor still needs stay',
      'commit',
      [],
      {
        unfolded: new Map([
          [1, 2],
          [2, 2],
          [3, 3],
        ]),
        cursor: 1,
        tick: T - 40_000,
      },
      { bucket: 3, folding: [2, 3], added: [], dropThrough: 1, cursor: 3, credit: 0 },
    ],
    [
      'a share of a fold is carried to the next write',
      'commit',
      [],
      {
        unfolded: new Map([
          [1, 2],
          [2, 2],
        ]),
        tick: T - 45_000,
      },
      { bucket: 3, folding: [1], added: [], dropThrough: 1, cursor: 1, credit: 0.5 },
    ],
    [
      'a monitor waiting twice as long as it should folds anyway',
      'commit',
      [],
      { lastBucket: 1, unfolded: new Map([[5, 1]]), spans: new Map([[1, { lo: T, hi: T, t: T - 2 * MIN }]]) },
      { bucket: 1, folding: [5], added: [], dropThrough: 1, cursor: 0, credit: 0 },
    ],
  ])('%s', (_name, kind, rows, m, expected) => {
    const p = planWrite(kind, rows, memory(m), T);
    expect({ ...p, folding: [...p.folding].sort((a, b) => a - b), added: [...p.added] }).toMatchObject(expected);
    expect(p.tick).toBe(T);
  });

  it('spans the times of the results it logs', () => {
    expect(planWrite('commit', [row(1, T - 9), row(2, T + 4), row(1, T)], memory({}), T).span).toEqual({
      lo: T - 9,
      hi: T + 4,
      t: T,
    });
  });
});
