#!/usr/bin/env node
// `npm start`: build when dist/ is missing or older than the sources, then serve.
'use strict';
const { execSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const entry = path.join(root, 'dist', 'main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

const stale = !fs.existsSync(entry) ||
  ['src', 'migrations'].some((d) => newestMtime(path.join(root, d)) > fs.statSync(entry).mtimeMs);
if (stale) execSync('npm run build', { cwd: root, stdio: 'inherit' });

const child = spawn(process.execPath, [entry, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
