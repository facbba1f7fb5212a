/**
 * `farsight agent`: reads the agent's settings (a bad one stops with one line naming it, exit 2),
 * gives it the service's line logger, and runs it until a stop signal (src/agent/agent.ts).
 */
import { loadAgentConfig } from './agent/agent-config';
import { runAgent } from './agent/agent';
import type { AgentLog } from './agent/agent-log';
import { LineLogger } from './runtime/logger';
import { logUnhandledRejections } from './runtime/process-guards';

export async function agentCommand(args: string[], stopSignal: Promise<string>): Promise<number> {
  if (args.length > 0) {
    process.stderr.write(
      'farsight: usage: farsight agent (settings from FARSIGHT_AGENT_* variables, docs/agents.md)\n',
    );
    return 2;
  }
  const config = loadAgentConfig();
  const lines = new LineLogger(config.logLevel);
  // Straight to the line logger: the agent loads nothing of Nest (its bundle holds none of it).
  logUnhandledRejections({ error: (line) => lines.error(line, 'agent') });
  const log: AgentLog = {
    debug: (line) => lines.debug(line, 'agent'),
    info: (line) => lines.log(line, 'agent'),
    warn: (line) => lines.warn(line, 'agent'),
    error: (line) => lines.error(line, 'agent'),
  };
  return runAgent(config, log, stopSignal);
}
