'use strict';
/**
 * The single executable's main script (packaging/sea-config.js). It only picks a bundle: the two
 * bundles are SEA assets, `bundle/agent.js` (packaging/bundle.js, src/agent-main.ts) for
 * `farsight agent` and `bundle/farsight.js` (the service, src/main.ts) for every other command, and
 * the one asked for is compiled and run here as the main script would be.
 *
 * Why not the service's bundle as the main script, as before: Node keeps the main script's source
 * for the life of the process and compiles all of it, so every agent held the service's 10 MB of
 * code: an idle `farsight agent` was 87 MB resident (26.5 MB of it private), now 68 MB (15.4 MB
 * private; docs/agents.md, "Memory"). A second executable for the agent would double the package;
 * a SEA has one main script, so this one chooses.
 *
 * The service's bundle starts from V8's code cache (`bundle/farsight.js.v8-cache`, made at build
 * time by packaging/sea-code-cache.js with the same Node, as the SEA's own useCodeCache would): V8
 * checks that it fits (its version, flags, the source's length) and compiles as usual when it does
 * not, or when the asset is missing (the arm64 build, whose x64 builder cannot make an arm64 cache).
 * Measured against the service's bundle as the main script: the same CPU to a healthy start
 * (median 565 ms both, empty database) and the same private memory. The bundles are ASCII
 * (packaging/bundle.js), so latin1 is the right reading.
 *
 * Plain CommonJS that only requires built-in modules: in a SEA `require` loads nothing else.
 */
const sea = require('node:sea');
const vm = require('node:vm');
const { wrap } = require('node:module');

const AGENT = 'bundle/agent.js';
const SERVICE = 'bundle/farsight.js';
const SERVICE_CACHE = 'bundle/farsight.js.v8-cache';

/** An asset's bytes: `raw` reads them where the executable holds them (read-only: never written), else a copy. */
function asset(key, raw = false) {
  try {
    return Buffer.from(raw ? sea.getRawAsset(key) : sea.getAsset(key));
  } catch {
    return undefined;
  }
}

const key = process.argv[2] === 'agent' ? AGENT : SERVICE;
// Read in place: the string is made from the executable's pages, with no 10 MB copy between.
const code = asset(key, true);
if (code === undefined) {
  process.stderr.write(`farsight: this build lacks its ${key} (packaging/sea-config.js): rebuild it\n`);
  process.exit(1);
}
const cachedData = key === SERVICE ? asset(SERVICE_CACHE) : undefined;
const script = new vm.Script(wrap(code.toString('latin1')), { filename: key, cachedData });
// The bundle runs with this script's require (built-in modules only, as the SEA gives it), module
// and file names, exactly as if it were the main script.
script.runInThisContext().call(module.exports, module.exports, require, module, __filename, __dirname);
