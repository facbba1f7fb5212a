import {
  AlertDecision,
  ChannelTarget,
  decideAlert,
  MAX_TRIES,
  MonitorAlerting,
  nextReminder,
  noticeChannels,
  retryAt,
  unsentLine,
} from './alert-rules';

const all: ChannelTarget[] = [
  { id: 1, enabled: true, events: ['down', 'up', 'notice'] },
  { id: 2, enabled: true, events: ['down', 'up', 'slow', 'flapping', 'cert', 'reminder'] },
  { id: 3, enabled: false, events: ['down', 'up', 'notice'] },
];
const monitor = (over: Partial<MonitorAlerting> = {}): MonitorAlerting => ({
  channels: null,
  alert_on_slow: false,
  muted_until: null,
  paused: false,
  ...over,
});
const NOW = 1_000_000;

describe('decideAlert', () => {
  it.each([
    [
      'down to every enabled channel that takes it',
      'down',
      monitor(),
      false,
      { kind: 'send', type: 'down', channelIds: [1, 2] },
    ],
    ['[] means nobody', 'down', monitor({ channels: [] }), false, { kind: 'send', type: 'down', channelIds: [] }],
    [
      'a list picks those, disabled ones still skipped',
      'up',
      monitor({ channels: [2, 3] }),
      false,
      { kind: 'send', type: 'up', channelIds: [2] },
    ],
    ['slow needs alert_on_slow', 'slow', monitor(), false, { kind: 'none' }],
    [
      'slow with alert_on_slow',
      'slow',
      monitor({ alert_on_slow: true }),
      false,
      { kind: 'send', type: 'slow', channelIds: [2] },
    ],
    [
      'the return to normal is a slow event',
      'slow_end',
      monitor({ alert_on_slow: true }),
      false,
      { kind: 'send', type: 'slow', channelIds: [2] },
    ],
    ['a down held while flapping is held, not dropped', 'down', monitor(), true, { kind: 'held', type: 'down' }],
    ['an up held while flapping is held, not dropped', 'up', monitor(), true, { kind: 'held', type: 'up' }],
    [
      'a held down of a muted monitor is held (the mute is judged when it is released)',
      'down',
      monitor({ muted_until: NOW + 1 }),
      true,
      { kind: 'held', type: 'down' },
    ],
    ['reminders pause while flapping', 'reminder', monitor(), true, { kind: 'none' }],
    [
      'the flapping alert itself goes',
      'flapping',
      monitor(),
      false,
      { kind: 'send', type: 'flapping', channelIds: [2] },
    ],
    ['muted holds it back', 'down', monitor({ muted_until: NOW + 1 }), false, { kind: 'muted', type: 'down' }],
    [
      'a mute that ended does not',
      'down',
      monitor({ muted_until: NOW }),
      false,
      { kind: 'send', type: 'down', channelIds: [1, 2] },
    ],
    ['paused sends nothing', 'down', monitor({ paused: true }), false, { kind: 'none' }],
    ['cert', 'cert', monitor(), false, { kind: 'send', type: 'cert', channelIds: [2] }],
  ] as const)('%s', (_, cause, m, flapping, want) => {
    expect(decideAlert(cause, m, flapping, all, NOW)).toEqual(want);
  });

  it('sends notices to every enabled channel that takes them', () => expect(noticeChannels(all)).toEqual([1]));
});

describe('unsentLine', () => {
  it.each<[string, AlertDecision, string | null]>([
    ['a muted down', { kind: 'muted', type: 'down' }, 'down alert not sent: NAS is muted'],
    ['a muted up', { kind: 'muted', type: 'up' }, 'up alert not sent: NAS is muted'],
    [
      'a held down',
      { kind: 'held', type: 'down' },
      'down alert held: NAS is flapping; it is sent if NAS is still down when it settles',
    ],
    [
      'a held up',
      { kind: 'held', type: 'up' },
      'up alert held: NAS is flapping; it is sent if NAS is up when it settles',
    ],
    [
      'a down no channel takes',
      { kind: 'send', type: 'down', channelIds: [] },
      'down alert not sent: no enabled channel takes down alerts for NAS',
    ],
    ['an up no channel takes says nothing', { kind: 'send', type: 'up', channelIds: [] }, null],
    ['a sent down says nothing here (its delivery line does)', { kind: 'send', type: 'down', channelIds: [1] }, null],
    ['a slow no channel takes says nothing', { kind: 'send', type: 'slow', channelIds: [] }, null],
    ['nothing to send', { kind: 'none' }, null],
  ])('%s', (_, d, want) => expect(unsentLine('NAS', d)).toBe(want));
});

describe('retryAt', () => {
  it.each([
    [1, 30_000],
    [2, 120_000],
    [3, 600_000],
    [4, 1_800_000],
    [5, 7_200_000],
  ])('after %i failed tries waits %i ms', (tries, wait) => expect(retryAt(tries, NOW)).toBe(NOW + wait));
  it('gives up after six tries', () => {
    expect(MAX_TRIES).toBe(6);
    expect(retryAt(6, NOW)).toBeNull();
    expect(retryAt(0, NOW)).toBeNull();
  });
});

describe('nextReminder', () => {
  it.each([
    [0, 0, null],
    [15, 0, 15 * 60_000],
    [15, 15 * 60_000 - 1, 15 * 60_000],
    [15, 15 * 60_000, 30 * 60_000],
    [5, 61 * 60_000, 65 * 60_000],
  ])('every %i min, %i ms after Down: next at %s', (every, since, want) =>
    expect(nextReminder(0, every, since)).toBe(want),
  );
});
