import type { ImportAnswer } from '../import-document';
import type { KumaPlan } from './kuma-plan';
import { dropRefused, finishReport, reportText } from './kuma-report';

const plan = (): KumaPlan => ({
  source: 'Uptime Kuma 1.23 database',
  document: {
    service_export: 1,
    monitors: [
      { slug: 'a', channels: ['Ops'] },
      { slug: 'b', channels: [] },
    ],
    channels: [{ name: 'Ops' }],
    status_page: { title: 'x' },
  },
  entries: [
    { type: 'channel', kuma_id: 1, name: 'Ops', key: 'Ops', outcome: 'pending', reason: null, notes: [] },
    { type: 'monitor', kuma_id: 1, name: 'A', key: 'a', outcome: 'pending', reason: null, notes: [] },
    { type: 'monitor', kuma_id: 2, name: 'B', key: 'b', outcome: 'pending', reason: null, notes: [] },
    {
      type: 'monitor',
      kuma_id: 3,
      name: 'C',
      key: null,
      outcome: 'skipped',
      reason: 'kind docker not supported by this service version',
      notes: [],
    },
    { type: 'status_page', kuma_id: 1, name: 'x', key: null, outcome: 'pending', reason: null, notes: [] },
  ],
});
const answer = (over: Partial<ImportAnswer> = {}): ImportAnswer => ({
  dry_run: true,
  applied: false,
  created: [],
  updated: [],
  unchanged: [],
  errors: [],
  channels: { created: [], updated: [], unchanged: [], errors: [] },
  status_page: { changed: false, errors: [] },
  maintenance: { created: [], updated: [], unchanged: [], errors: [] },
  ...over,
});

describe('the Kuma report', () => {
  it('takes out what the import refuses, with its words, and the channel from the monitors naming it', () => {
    const p = plan();
    const refused = dropRefused(
      p,
      answer({
        channels: {
          created: [],
          updated: [],
          unchanged: [],
          errors: [{ name: 'Ops', index: 0, fields: [{ field: 'config.url', message: 'must be https' }] }],
        },
        errors: [{ slug: 'b', index: 1, fields: [{ field: 'http.url', message: 'bad' }] }],
      }),
    );
    expect(refused).toBe(true);
    expect(p.document.channels).toEqual([]);
    expect(p.document.monitors).toEqual([{ slug: 'a', channels: [] }]);
    expect(p.entries.map((e) => [e.name, e.outcome, e.reason, e.notes])).toEqual([
      ['Ops', 'skipped', 'refused by this service: config.url: must be https', []],
      ['A', 'pending', null, ['channels not imported, left out: Ops']],
      ['B', 'skipped', 'refused by this service: http.url: bad', []],
      ['C', 'skipped', 'kind docker not supported by this service version', []],
      ['x', 'pending', null, []],
    ]);
  });

  it('gives each item the outcome of the answer, counts them and prints them', () => {
    const r = finishReport(
      plan(),
      answer({
        created: ['a'],
        unchanged: ['b'],
        channels: { created: [], updated: ['Ops'], unchanged: [], errors: [] },
        status_page: { changed: true, errors: [] },
      }),
    );
    expect(r.counts).toEqual({ created: 1, updated: 2, unchanged: 1, skipped: 1 });
    expect(reportText(r)).toBe(
      [
        'Uptime Kuma 1.23 database: dry run, nothing changed',
        '1 would be created, 2 would be updated, 1 unchanged, 1 skipped',
        '',
        'would be updated channel "Ops"',
        'would be created monitor "A" (a)',
        'unchanged        monitor "B" (b)',
        'skipped          monitor "C": kind docker not supported by this service version',
        'would be updated status page "x"',
        '',
        'Run again with --apply to write it (one transaction; the service may keep running).',
        '',
      ].join('\n'),
    );
  });
});
