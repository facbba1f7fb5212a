import { foldAffected } from './alert-events';
import type { AlertEvent, AlertMonitor } from './channel-kind';

const monitor = (id: number, name: string): AlertMonitor => ({
  id,
  name,
  slug: name,
  group: null,
  target: 'x',
  url: null,
  description: null,
  runbook_url: null,
});
const router = monitor(1, 'router');
const down = (m: AlertMonitor): AlertEvent => ({ type: 'down', at: 0, monitor: m, message: `${m.name} is down` });
const joined = (cause: AlertMonitor, name: string): AlertEvent => ({
  type: 'down',
  at: 0,
  monitor: cause,
  message: `${name} is down too, affected by the outage of ${cause.name}`,
  affected: { count: 1, names: [name], also: true },
});
const many = (n: number) => Array.from({ length: n }, (_, i) => joined(router, `svc-${i + 1}`));

describe('foldAffected', () => {
  it.each<[string, AlertEvent[], { message: string; affected?: unknown }[]]>([
    ['nothing to fold', [down(router)], [{ message: 'router is down' }]],
    [
      'joins in the batch of the cause’s down: one line with the count',
      [down(router), ...many(1000)],
      [
        {
          message: 'router is down; affected: 1,000 monitors (svc-1, svc-2, svc-3, svc-4, svc-5 and 995 more)',
          affected: { count: 1000, names: ['svc-1', 'svc-2', 'svc-3', 'svc-4', 'svc-5'] },
        },
      ],
    ],
    [
      'joins after the cause’s down went out: one "also affected" line',
      many(2),
      [
        {
          message: 'also affected by the outage of router: 2 monitors (svc-1, svc-2)',
          affected: { count: 2, names: ['svc-1', 'svc-2'], also: true },
        },
      ],
    ],
    [
      'other monitors’ events stay as they are, in their order',
      [down(monitor(2, 'dns')), joined(router, 'nas'), down(router)],
      [{ message: 'dns is down' }, { message: 'router is down; affected: 1 monitor (nas)' }],
    ],
  ])('%s', (_name, events, expected) => {
    expect(foldAffected(events)).toEqual(expected.map((e) => expect.objectContaining(e)));
  });
});
