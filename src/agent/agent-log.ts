/**
 * The agent's log: one line per event, through whatever the composition gives (main.ts hands it the
 * service's line logger). What the agent writes never holds the token or a monitor's settings:
 * lines name monitors by id and slug and requests by route. `withoutSecret` is the second guard,
 * for text that comes from outside (an error's message, a server's answer).
 */
export interface AgentLog {
  debug(line: string): void;
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** The text with every occurrence of each secret replaced by ********; long text cut to 300 characters. */
export function withoutSecret(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('********');
  return out.length > 300 ? `${out.slice(0, 300)}…` : out;
}

/** A log that drops everything: for tests that look at behaviour, not at lines. */
export const silentLog: AgentLog = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
