/**
 * The waiting lane of `npm test` (scripts/jest-lanes.sh): its list (scripts/waiting-suites.txt)
 * names suites that are there, once each, and its sequencer (scripts/waiting-order.js) runs them in
 * the list's order, with the suites that take the heavy tests' lock last (the other lane's crash
 * loop takes it within its first minutes; a listed suite that took it early would idle a worker);
 * the script, with a stand-in jest, gives each lane its suites and fails when either lane fails.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS without types: the cast is its type
const order = require('../../scripts/waiting-order.js') as {
  new (): { sort(tests: { path: string }[]): { path: string }[] };
  waitingSuites(): string[];
};

const ROOT = path.resolve(__dirname, '..', '..');
const listed = order.waitingSuites();
const takesLock = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8').includes('takeHeavyLock(');

describe('the waiting lane', () => {
  it('lists suites that exist, once each', () => {
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(listed).size).toBe(listed.length);
    for (const f of listed) {
      expect(f).toMatch(/^test\/.+\.e2e-spec\.ts$/);
      expect(fs.existsSync(path.join(ROOT, f))).toBe(true);
    }
  });

  it('lists the suites that take the heavy tests’ lock after every other', () => {
    const flags = listed.map(takesLock);
    expect(flags).toEqual([...flags].sort((a, b) => Number(a) - Number(b)));
  });

  it.each([
    ['the listed suites as the list does, whatever order jest gives', [...listed].reverse(), listed],
    [
      'a suite that is not listed after the listed ones',
      ['test/x.e2e-spec.ts', listed[0]],
      [listed[0], 'test/x.e2e-spec.ts'],
    ],
  ])('orders %s', (_, given, expected) => {
    const sorted = new order().sort(given.map((f) => ({ path: path.join(ROOT, f) })));
    expect(sorted.map((t) => path.relative(ROOT, t.path))).toEqual(expected);
  });
});

/**
 * scripts/jest-lanes.sh with a stand-in `jest` first on PATH: it prints its arguments, says which
 * lane it is, and exits with the status its lane is told to (FAKE_MAIN, FAKE_WAITING).
 */
function runLanes(main: number, waiting: number) {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-lanes-'));
  try {
    fs.writeFileSync(
      path.join(bin, 'jest'),
      [
        '#!/usr/bin/env bash',
        'if [[ " $* " == *" --runInBand "* ]]; then lane=waiting; code=$FAKE_WAITING; else lane=main; code=$FAKE_MAIN; fi',
        'printf "%s lane:" "$lane"; printf " %s" "$@"; echo',
        'exit "$code"',
      ].join('\n'),
      { mode: 0o755 },
    );
    return spawnSync('bash', [path.join(ROOT, 'scripts', 'jest-lanes.sh')], {
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        FAKE_MAIN: String(main),
        FAKE_WAITING: String(waiting),
      },
    });
  } finally {
    fs.rmSync(bin, { recursive: true, force: true });
  }
}

describe('scripts/jest-lanes.sh', () => {
  it('runs the listed suites in band in the waiting lane, and leaves them and the soak out of the other', () => {
    const r = runLanes(0, 0);
    expect(r.status).toBe(0);
    const line = (lane: string) => r.stdout.split('\n').find((l) => l.startsWith(`${lane} lane:`)) ?? '';
    const waiting = line('waiting').split(' ');
    expect(waiting).toEqual(expect.arrayContaining(['--runInBand', '--runTestsByPath', ...listed]));
    expect(waiting).toContain(path.join(ROOT, 'scripts', 'waiting-order.js'));
    const main = line('main').split(' ');
    expect(main).toEqual(expect.arrayContaining(['--testPathIgnorePatterns', '/node_modules/', '/test/faults/soak']));
    for (const f of listed) expect(main).toContain(`/${f.replace(/\./g, '\\.')}$`);
    // The waiting lane's report comes after the other's, whole.
    expect(r.stdout.indexOf('waiting lane:')).toBeGreaterThan(r.stdout.indexOf('main lane:'));
  });

  it.each([
    [1, 1, 0],
    [1, 0, 1],
    [2, 2, 1],
  ])('exits with %i when the workers’ lane exits with %i and the waiting lane with %i', (expected, main, waiting) => {
    expect(runLanes(main, waiting).status).toBe(expected);
  });
});
