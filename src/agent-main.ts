/**
 * The entry of the agent's own bundle (packaging/bundle.js: dist/agent.js, and the single
 * executable's asset agent.js): `farsight agent` and nothing else. The launcher (src/launcher.ts)
 * and the single executable's main script run it instead of the service's bundle when the command
 * is `agent`, so an agent never holds the service's 10 MB of code: idle, it is about the size of a
 * bare Node process (docs/agents.md, "Memory"). main.ts answers `agent` the same way when it is
 * run unbundled (tsc's output, the tests).
 */
import { agentCommand } from './cli-agent';
import { exitWhenDone } from './cli-exit';
import { nextStopSignal } from './runtime/stop-signal';

// As main.ts: what the agent creates (its spool) is for its user only, whatever the umask.
process.umask(0o077);
// Run only for `farsight agent ...` (argv[2] is `agent`, in a single executable too).
exitWhenDone(agentCommand(process.argv.slice(3), nextStopSignal()));
