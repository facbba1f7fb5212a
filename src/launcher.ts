/**
 * dist/main.js: runs the service's bundle (dist/app.js, both written by `node packaging/bundle.js
 * dev`) from a V8 code cache, so a start does not compile 11 MB of JavaScript again; `agent` runs
 * the agent's own bundle (dist/agent.js) instead.
 *
 * Node 20 compiles every module at each start (module.enableCompileCache came in Node 22): for this
 * service about 450 ms of a 750 ms module load, and more for the functions start-up runs. The bundle
 * is compiled here with the bytecode of an earlier start (vm.Script `cachedData`); V8 checks that the
 * cache fits (its version, its flags, the source's length) and compiles as usual when it does not.
 *
 * The cache is written by the first `serve` that gets to listening (startupDone() in main.ts), so it
 * holds what start-up compiled: the modules, Nest's wiring, the engine's loading. It is written again
 * when V8 refused it (a new Node, other V8 flags: `serve` tunes the heap only after writing it, so
 * the flags it is made under are the ones of the next start's compile). The single executable does
 * not use this file: its code cache is built into the binary (packaging/sea-config.js, useCodeCache).
 *
 * Trust: the cache is bytecode that runs as this process, so it is only read from beside the bundle,
 * when it is a regular file that only its owner (this user or the bundle's) can write, and its name
 * carries the bundle's build id (a hash of app.js): a rebuilt bundle never meets an old cache, even
 * one of the same length. Writing is best effort (a read-only install starts without it), atomic
 * (temporary file + rename), and never fails the service.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import Module = require('node:module');
import { STARTED_HOOK } from './runtime/startup-done';

/** The first 16 hex digits of app.js's SHA-256: packaging/bundle.js defines it. */
declare const FARSIGHT_BUILD_ID: string;

/** What this file uses of node's CommonJS loader beyond its typings. */
interface Loader {
  _nodeModulePaths(dir: string): string[];
  _resolveFilename(request: string, parent: Module, isMain: boolean, options?: { paths?: string[] }): string;
  _cache: Record<string, Module>;
}

const BUNDLE = path.join(__dirname, 'app.js');
/** `farsight agent`'s own bundle (src/agent-main.ts): a few hundred KB, which Node compiles lazily and fast. */
const AGENT_BUNDLE = path.join(__dirname, 'agent.js');
const CACHE = path.join(__dirname, `app.js.${FARSIGHT_BUILD_ID}.v8-cache`);

function trustedCache(bundleUid: number): Buffer | undefined {
  try {
    const st = fs.lstatSync(CACHE);
    if (!st.isFile() || (st.mode & 0o022) !== 0) return undefined;
    const me = process.geteuid?.() ?? st.uid;
    if (st.uid !== me && st.uid !== bundleUid) return undefined;
    return fs.readFileSync(CACHE);
  } catch {
    return undefined;
  }
}

function writeCache(script: vm.Script): void {
  const tmp = `${CACHE}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(tmp, CACHE);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

function run(): void {
  // The bundle is ASCII (packaging/bundle.js makes sure): as latin1 it reads into the same string
  // about four times faster than as UTF-8, which would first look for multi-byte sequences.
  const source = fs.readFileSync(BUNDLE, 'latin1');
  const cachedData = trustedCache(fs.statSync(BUNDLE).uid);
  const script = new vm.Script(Module.wrap(source), { filename: BUNDLE, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    (globalThis as Record<symbol, unknown>)[STARTED_HOOK] = () => {
      delete (globalThis as Record<symbol, unknown>)[STARTED_HOOK];
      writeCache(script);
    };
  }
  // The bundle runs as the module dist/app.js would: its own require (sqlite3, which stays outside
  // the bundle, resolves from its folder), __filename and __dirname.
  const loader = Module as unknown as Loader;
  const app = new Module(BUNDLE, module);
  app.filename = BUNDLE;
  app.paths = loader._nodeModulePaths(__dirname);
  const req = ((id: string) => app.require(id)) as NodeJS.Require;
  req.resolve = ((request: string, options?: { paths?: string[] }) =>
    loader._resolveFilename(request, app, false, options)) as NodeJS.RequireResolve;
  req.main = require.main;
  req.cache = loader._cache;
  loader._cache[BUNDLE] = app;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(app.exports, app.exports, req, app, BUNDLE, __dirname);
  app.loaded = true;
}

// An agent loads its own small bundle, never the service's (docs/agents.md, "Memory").
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundle chosen at run time, not a module of this one
if (process.argv[2] === 'agent') require(AGENT_BUNDLE);
else run();
