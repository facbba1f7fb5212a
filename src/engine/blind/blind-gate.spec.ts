/** The blind gate as a service: a real database, a fake clock and a canary listening on 127.0.0.1. */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeClock } from '../../common/clock';
import { loadConfig } from '../../config/config';
import { openDatabase } from '../../db/data-source';
import { ENTITIES } from '../../entities';
import { Database } from '../../db/database';
import { EventBus } from '../../events/event-bus';
import { EventsService } from '../../events/events.service';
import { CheckResult, NO_PHASES } from '../../probes/check-result';
import { BLIND_NOTE, BlindGate } from './blind-gate';

const T0 = Date.UTC(2026, 10, 1);
const result = (outcome: 'up' | 'down', at: number): CheckResult => ({
  at_ms: at,
  outcome,
  latency_ms: 5,
  phases: { ...NO_PHASES },
  status: null,
  error: outcome === 'down' ? { code: 'timeout', message: 'timed out' } : null,
  cert: null,
  detail: null,
});

/** Every canary a test started, stopped after it (a failed expectation must not leave one listening). */
const stops: (() => void)[] = [];

/** A TCP listener that can be stopped and started again on the same port. */
async function canaryServer(): Promise<{ port: number; up(): Promise<void>; down(): Promise<void> }> {
  let server: net.Server | null = null;
  const sockets = new Set<net.Socket>();
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = net.createServer((s) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.end();
      });
      server.listen(port, '127.0.0.1', () => resolve((server!.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  stops.push(() => {
    for (const s of sockets) s.destroy();
    server?.close();
    server = null;
  });
  return {
    port,
    up: async () => void (await listen(port)),
    down: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server!.close(() => resolve());
        server = null;
      }),
  };
}

describe('BlindGate', () => {
  let dir: string;
  let db: Database;
  let clock: FakeClock;
  let bus: EventBus;
  let heard: { active: boolean; since: number }[];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-blind-'));
    db = new Database(await openDatabase(dir, ENTITIES));
    clock = new FakeClock(T0);
    bus = new EventBus();
    heard = [];
    bus.on('blind', (b) => heard.push(b));
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) stop();
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const gateFor = (canaries: string) =>
    new BlindGate(
      loadConfig({ FARSIGHT_DATA_DIR: dir, FARSIGHT_CANARIES: canaries }),
      clock,
      new EventsService(db, clock),
      bus,
    );
  const lines = async (kind: string) =>
    (await db.query<{ text: string }[]>('SELECT text FROM events WHERE kind = ? ORDER BY id', [kind])).map(
      (r) => r.text,
    );

  /** A gate over one local canary that has answered once. */
  const answeredOnce = async () => {
    const canary = await canaryServer();
    const gate = gateFor(`127.0.0.1:${canary.port}`);
    gate.judge(result('up', clock.now()), clock.now());
    await gate.settled();
    return { canary, gate };
  };

  it('goes blind when the canary that answered stops answering during a pile-up of failures, and back when it answers', async () => {
    const canary = await canaryServer();
    const gate = gateFor(`127.0.0.1:${canary.port}`);
    expect(gate.judge(result('up', clock.now()), clock.now())).toEqual({ counted: true, note: null });
    await gate.settled();
    expect(gate.status()).toEqual({ active: false, since: null, detection: 'ok' });

    await canary.down();
    clock.advance(20_000);
    for (let i = 0; i < 3; i++) {
      clock.advance(1_000);
      gate.judge(result('down', clock.now()), clock.now());
    }
    await gate.settled();
    const since = clock.now();
    expect(gate.status()).toMatchObject({ active: true, since });
    expect(gate.judge(result('down', clock.now()), clock.now())).toEqual({ counted: false, note: BLIND_NOTE });
    expect(gate.judge(result('up', clock.now()), clock.now())).toEqual({ counted: true, note: null });

    await canary.up();
    clock.advance(60_000);
    gate.judge(result('up', clock.now()), clock.now());
    await gate.settled();
    expect(gate.status()).toMatchObject({ active: false, since: null });
    expect(heard).toEqual([
      { active: true, since },
      { active: false, since },
    ]);
    expect(await lines('blind')).toEqual([
      expect.stringMatching(/^The service went offline: no canary that had answered is reachable \(127\.0\.0\.1:\d+\)/),
      'The service is online again after 60 s offline',
    ]);
    await canary.down();
  });

  it('judges a failure on a fresh probe: not counted right after the network is lost, counted as soon as it is back', async () => {
    const { canary, gate } = await answeredOnce();

    // One failure, no pile-up yet: the canaries are asked before it is judged.
    await canary.down();
    clock.advance(20_000);
    await gate.freshen(clock.now());
    expect(gate.judge(result('down', clock.now()), clock.now())).toEqual({ counted: false, note: BLIND_NOTE });

    // The network is back seconds later: the next failure is the target's, not ours.
    await canary.up();
    clock.advance(3_000);
    await gate.freshen(clock.now());
    expect(gate.status()).toMatchObject({ active: false });
    expect(gate.judge(result('down', clock.now()), clock.now())).toEqual({ counted: true, note: null });
    // A probe within FRESH_MS is reused, not repeated.
    clock.advance(1_000);
    await canary.down();
    await gate.freshen(clock.now());
    expect(gate.status()).toMatchObject({ active: false });
  });

  it('judges a failure that would confirm Down on answers newer than its check, however recent the last probe', async () => {
    const { canary, gate } = await answeredOnce();
    // The uplink is cut a second after a probe that was answered; a check starts after the cut.
    clock.advance(1_000);
    await canary.down();
    const checkStarted = clock.now();
    clock.advance(2_000);
    // Within FRESH_MS the old answer would do for an ordinary failure...
    await gate.freshen(clock.now());
    expect(gate.status()).toMatchObject({ active: false });
    // ...but not for one that confirms Down: the canaries are asked again, and it is not counted.
    await gate.freshen(clock.now(), checkStarted);
    expect(gate.status()).toMatchObject({ active: true });
    expect(gate.judge(result('down', checkStarted), clock.now())).toEqual({ counted: false, note: BLIND_NOTE });
    await gate.settled();
  });

  it('does not count a failure of a check that started while blind, even when it ends after the network is back', async () => {
    const { canary, gate } = await answeredOnce();
    await canary.down();
    clock.advance(20_000);
    await gate.freshen(clock.now());
    expect(gate.status()).toMatchObject({ active: true });

    // A check starts while blind; the network comes back while it waits for its timeout.
    const startedBlind = clock.now() + 500;
    await canary.up();
    clock.advance(2_500);
    await gate.freshen(clock.now());
    const endedAt = clock.now();
    expect(gate.status()).toMatchObject({ active: false });
    expect(gate.judge(result('down', startedBlind), clock.now())).toEqual({ counted: false, note: BLIND_NOTE });
    // One that started after the blind period ended is the target's failure.
    clock.advance(1_000);
    expect(gate.judge(result('down', endedAt), clock.now())).toEqual({ counted: true, note: null });
    expect(gate.judge(result('down', clock.now()), clock.now())).toEqual({ counted: true, note: null });
    await gate.settled();
    await canary.down();
  });

  it('never goes blind on a canary that has not answered since start, and says once that detection cannot work', async () => {
    const canary = await canaryServer();
    await canary.down();
    const gate = gateFor(`127.0.0.1:${canary.port}`);
    for (let i = 0; i < 5; i++) {
      clock.advance(61_000);
      expect(gate.judge(result('down', clock.now()), clock.now())).toEqual({ counted: true, note: null });
      await gate.settled();
    }
    expect(gate.status()).toEqual({ active: false, since: null, detection: 'unavailable' });
    expect(await lines('blind_detection')).toEqual([expect.stringMatching(/^Blind detection cannot work/)]);
    expect(heard).toEqual([]);
  });

  it('counts every result and probes nothing when canaries are off', async () => {
    const gate = gateFor('off');
    await gate.onApplicationBootstrap();
    for (let i = 0; i < 5; i++)
      expect(gate.judge(result('down', clock.now()), clock.now())).toEqual({ counted: true, note: null });
    expect(gate.status()).toEqual({ active: false, since: null, detection: 'off' });
    expect(await lines('blind_detection')).toEqual([expect.stringMatching(/^Blind detection is off/)]);
  });
});
