#!/usr/bin/env node
/**
 * Writes V8's code cache of the service's sea bundle for the single executable's main script
 * (packaging/sea-main.js), which compiles the bundle from a SEA asset and hands V8 this cache, as
 * Node's own `useCodeCache` does for a main script: compiled here, not run, with the same wrapper
 * and the same Node that the binary embeds (a cache of another V8 version or other flags is refused
 * by V8 at start, which then compiles as usual).
 *
 *   node packaging/sea-code-cache.js dist/sea/farsight.js    -> dist/sea/farsight.js.v8-cache
 */
'use strict';

const fs = require('node:fs');
const vm = require('node:vm');
const { wrap } = require('node:module');

const file = process.argv[2];
if (!file || !fs.existsSync(file)) {
  console.error('usage: node packaging/sea-code-cache.js BUNDLE (an existing file)');
  process.exit(1);
}
// The same source text and wrapper as sea-main.js compiles, or V8 refuses the cache.
const script = new vm.Script(wrap(fs.readFileSync(file, 'latin1')), { filename: 'bundle/farsight.js' });
const cache = script.createCachedData();
fs.writeFileSync(`${file}.v8-cache`, cache);
console.log(
  `sea-code-cache: ${file}.v8-cache (${(cache.length / 1024 / 1024).toFixed(2)} MiB, node ${process.version})`,
);
