/**
 * How a command's end becomes the process's: its exit code, or one line on stderr and exit 2 for a
 * bad FARSIGHT_* value (ConfigError), 1 for any other failure (a StartupError's message as it is;
 * anything else without its stack unless FARSIGHT_LOG_LEVEL=debug). Shared by the two entries,
 * main.ts and agent-main.ts, which are bundled apart (docs/agents.md, "Memory").
 */
import { ConfigError } from './config/config';
import { StartupError, unexpectedFailure } from './config/startup-failures';

export function exitWhenDone(run: Promise<number>): void {
  run.then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof ConfigError || err instanceof StartupError) {
        process.stderr.write(`farsight: ${err.message}\n`);
      } else {
        // Not an error we know how to explain: still one line; the stack only for whoever asks.
        process.stderr.write(`farsight: ${unexpectedFailure(err)}\n`);
        if (/^debug$/i.test(process.env.FARSIGHT_LOG_LEVEL?.trim() ?? '') && err instanceof Error)
          process.stderr.write(`${err.stack}\n`);
      }
      process.exit(err instanceof ConfigError ? 2 : 1);
    },
  );
}
