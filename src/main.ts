/**
 * The `farsight` command: `serve` (default), `setup-link`, `backup FILE`, `--version`, `--help`.
 * Config is read once here; a bad FARSIGHT_* value stops with one line naming the variable.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createApp } from './app';
import { issueSetupLink, ownerExists } from './auth/links';
import { systemClock } from './common/clock';
import { LineLogger } from './common/logger';
import { logUnhandledRejections } from './common/process-guards';
import { VERSION } from './common/version';
import { AppConfig, ConfigError, loadConfig } from './config/config';
import { openDatabase } from './db/data-source';
import { Database } from './db/database';

const USAGE = `Usage: farsight [command]

Commands:
  serve          run the service (default)
  setup-link     print the first-run setup link (exit 1 when the owner exists)
  backup FILE    write a consistent copy of the database to FILE while the service runs
  --version      print the version

Settings come from FARSIGHT_* environment variables (see docs/configuration.md).`;

async function main(argv: string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv;
  if (command === '--version' || command === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serve(config);
    case 'setup-link':
      return withDatabase(config, (db) => setupLink(config, db));
    case 'backup':
      if (rest.length !== 1) return fail('usage: farsight backup FILE');
      return withDatabase(config, (db) => backup(db, rest[0]));
    default:
      return fail(`unknown command "${command}"\n\n${USAGE}`);
  }
}

async function serve(config: AppConfig): Promise<number> {
  Logger.overrideLogger(new LineLogger(config.logLevel));
  const log = new Logger('farsight');
  logUnhandledRejections(log);
  const db = new Database(await openDatabase(config.dataDir));
  const app = await createApp({ config, db, clock: systemClock });
  if (!(await ownerExists(db.manager))) {
    const link = await issueSetupLink(db, systemClock.now(), config.publicUrl);
    log.log(`No owner yet. Finish setup at ${link.url} (valid 24 hours; \`farsight setup-link\` prints a new one)`);
  }
  await app.listen(config.listen.port, config.listen.host);
  log.log(`Farsight ${VERSION} listening on ${config.listen.host}:${config.listen.port}, public URL ${config.publicUrl}`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log.log(`${signal} received, shutting down`);
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  await app.close();
  await db.close();
  return 0;
}

async function setupLink(config: AppConfig, db: Database): Promise<number> {
  if (await ownerExists(db.manager)) {
    return fail(`the owner account already exists; sign in at ${config.publicUrl}`, 1);
  }
  const link = await issueSetupLink(db, systemClock.now(), config.publicUrl);
  process.stdout.write(`${link.url}\n`);
  return 0;
}

async function backup(db: Database, file: string): Promise<number> {
  const target = path.resolve(file);
  if (fs.existsSync(target)) return fail(`${target} already exists; choose a new file name`);
  await db.backupTo(target);
  process.stdout.write(`backup written to ${target} (${fs.statSync(target).size} bytes)\n`);
  return 0;
}

async function withDatabase(config: AppConfig, fn: (db: Database) => Promise<number>): Promise<number> {
  const db = new Database(await openDatabase(config.dataDir));
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

function fail(message: string, code = 2): number {
  process.stderr.write(`farsight: ${message}\n`);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof ConfigError) process.stderr.write(`farsight: ${err.message}\n`);
    else process.stderr.write(`farsight: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(err instanceof ConfigError ? 2 : 1);
  },
);
