/** What `farsight --help` prints, and the one-line refusal of a command line (exit 2). */

export const USAGE = `Usage: farsight [command]

Commands:
  serve          run the service (default)
  setup-link     print the first-run setup link (exit 1 when the owner exists)
  enroll-link    print a break-glass link that adds a passkey and signs in (single use, 1 hour)
  backup FILE    write a consistent copy of the database to FILE while the service runs
  restore FILE [--force]
                 put a backup in place of the database (the service must be stopped;
                 --force replaces an existing database, which is kept beside it)
  health [--timeout SECONDS]
                 ask the running service at FARSIGHT_LISTEN for /api/health: exit 0 when
                 healthy, 1 with the reason otherwise (the container's HEALTHCHECK)
  import-kuma FILE [--apply] [--json] [--url URL]
                 import an Uptime Kuma database (kuma.db) or JSON backup through the running
                 service (admin API key in FARSIGHT_API_KEY); a dry run without --apply
  agent          run a probe agent: check the monitors of one location for a service on
                 another box (FARSIGHT_AGENT_SERVER, FARSIGHT_AGENT_TOKEN; docs/agents.md)
  --version      print the version

Settings come from FARSIGHT_* environment variables (see docs/configuration.md).`;

export function fail(message: string, code = 2): number {
  process.stderr.write(`farsight: ${message}\n`);
  return code;
}
