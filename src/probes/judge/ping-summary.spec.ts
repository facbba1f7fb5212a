import type { CheckError } from '../check-result';
import { judgePing, parsePingSummary, pingLatency, PingSummary } from './ping-summary';

const ALL_REPLIES = `PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.
64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.182 ms

--- 127.0.0.1 ping statistics ---
3 packets transmitted, 3 received, 0% packet loss, time 403ms
rtt min/avg/max/mdev = 0.041/0.111/0.182/0.070 ms
`;
const NO_REPLIES = `--- 203.0.113.5 ping statistics ---
2 packets transmitted, 0 received, +2 errors, 100% packet loss, time 202ms
`;
const SOME_LOST = `--- 10.0.0.1 ping statistics ---
3 packets transmitted, 1 received, +1 duplicates, 66.6667% packet loss, time 402ms
rtt min/avg/max/mdev = 12.345/12.355/12.365/0.010 ms
`;
const BUSYBOX = `--- 10.0.0.1 ping statistics ---
4 packets transmitted, 4 packets received, 0% packet loss
round-trip min/avg/max = 0.5/1.25/2.0 ms
`;

describe('parsePingSummary', () => {
  it.each<[string, string, PingSummary | null]>([
    [
      'all replies',
      ALL_REPLIES,
      { transmitted: 3, received: 3, loss_pct: 0, rtt: { min: 0.041, avg: 0.111, max: 0.182 } },
    ],
    ['no replies', NO_REPLIES, { transmitted: 2, received: 0, loss_pct: 100, rtt: null }],
    [
      'some lost, with duplicates',
      SOME_LOST,
      { transmitted: 3, received: 1, loss_pct: 66.7, rtt: { min: 12.345, avg: 12.355, max: 12.365 } },
    ],
    ['the busybox shape', BUSYBOX, { transmitted: 4, received: 4, loss_pct: 0, rtt: { min: 0.5, avg: 1.25, max: 2 } }],
    ['no summary at all', 'ping: socket: Operation not permitted\n', null],
  ])('reads %s', (_name, output, summary) => {
    expect(parsePingSummary(output)).toEqual(summary);
  });
});

describe('judgePing', () => {
  const summary = (received: number, transmitted = 3): PingSummary => ({
    transmitted,
    received,
    loss_pct: Math.round((1000 * (transmitted - received)) / transmitted) / 10,
    rtt: received ? { min: 1, avg: 2, max: 3 } : null,
  });

  it.each<[number, number | null]>([
    [3, null],
    [1, null],
    [3, 0],
    [2, 40],
    [2, 33.3],
  ])('passes with %i of 3 replies and max_loss_pct %p', (received, maxLoss) => {
    expect(judgePing(summary(received), maxLoss)).toBeNull();
  });

  it.each<[number, number | null, CheckError]>([
    [0, null, { code: 'no_reply', message: 'no reply to 3 of 3 pings' }],
    [0, 100, { code: 'no_reply', message: 'no reply to 3 of 3 pings' }],
    [2, 0, { code: 'packet_loss', message: '33.3% packet loss (2 of 3 replies), more than 0%' }],
    [1, 50, { code: 'packet_loss', message: '66.7% packet loss (1 of 3 replies), more than 50%' }],
  ])('fails with %i of 3 replies and max_loss_pct %p', (received, maxLoss, error) => {
    expect(judgePing(summary(received), maxLoss)).toEqual(error);
  });
});

describe('pingLatency', () => {
  it.each<[string, number | null]>([
    [ALL_REPLIES, 0.1],
    [SOME_LOST, 12.4],
    [NO_REPLIES, null],
  ])('is the average round trip to 0.1 ms', (output, latency) => {
    expect(pingLatency(parsePingSummary(output) as PingSummary)).toBe(latency);
  });
});
