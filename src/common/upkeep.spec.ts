import type { Logger } from '@nestjs/common';
import { execFileSync } from 'node:child_process';
import { nextLocalTime, UpkeepJob } from './upkeep';

const at = (iso: string) => Date.parse(iso);

/**
 * nextLocalTime in a node whose TZ is `zone` (jest's process.env is its own copy: setting TZ here
 * would not reach the clock). The function uses nothing outside itself.
 */
function nextLocalTimeIn(zone: string, now: number, hour: number, minute: number): string {
  const code = `const f = ${nextLocalTime.toString()}; process.stdout.write(new Date(f(${now}, ${hour}, ${minute})).toISOString())`;
  return execFileSync(process.execPath, ['-e', code], { env: { TZ: zone }, encoding: 'utf8' });
}

describe('nextLocalTime', () => {
  it.each([
    ['UTC', '2026-11-28T01:00:00.000Z', 3, 30, '2026-11-28T03:30:00.000Z'],
    ['UTC', '2026-11-28T03:30:00.000Z', 3, 30, '2026-11-29T03:30:00.000Z'],
    ['UTC', '2026-11-28T03:29:59.999Z', 3, 30, '2026-11-28T03:30:00.000Z'],
    ['UTC', '2026-12-31T23:00:00.000Z', 3, 30, '2027-01-01T03:30:00.000Z'],
    // Berlin: 03:30 is 02:30 UTC in winter, 01:30 UTC in summer, also on the nights the clocks change.
    ['Europe/Berlin', '2026-11-28T12:00:00.000Z', 3, 30, '2026-11-29T02:30:00.000Z'],
    ['Europe/Berlin', '2026-03-28T12:00:00.000Z', 3, 30, '2026-03-29T01:30:00.000Z'],
    ['Europe/Berlin', '2026-10-24T12:00:00.000Z', 3, 30, '2026-10-25T02:30:00.000Z'],
    // New York springs forward at 02:00: 02:30 does not exist that night and comes an hour later.
    ['America/New_York', '2026-03-07T12:00:00.000Z', 3, 30, '2026-03-08T07:30:00.000Z'],
    ['America/New_York', '2026-03-07T12:00:00.000Z', 2, 30, '2026-03-08T07:30:00.000Z'],
    ['Asia/Kolkata', '2026-11-28T00:00:00.000Z', 3, 30, '2026-11-28T22:00:00.000Z'],
  ])('%s, from %s, %i:%i is %s', (zone, now, hour, minute, expected) => {
    expect(nextLocalTimeIn(zone, at(now), hour, minute)).toBe(expected);
  });
});

describe('UpkeepJob', () => {
  let errors: string[];
  const log = { error: (line: string) => errors.push(line) } as unknown as Logger;

  beforeEach(() => {
    errors = [];
    // Local time, whatever zone the tests run in: 28 November 2026, 01:00.
    jest.useFakeTimers({ now: new Date(2026, 10, 28, 1, 0) });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs every interval until stopped', async () => {
    let runs = 0;
    const job = new UpkeepJob('prune', { everyMs: 1000 }, async () => void runs++, log);
    job.start();
    await jest.advanceTimersByTimeAsync(999);
    expect(runs).toBe(0);
    await jest.advanceTimersByTimeAsync(2001);
    expect(runs).toBe(3);
    job.stop();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(3);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('starts once however often start() is called', async () => {
    let runs = 0;
    const job = new UpkeepJob('prune', { everyMs: 1000 }, async () => void runs++, log);
    job.start();
    job.start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(1);
    job.stop();
  });

  it('never overlaps a run that is still going', async () => {
    let runs = 0;
    let finish = () => {};
    const job = new UpkeepJob(
      'prune',
      { everyMs: 1000 },
      () => {
        runs++;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      log,
    );
    job.start();
    await jest.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(1);
    finish();
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    job.stop();
  });

  it('logs a failed run and runs again at the next time', async () => {
    let runs = 0;
    const job = new UpkeepJob(
      'prune',
      { everyMs: 1000 },
      async () => {
        runs++;
        throw new Error('database is locked');
      },
      log,
    );
    job.start();
    await jest.advanceTimersByTimeAsync(2000);
    expect(runs).toBe(2);
    expect(errors).toEqual(['prune failed: database is locked', 'prune failed: database is locked']);
    job.stop();
  });

  it('runs a daily job at its local time, once a day', async () => {
    const times: string[] = [];
    const job = new UpkeepJob(
      'retention',
      { dailyAt: { hour: 3, minute: 30 } },
      async () => void times.push(new Date().toISOString()),
      log,
    );
    job.start();
    await jest.advanceTimersByTimeAsync(new Date(2026, 10, 28, 3, 30).getTime() - 1 - Date.now());
    expect(times).toEqual([]);
    await jest.advanceTimersByTimeAsync(2 * 24 * 3600_000);
    expect(times).toEqual([new Date(2026, 10, 28, 3, 30).toISOString(), new Date(2026, 10, 29, 3, 30).toISOString()]);
    job.stop();
  });
});
