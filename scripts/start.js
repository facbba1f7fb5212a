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

const stale =
  !fs.existsSync(entry) ||
  ['src', 'migrations'].some((d) => newestMtime(path.join(root, d)) > fs.statSync(entry).mtimeMs);
if (stale) execSync('npm run build', { cwd: root, stdio: 'inherit' });

// The service runs in a session of its own, so that each stop signal reaches it exactly once,
// from here: Ctrl-C in a terminal signals the whole foreground group, and a service that heard it
// twice (from the terminal and from here) would take the second as "stop at once" and skip the
// graceful shutdown. It reads nothing from the terminal (stdin ignored); its output still goes there.
const child = spawn(process.execPath, [entry, ...process.argv.slice(2)], {
  stdio: ['ignore', 'inherit', 'inherit'],
  detached: true,
});
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let forwarded = 0;
const forward = (sig) => {
  forwarded += 1;
  if (child.exitCode === null && child.signalCode === null) child.kill(sig);
};
for (const sig of SIGNALS) process.on(sig, forward);

// A parent that dies without passing its signal on (a shell between npm and this script, or npm
// killed outright) leaves this script orphaned: that is then the stop request, unless a signal
// has already been passed on (npm exits at once after signalling, and a second SIGTERM would
// stop the service without its graceful shutdown).
const parent = process.ppid;
const orphanWatch = setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(orphanWatch);
    if (forwarded === 0) forward('SIGTERM');
  }
}, 250);

// Exits as the service did: with its code, or killed by the same signal.
child.on('exit', (code, signal) => {
  clearInterval(orphanWatch);
  if (signal) {
    for (const sig of SIGNALS) process.off(sig, forward);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 0);
});
