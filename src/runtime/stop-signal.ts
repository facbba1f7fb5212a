/** Signals that stop `serve` and `agent` gracefully: checks finish, results are flushed, files close. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/** The first stop signal from now on. */
export function nextStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    // Handlers go after the first signal: a second one (Ctrl-C twice) stops at once, as usual.
    const stop = (signal: NodeJS.Signals) => {
      for (const s of STOP_SIGNALS) process.off(s, stop);
      resolve(signal);
    };
    for (const s of STOP_SIGNALS) process.on(s, stop);
  });
}
