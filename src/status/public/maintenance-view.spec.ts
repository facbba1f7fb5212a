import { maintenanceViews, publicMaintenance } from './maintenance-view';

const NOW = Date.UTC(2026, 10, 1, 12);
const services = [
  { key: 1, name: 'Nextcloud' },
  { key: 2, name: 'Router' },
];
const base = { title: 'T', description: null, state: 'active' as const, starts_at: NOW, ends_at: NOW + 3_600_000 };

describe('publicMaintenance', () => {
  it.each<[string, number[] | null, string[] | null]>([
    ['every monitor: every public service, in page order', null, ['Nextcloud', 'Router']],
    ['only the public ones it names', [2, 99], ['Router']],
    ['none public: not shown', [99], null],
  ])('%s', (_why, monitors, names) => {
    const out = publicMaintenance([{ ...base, monitors }], services);
    expect(out.map((m) => m.services)).toEqual(names === null ? [] : [names]);
  });
});

describe('maintenanceViews', () => {
  it('says in words what runs, since when and until when, in the page zone', () => {
    const description = 'a *b*\n\n- [c](https://c.example/)\n- <d>';
    const [v] = maintenanceViews(publicMaintenance([{ ...base, monitors: null, description }], services), 60);
    expect(v).toEqual({
      title: 'T',
      descriptionHtml:
        '<p>a <em>b</em></p><ul><li><a href="https://c.example/" rel="noopener nofollow">c</a></li><li>&lt;d&gt;</li></ul>',
      stateText: 'In progress',
      when: 'Since 1 Nov 2026, 13:00 UTC+1, until 1 Nov 2026, 14:00 UTC+1',
      services: 'Affects Nextcloud, Router',
    });
  });

  it('says "until further notice" without an end', () => {
    const [v] = maintenanceViews(
      publicMaintenance([{ ...base, state: 'scheduled', ends_at: null, monitors: null }], services),
      0,
    );
    expect([v.stateText, v.when]).toEqual(['Planned', 'From 1 Nov 2026, 12:00 UTC, until further notice']);
  });
});
