/**
 * The commands that run on the service's data directory: `serve` (default), `setup-link`,
 * `enroll-link`, `backup FILE`, `restore FILE [--force]`, `import-kuma FILE`. main.ts loads this
 * file only for them, so `farsight agent` and `farsight health` never load the service (Nest, the
 * database, the engine): an agent on a small box stays small.
 */
import 'reflect-metadata';
import { INestApplication, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createApp } from './app';
import { issueSetupLink, ownerExists } from './auth/setup/links';
import { issueEnrollLink } from './auth/passkeys/enroll-link';
import { passkeyProblem } from './auth/passkeys/relying-party';
import { EventsService } from './events/events.service';
import { EngineService } from './engine/engine.service';
import { systemClock } from './common/clock';
import { collectOnceSoon, GROWING_FLAG, tuneHeap } from './runtime/heap-tuning';
import { LineLogger } from './runtime/logger';
import { logUnhandledRejections } from './runtime/process-guards';
import { SecretBoxError } from './db/secret-box';
import { databaseFailure, listenFailure, StartupError } from './config/startup-failures';
import { VERSION } from './common/version';
import { AppConfig, ConfigError, ListenAddress, loadConfig, rootRefusal } from './config/config';
import { unknownVariableWarnings } from './config/unknown-vars';
import { listenUrls } from './config/listen-urls';
import { loadSavedPublicUrl } from './settings/public-url';
import { DataDirLock } from './db/data-dir-lock';
import { PRIVATE_FILE_MODE, prepareDataDir } from './db/data-dir';
import { databasePath, openDatabase } from './db/data-source';
import { ENTITIES } from './entities';
import { Database } from './db/database';
import { readColumns } from './db/bulk-read';
import { startEngineReads } from './engine/live/start-reads';
import { loadSecretBox, SECRET_KEY_FILE } from './db/secret-key';
import { sealedSecretSample } from './catalog/monitors.repository';
import { restoreCommand } from './cli-restore';
import { importKumaCommand } from './cli-import-kuma';
import { startupDone } from './runtime/startup-done';
import { nextStopSignal } from './runtime/stop-signal';
import { fail, USAGE } from './cli-usage';

/** Runs `command` (anything but the ones main.ts answers itself); loadConfig's ConfigError names the variable. */
export async function serviceCommand(command: string, rest: string[]): Promise<number> {
  const config = loadConfig();
  const refusal = rootRefusal(config, process.geteuid?.() ?? null);
  if (refusal) throw new StartupError(refusal);
  switch (command) {
    case 'serve':
      return serve(config);
    case 'setup-link':
      return withDatabase(config, (db) => setupLink(config, db));
    case 'enroll-link':
      return withDatabase(config, (db) => enrollLink(config, db));
    case 'backup':
      if (rest.length !== 1) return fail('usage: farsight backup FILE');
      return withDatabase(config, (db) => backup(config, db, rest[0]));
    case 'restore':
      return restoreCommand(config, rest);
    case 'import-kuma':
      return importKumaCommand(config, rest);
    default:
      return fail(`unknown command "${command}"\n\n${USAGE}`);
  }
}

async function serve(config: AppConfig): Promise<number> {
  Logger.overrideLogger(new LineLogger(config.logLevel));
  const log = new Logger('farsight');
  logUnhandledRejections(log);
  for (const line of unknownVariableWarnings(Object.keys(process.env))) log.warn(line);
  // Caught from the start: a signal during start-up stops the service gracefully once it is up.
  const stopSignal = nextStopSignal();
  // Cleanups of what has been opened so far, newest first, run however serve ends.
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    prepareDataDir(config.dataDir);
    const lock = await DataDirLock.acquire(config.dataDir);
    cleanups.unshift(() => lock.release());
    // Before the database and the engine: a port in use is the most common failure and costs nothing to find.
    await assertCanListen(config.listen);
    const db = new Database(await openDatabase(config.dataDir, ENTITIES));
    cleanups.unshift(() => db.close());
    // The column names the engine's start reads need, read beside the secret key's check.
    readColumns(db).catch(() => undefined);
    const secrets = await loadSecretBox(config, () => sealedSecretSample((sql) => db.read(sql)));
    // SQLite runs the engine's big reads while the main thread wires the service (engine/live/start-reads.ts).
    const engineReads = await startEngineReads(db);
    const app = await createApp({ config, db, clock: systemClock, secrets, engineReads }, { holdChecks: true });
    cleanups.unshift(() => app.close());
    // Listening comes before the setup link, so a start that fails never hands out a link, and
    // before the first check, so it runs no check either (and checks do not slow the start).
    await listen(app, config.listen);
    app.get(EngineService).releaseChecks();
    // Start-up is done: the code cache is written now (under V8's flags as they were at compile
    // time), then the long-running heap is tuned, and one full collection makes the tuning count
    // at once. Start-up itself allocates fast (10,000 monitors loaded): a tight heap there cost
    // 130 ms of full collections.
    startupDone();
    if (tuneHeap().includes(GROWING_FLAG)) collectOnceSoon();
    const setupNeeded = !(await ownerExists(db.manager));
    for (const line of startLines(config, listenUrls(config.listen, os.networkInterfaces()), setupNeeded))
      log.log(line);
    if (setupNeeded) {
      const link = await issueSetupLink(db, systemClock.now(), config.publicUrl);
      const elsewhere =
        config.publicUrlSource === 'default'
          ? `; from another machine, put one of the addresses above in place of ${config.publicOrigin}`
          : '';
      log.log(
        `No owner yet. Finish setup at ${link.url} (valid 24 hours; \`farsight setup-link\` prints a new one${elsewhere})`,
      );
    }
    const passkeys = passkeyProblem(config.publicUrl);
    if (passkeys) log.log(`Note: ${passkeys} (docs/passkeys.md)`);
    const signal = await stopSignal;
    log.log(`${signal} received, shutting down`);
  } catch (err) {
    throw explainStartFailure(err, config);
  } finally {
    for (const cleanup of cleanups)
      await cleanup().catch((err: unknown) => log.error(`while stopping: ${String(err)}`));
  }
  log.log('stopped');
  return 0;
}

/** The first lines of a start: where the service can be opened, and where its public URL comes from. */
function startLines(config: AppConfig, urls: string[], setupNeeded: boolean): string[] {
  const lines = [`Farsight ${VERSION} listening on ${config.listen.host}:${config.listen.port}: ${urls.join(', ')}`];
  if (config.publicUrlSource === 'env') lines.push(`Public URL ${config.publicUrl} (FARSIGHT_PUBLIC_URL)`);
  else if (config.publicUrlSource === 'setting')
    lines.push(`Public URL ${config.publicUrl} (saved at first-run setup; FARSIGHT_PUBLIC_URL overrides it)`);
  else {
    const then = setupNeeded
      ? 'the setup page offers to save it as the public URL'
      : 'set FARSIGHT_PUBLIC_URL to it, so links in alerts and passkeys use it';
    lines.push(
      `Public URL ${config.publicUrl} (the default: FARSIGHT_PUBLIC_URL is not set). Open Farsight from another machine at one of the addresses above; ${then}`,
    );
  }
  return lines;
}

/** Binds and releases the listen address, so a port in use stops the start before anything runs. */
async function assertCanListen(address: ListenAddress): Promise<void> {
  const probe = net.createServer();
  await bind(probe, address);
  await new Promise((resolve) => probe.close(resolve));
}

/** Listens on the app's own server (not app.listen, which logs a second line of its own on failure). */
async function listen(app: INestApplication, address: ListenAddress): Promise<void> {
  await bind(app.getHttpServer() as Server, address);
}

function bind(server: net.Server, address: ListenAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (err: unknown) => {
      const line = listenFailure(err, 'FARSIGHT_LISTEN', address);
      reject(line ? new StartupError(line) : err);
    };
    server.once('error', failed);
    server.listen(address.port, address.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/** Turns what went wrong during start into the one line an operator reads. */
function explainStartFailure(err: unknown, config: AppConfig): unknown {
  if (err instanceof StartupError || err instanceof ConfigError) return err;
  if (err instanceof SecretBoxError) {
    return new StartupError(
      `${err.message}; restore the database from a backup made with \`farsight backup\`, with the secret key it was made with`,
    );
  }
  const line = databaseFailure(err, databasePath(config.dataDir));
  return line ? new StartupError(line) : err;
}

async function setupLink(config: AppConfig, db: Database): Promise<number> {
  if (await ownerExists(db.manager)) {
    return fail(`the owner account already exists; sign in at ${config.publicUrl}`, 1);
  }
  const link = await issueSetupLink(db, systemClock.now(), config.publicUrl);
  process.stdout.write(`${link.url}\n`);
  return 0;
}

async function enrollLink(config: AppConfig, db: Database): Promise<number> {
  if (!(await ownerExists(db.manager))) {
    return fail('there is no owner account yet: finish the first-run setup (`farsight setup-link` prints its link)', 1);
  }
  const link = await issueEnrollLink(db, new EventsService(db, systemClock), systemClock.now(), config.publicUrl);
  process.stdout.write(`${link.url}\n`);
  // The link still prints (stdout stays one line for scripts); the warning says why it cannot add a passkey here.
  const problem = passkeyProblem(config.publicUrl);
  if (problem) {
    process.stderr.write(
      `farsight: warning: this link adds a passkey, which cannot work at ${config.publicUrl}: ${problem}. ` +
        'For passkeys, set FARSIGHT_PUBLIC_URL to an https address with a host name (docs/passkeys.md), restart, and run enroll-link again\n',
    );
  }
  return 0;
}

async function backup(config: AppConfig, db: Database, file: string): Promise<number> {
  const target = path.resolve(file);
  // Created empty and private first (VACUUM INTO accepts an empty file): the copy holds everything the
  // database does, so it gets the database's 0600 whatever the umask, and 'wx' refuses to overwrite.
  try {
    const fd = fs.openSync(target, 'wx', PRIVATE_FILE_MODE);
    fs.fchmodSync(fd, PRIVATE_FILE_MODE);
    fs.closeSync(fd);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EEXIST') return fail(`${target} already exists; choose a new file name`);
    return fail(
      `cannot write ${target} (${code ?? (err as Error).message}); choose a path in a directory you can write to`,
      1,
    );
  }
  try {
    await db.backupTo(target);
  } catch (err) {
    fs.rmSync(target, { force: true });
    throw err;
  }
  process.stdout.write(`backup written to ${target} (${fs.statSync(target).size} bytes)\n`);
  // The key is not in the backup on purpose (a stolen backup alone opens no secret), so the owner
  // must keep the two together, or the restored monitors and channels lose their secrets.
  const key = config.secretKeyFile ?? path.join(config.dataDir, SECRET_KEY_FILE);
  process.stdout.write(
    `keep it together with a copy of the secret key ${key}: the backup does not contain it, and the monitor and channel secrets in the backup cannot be opened without it (docs/backup.md)\n`,
  );
  return 0;
}

async function withDatabase(config: AppConfig, fn: (db: Database) => Promise<number>): Promise<number> {
  try {
    const db = new Database(await openDatabase(config.dataDir, ENTITIES));
    try {
      // The links printed (setup-link, enroll-link) use the address saved at setup, as `serve` does.
      await loadSavedPublicUrl(db, config);
      return await fn(db);
    } finally {
      await db.close();
    }
  } catch (err) {
    throw explainStartFailure(err, config);
  }
}
