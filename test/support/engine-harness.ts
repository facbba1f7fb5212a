/**
 * The app with an owner, a write key and a target server, for tests that drive the engine by
 * moving the fake clock: `advance(ms)` moves it, runs what is due and waits for it.
 */
import { EngineService } from '../../src/engine/engine.service';
import { CheckWriter } from '../../src/history/writer';
import { StartOptions, TestApp, createKey, createOwner, startApp } from './app';
import { SwitchServer, startSwitchServer } from './switch-server';

export interface EngineHarness {
  t: TestApp;
  write: string;
  /** The owner's session cookie. */
  cookie: string;
  engine: EngineService;
  writer: CheckWriter;
  target: SwitchServer;
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** `env`: FARSIGHT_* variables the app starts with, besides the test defaults. */
export async function startEngineHarness(
  opts: StartOptions = {},
  env: Record<string, string> = {},
): Promise<EngineHarness> {
  const target = await startSwitchServer();
  const t = await startApp(env, opts);
  const { cookie } = await createOwner(t);
  const write = await createKey(t, cookie, 'write');
  const h: EngineHarness = {
    t,
    write,
    cookie,
    target,
    get engine() {
      return h.t.app.get(EngineService);
    },
    get writer() {
      return h.t.app.get(CheckWriter);
    },
    async advance(ms: number) {
      h.t.clock.advance(ms);
      h.engine.tick();
      await h.engine.idle();
    },
    async close() {
      await h.t.close().catch(() => undefined);
      await target.close();
    },
  };
  return h;
}
