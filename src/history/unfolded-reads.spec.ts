import type { CheckRow } from './check-row';
import { BucketSpan, LogView, logSpan } from './unfolded-reads';

const row = (at: number): CheckRow => ({
  monitor_id: 1,
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
const view = (spans: BucketSpan[], waiting: number[]): LogView => ({
  buffer: waiting.map(row),
  unfolded: new Map(),
  spans: new Map(spans.map((s, i) => [i + 1, s])),
  lastBucket: spans.length,
});

describe('logSpan', () => {
  it.each<[string, BucketSpan[], number[], { oldest: number; newest: number } | null]>([
    ['nothing logged or waiting', [], [], null],
    ['only waiting results', [], [30, 10, 20], { oldest: 10, newest: 30 }],
    [
      'only buckets',
      [
        { lo: 5, hi: 9, t: 100 },
        { lo: 3, hi: 12, t: 200 },
      ],
      [],
      { oldest: 3, newest: 12 },
    ],
    [
      'both: a result still waiting may be older than the log',
      [{ lo: 5, hi: 9, t: 100 }],
      [2, 40],
      { oldest: 2, newest: 40 },
    ],
  ])('%s', (_name, spans, waiting, expected) => {
    expect(logSpan(view(spans, waiting))).toEqual(expected);
  });
});
