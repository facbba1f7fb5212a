/**
 * Loaded into the built service (unbundled, `node --require dist/tsc/test/checkers/drivers/module-probe.js
 * dist/tsc/src/main.js serve`) by test/checkers/lazy-libraries.e2e-spec.ts: on SIGUSR2 it prints
 * which of the service kinds' client libraries Node has loaded so far, one line. MODULE_PROBE (a
 * comma-separated list of packages) asks about others (test/agent/agent-modules.e2e-spec.ts: the
 * agent loads none of the service's); an entry `file:<path>` asks about a file of ours instead
 * (loaded when a module's file name ends with that path: which bundle runs, a control). Test code:
 * the service knows nothing of it.
 */
const LIBRARIES = process.env.MODULE_PROBE?.split(',') ?? [
  'pg',
  'mysql2',
  'redis',
  'mqtt',
  '@grpc/grpc-js',
  '@grpc/proto-loader',
];

process.on('SIGUSR2', () => {
  const files = Object.keys(require.cache);
  const loaded = LIBRARIES.filter((name) =>
    name.startsWith('file:')
      ? files.some((file) => file.endsWith(`/${name.slice('file:'.length)}`))
      : files.some((file) => file.includes(`/node_modules/${name}/`)),
  );
  process.stdout.write(`module-probe: ${JSON.stringify(loaded)}\n`);
});
