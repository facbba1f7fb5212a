/**
 * `farsight agent` loads none of the service (an agent on a small box stays small: docs/agents.md,
 * "Memory"). Unbundled (tsc's output, where every package is a real `require` the module probe
 * sees: test/checkers/drivers/module-probe.ts), main.ts answers `agent` before it loads
 * cli-service.ts, so Nest, express, TypeORM, SQLite and Handlebars are never evaluated. Built
 * (`node dist/main.js agent`, as an operator runs it), the launcher runs the agent's own bundle,
 * dist/agent.js, and never the service's dist/app.js; the bundle holds none of the service's
 * packages. Needs `npm run build`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AgentProcess } from '../../harness/agent';
import { removeDir, ROOT, SERVICE_ENTRY, tempDir } from '../../harness/paths';
import { ProtocolServer } from './support/protocol-server';

const TOKEN = 'fsa_0123456789abcdef0123456789abcdef0123456789abcdef';
const TSC_ENTRY = path.join(ROOT, 'dist', 'tsc', 'src', 'main.js');
const PROBE = path.join(ROOT, 'dist', 'tsc', 'test', 'checkers', 'drivers', 'module-probe.js');
/** The service's own packages: none may be loaded. */
const SERVICE_PACKAGES = [
  '@nestjs/core',
  '@nestjs/common',
  '@nestjs/platform-express',
  'express',
  'typeorm',
  'sqlite3',
  'handlebars',
  'class-validator',
];

/** Runs an agent with the module probe, waits for its (empty) assignment, and answers what the probe saw. */
async function loadedBy(entry: string, asked: string[]): Promise<string[]> {
  const emulator = new ProtocolServer(TOKEN);
  const server = await emulator.listen();
  const spoolDir = tempDir('agent-modules');
  const agent = new AgentProcess({
    server,
    token: TOKEN,
    spoolDir,
    entry,
    nodeArgs: ['--require', PROBE],
    env: { MODULE_PROBE: asked.join(',') },
  });
  try {
    emulator.assign([]);
    await agent.waitForLine(/assignment \(revision \d+\) for location/);
    process.kill(agent.pid, 'SIGUSR2');
    const line = await agent.waitForLine(/^module-probe: /);
    return JSON.parse(line.slice('module-probe: '.length)) as string[];
  } finally {
    await agent.stop(5_000);
    await emulator.close();
    removeDir(spoolDir);
  }
}

it('unbundled, runs without loading the service: no Nest, express, TypeORM, SQLite or templates', async () => {
  // The control: a file of the agent's own, which the probe must see.
  const control = 'file:dist/tsc/src/agent/shipper.js';
  await expect(loadedBy(TSC_ENTRY, [...SERVICE_PACKAGES, control])).resolves.toEqual([control]);
});

it("built, `node dist/main.js agent` runs the agent's own bundle and never the service's", async () => {
  await expect(loadedBy(SERVICE_ENTRY, ['file:dist/app.js', 'file:dist/agent.js'])).resolves.toEqual([
    'file:dist/agent.js',
  ]);
});

it("the agent's bundle holds none of the service's packages, and is a fraction of the service's", () => {
  const info = JSON.parse(fs.readFileSync(path.join(ROOT, 'dist', 'agent-bundle.json'), 'utf8')) as {
    bytes: number;
    packages: string[];
  };
  expect(info.packages.filter((p) => SERVICE_PACKAGES.includes(p) || p.startsWith('@nestjs/'))).toEqual([]);
  // The service kinds' client libraries are in it (an agent checks postgres, mqtt... too).
  expect(info.packages).toEqual(expect.arrayContaining(['pg', 'mysql2', 'mqtt', '@grpc/grpc-js']));
  const service = fs.statSync(path.join(ROOT, 'dist', 'app.js')).size;
  expect(info.bytes).toBe(fs.statSync(path.join(ROOT, 'dist', 'agent.js')).size);
  expect(info.bytes).toBeLessThan(service / 2);
});
