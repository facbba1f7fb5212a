/**
 * The `farsight` command: `serve` (default), `setup-link`, `enroll-link`, `backup FILE`,
 * `restore FILE [--force]`, `health [--timeout S]`, `import-kuma FILE [--apply] [--json]`, `agent`, `--version`, `--help`.
 * Config is read once (cli-service.ts); a bad FARSIGHT_* value stops with one line naming the variable (exit 2),
 * and any other start-up failure with one line naming the path or variable and what to do (exit 1).
 *
 * This file loads only what every command needs. `health` and `agent` are answered here; the
 * service's commands load cli-service.ts (and with it Nest, the database and the engine) when they
 * run. Built, `agent` does not even come here: the launcher (dist/main.js) and the single
 * executable run the agent's own bundle (agent-main.ts), which holds none of the service's code:
 * an idle agent is 50 MB resident instead of 82-86 MB (docs/agents.md, "Memory").
 */
import { VERSION } from './common/version';
import { healthCommand } from './cli-health';
import { agentCommand } from './cli-agent';
import { exitWhenDone } from './cli-exit';
import { USAGE } from './cli-usage';
import { nextStopSignal } from './runtime/stop-signal';

const stdio = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
};

async function main(argv: string[]): Promise<number> {
  // Everything this process creates (database, -wal/-shm, lock, key, backups) is for its user only,
  // whatever umask it was started with; files left by older versions are tightened where opened.
  process.umask(0o077);
  const [command = 'serve', ...rest] = argv;
  if (command === '--version' || command === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // Before loadConfig: a health check reads FARSIGHT_LISTEN alone (src/cli-health.ts).
  if (command === 'health') return healthCommand(rest, process.env, stdio);
  // Before loadConfig too: the agent has settings of its own and no data directory.
  if (command === 'agent') return agentCommand(rest, nextStopSignal());
  // Loaded here, not imported above: the service's whole module graph is evaluated only for its commands.
  const { serviceCommand } = await import('./cli-service');
  return serviceCommand(command, rest);
}

exitWhenDone(main(process.argv.slice(2)));
