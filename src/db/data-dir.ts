/**
 * The data dir and the files Farsight keeps in it: created private (directory 0700, files 0600)
 * whatever the umask, and narrowed to their owner when an older version (or a permissive umask)
 * left them open to group or others. Failures become one StartupError line naming the path.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dataDirFailure, StartupError } from '../config/startup-failures';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

function euid(): number | null {
  return typeof process.geteuid === 'function' ? process.geteuid() : null;
}

/** Only our own files are tightened: chmod on someone else's file fails, and is not ours to decide. */
function ownedByUs(st: fs.Stats): boolean {
  const me = euid();
  return me === null || me === 0 || st.uid === me;
}

/**
 * Takes away what `allowed` does not grant (group and others), and never adds a permission: a
 * directory an operator made read-only stays read-only, and the start then says so.
 */
function narrowMode(file: string, st: fs.Stats, allowed: number): void {
  const narrowed = st.mode & allowed;
  if (narrowed !== (st.mode & 0o777)) fs.chmodSync(file, narrowed);
}

/** Creates the data dir if needed and checks that it is a directory this process can write to. */
export function prepareDataDir(dir: string): void {
  const fail = (err: unknown): never => {
    throw new StartupError(dataDirFailure(err, dir) ?? `FARSIGHT_DATA_DIR: ${dir}: ${(err as Error).message}`);
  };
  try {
    fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const st = fs.statSync(dir);
    if (!st.isDirectory()) fail(Object.assign(new Error('not a directory'), { code: 'ENOTDIR' }));
    if (ownedByUs(st)) narrowMode(dir, st, PRIVATE_DIR_MODE);
  } catch (err) {
    if (err instanceof StartupError) throw err;
    fail(err);
  }
  // SQLite only says SQLITE_CANTOPEN, without the path, when it cannot create its files: ask first.
  const probe = path.join(dir, `.write-test-${process.pid}`);
  try {
    fs.closeSync(fs.openSync(probe, 'wx', PRIVATE_FILE_MODE));
    fs.unlinkSync(probe);
  } catch (err) {
    fail(err);
  }
}

/**
 * Creates `file` (empty) with mode 0600 if it does not exist, and sets 0600 on it if it does.
 * SQLite gives the -wal and -shm files the mode of the database file, so this covers them too.
 */
export function ensurePrivateFile(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND, PRIVATE_FILE_MODE);
  } catch (err) {
    throw new StartupError(fileFailure(err, file));
  }
  try {
    const st = fs.fstatSync(fd);
    const narrowed = st.mode & PRIVATE_FILE_MODE;
    if (ownedByUs(st) && narrowed !== (st.mode & 0o777)) fs.fchmodSync(fd, narrowed);
  } finally {
    fs.closeSync(fd);
  }
}

/** Sets 0600 on each file that exists (left by an older version); creates none. */
export function restrictExisting(files: string[]): void {
  for (const file of files) {
    try {
      const st = fs.lstatSync(file);
      if (st.isFile() && ownedByUs(st)) narrowMode(file, st, PRIVATE_FILE_MODE);
    } catch {
      // absent (the common case) or not ours: nothing to tighten
    }
  }
}

function fileFailure(err: unknown, file: string): string {
  const code = (err as { code?: string }).code;
  if (code === 'EISDIR') return `${file} is a directory, not a file; move it away`;
  return dataDirFailure(err, file) ?? `${file}: ${(err as Error).message}`;
}
