#!/usr/bin/env node
/**
 * Writes dist/sea/sea-config.json for `node --experimental-sea-config`: packaging/sea-main.js as main
 * script, the service's and the agent's bundles (with the service's V8 code cache, made by
 * packaging/sea-code-cache.js) as assets it picks from, every shipped file as an asset keyed by its
 * path relative to the project root (the keys that src/common/resources/resources.ts asks node:sea
 * for), plus the sqlite3 addon (packaging/native-loader.js).
 *
 *   node packaging/sea-config.js [--no-code-cache] [--bundle-dir dist/sea]
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { SQLITE3_ASSET_KEY } = require('./bundle.js');

const ROOT = path.resolve(__dirname, '..');
/** The sentinel postject looks for (build-binary.sh); assembled so that this file does not hold it whole. */
const SEA_FUSE = ['NODE_SEA_FUSE', 'fce680ab2cc467b6e072b8b5df1996b2'].join('_');
/** Kept in step with src/common/resources/resources.ts. */
const RESOURCE_MANIFEST_KEY = 'resources.json';
/** Folders whose files the app reads through readResource(); walked recursively (docs/: the served /docs pages). */
const ASSET_DIRS = ['views', 'public', 'docs'];

function walk(dir, out) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile() && !entry.name.startsWith('.')) out.push(full);
    else if (entry.isSymbolicLink()) throw new Error(`symbolic links are not embedded: ${path.relative(ROOT, full)}`);
  }
  return out;
}

function main() {
  const argv = process.argv.slice(2);
  let useCodeCache = true;
  let bundleDir = path.join(ROOT, 'dist/sea');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--no-code-cache') useCodeCache = false;
    else if (argv[i] === '--bundle-dir') bundleDir = path.resolve(ROOT, argv[++i]);
    else throw new Error(`unknown option ${argv[i]}`);
  }

  const service = path.join(bundleDir, 'farsight.js');
  const agent = path.join(bundleDir, 'agent.js');
  const serviceCache = path.join(bundleDir, 'farsight.js.v8-cache');
  const addon = path.join(bundleDir, 'node_sqlite3.node');
  for (const f of [service, agent, addon]) {
    if (!fs.existsSync(f))
      throw new Error(`${path.relative(ROOT, f)} is missing: run \`node packaging/bundle.js sea\` first`);
  }

  const assets = {};
  let assetBytes = 0;
  for (const dir of ASSET_DIRS) {
    for (const file of walk(path.join(ROOT, dir), [])) {
      const key = path.relative(ROOT, file).split(path.sep).join('/');
      // postject finds the SEA fuse by searching the binary for its sentinel string; a second copy
      // inside an asset (a doc quoting it) makes the injection fail with a puzzling message.
      if (fs.readFileSync(file).includes(SEA_FUSE))
        throw new Error(`${key} contains the SEA fuse string: write it differently (postject would find it twice)`);
      assets[key] = file;
      assetBytes += fs.statSync(file).size;
    }
  }
  // The binary cannot list its assets: this manifest (read by listResources()) is that list.
  const manifest = path.join(bundleDir, 'resources.json');
  fs.writeFileSync(manifest, JSON.stringify(Object.keys(assets).sort()) + '\n');
  assets[RESOURCE_MANIFEST_KEY] = manifest;
  assets[SQLITE3_ASSET_KEY] = addon;
  // The two bundles; packaging/sea-main.js, the main script, runs one of them.
  assets['bundle/farsight.js'] = service;
  assets['bundle/agent.js'] = agent;
  if (useCodeCache) {
    if (!fs.existsSync(serviceCache))
      throw new Error(
        `${path.relative(ROOT, serviceCache)} is missing: run \`node packaging/sea-code-cache.js ${path.relative(ROOT, service)}\` first, with the node that makes the blob`,
      );
    assets['bundle/farsight.js.v8-cache'] = serviceCache;
  }
  const main = path.join(bundleDir, 'main.js');
  fs.copyFileSync(path.join(__dirname, 'sea-main.js'), main);

  const config = {
    main,
    output: path.join(bundleDir, 'sea-prep.blob'),
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    // For the main script, a few lines: the service's bundle has its cache as an asset (above).
    useCodeCache,
    assets,
  };
  const out = path.join(bundleDir, 'sea-config.json');
  fs.writeFileSync(out, JSON.stringify(config, null, 2) + '\n');
  const files = Object.keys(assets).length - (useCodeCache ? 5 : 4);
  console.log(
    `sea-config: ${path.relative(ROOT, out)} (${files} files from ${ASSET_DIRS.join('/, ')}/ = ${(assetBytes / 1024).toFixed(1)} KiB, ` +
      `sqlite3 addon, the service's and the agent's bundles, useCodeCache=${useCodeCache})`,
  );
}

try {
  main();
} catch (err) {
  console.error(`sea-config: ${err.message}`);
  process.exit(1);
}
