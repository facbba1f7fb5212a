/**
 * `farsight agent` loads none of the service: main.ts answers `agent` before it loads
 * cli-service.ts, so Nest's application, express, TypeORM and SQLite are never evaluated in an
 * agent (an agent on a small box stays small: docs/agents.md). Checked on tsc's output, where
 * every package is a real `require` the module probe can see (test/checkers/drivers/module-probe.ts).
 * Needs `npm run build`.
 */
import * as path from 'node:path';
import { AgentProcess } from '../../harness/agent';
import { removeDir, ROOT, tempDir } from '../../harness/paths';
import { ProtocolServer } from './support/protocol-server';

const TOKEN = 'fsa_0123456789abcdef0123456789abcdef0123456789abcdef';
const ENTRY = path.join(ROOT, 'dist', 'tsc', 'src', 'main.js');
const PROBE = path.join(ROOT, 'dist', 'tsc', 'test', 'checkers', 'drivers', 'module-probe.js');
/** The service's own packages, and one the agent needs (the control: the probe sees what is loaded). */
const PACKAGES = ['@nestjs/core', '@nestjs/platform-express', 'express', 'typeorm', 'sqlite3', 'handlebars'];

it('runs without loading the service: no Nest application, express, TypeORM, SQLite or templates', async () => {
  const emulator = new ProtocolServer(TOKEN);
  const server = await emulator.listen();
  const spoolDir = tempDir('agent-modules');
  const agent = new AgentProcess({
    server,
    token: TOKEN,
    spoolDir,
    entry: ENTRY,
    nodeArgs: ['--require', PROBE],
    env: { MODULE_PROBE: [...PACKAGES, '@nestjs/common'].join(',') },
  });
  try {
    emulator.assign([]);
    await agent.waitForLine(/assignment \(revision \d+\) for location/);
    process.kill(agent.pid, 'SIGUSR2');
    const line = await agent.waitForLine(/^module-probe: /);
    const loaded = JSON.parse(line.slice('module-probe: '.length)) as string[];
    // The agent logs through Nest's Logger class (common/, not an application): the probe sees it.
    expect(loaded).toEqual(['@nestjs/common']);
  } finally {
    await agent.stop(5_000);
    await emulator.close();
    removeDir(spoolDir);
  }
});
