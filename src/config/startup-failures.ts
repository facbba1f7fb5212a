/**
 * What an operator reads when the service cannot start: one line that names the variable or the
 * path and says what to do. main.ts prints a StartupError's message as it is and exits 1; the
 * functions below turn the errors of the file system, SQLite and the network into such lines, or
 * return null for an error they do not know (which main.ts then reports without its stack).
 * Pure: no framework imports.
 */

/** A start-up failure explained for the operator. */
export class StartupError extends Error {}

interface CodedError {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  driverError?: unknown;
}

/** The error code of a Node or sqlite3 error, looking through TypeORM's QueryFailedError. */
export function errorCode(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const e = err as CodedError;
  if (typeof e.code === 'string') return e.code;
  return e.driverError !== undefined ? errorCode(e.driverError) : null;
}

function errorMessage(err: unknown): string {
  if (typeof err === 'object' && err !== null && typeof (err as CodedError).message === 'string') {
    return (err as { message: string }).message;
  }
  return String(err);
}

/** The data dir could not be created or used (mkdir, stat, a probe file). */
export function dataDirFailure(err: unknown, dir: string): string | null {
  const where = `FARSIGHT_DATA_DIR: ${dir}`;
  switch (errorCode(err)) {
    case 'EEXIST':
    case 'ENOTDIR':
      return `${where}: it or one of its parents is a file, not a directory; point FARSIGHT_DATA_DIR at a directory (or move the file away)`;
    case 'EACCES':
    case 'EPERM':
      return `${where}: permission denied; make it writable by the user farsight runs as (or choose another FARSIGHT_DATA_DIR)`;
    case 'EROFS':
      return `${where}: the file system is read-only; choose a FARSIGHT_DATA_DIR on a writable file system`;
    case 'ENOSPC':
      return `${where}: no space left on the device; free some space`;
    case 'ELOOP':
    case 'ENAMETOOLONG':
      return `${where}: the path cannot be resolved (${errorCode(err)}); choose another FARSIGHT_DATA_DIR`;
    default:
      return null;
  }
}

/**
 * The database could not be opened or read at start. `file` is the database file; the advice for
 * a damaged file is how to put back a copy made with `farsight backup`.
 */
export function databaseFailure(err: unknown, file: string): string | null {
  const code = errorCode(err);
  const message = errorMessage(err);
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || /SQLITE_(CORRUPT|NOTADB)/.test(message)) {
    return damagedDatabase(file, /NOTADB/.test(`${code} ${message}`) ? 'not a database' : 'malformed');
  }
  if (code === 'SQLITE_CANTOPEN' || /SQLITE_CANTOPEN/.test(message)) {
    return `${file}: cannot open the database file (is it a directory, or is its directory not writable?); check the path and that the user farsight runs as can write to it and to FARSIGHT_DATA_DIR`;
  }
  if (
    code === 'SQLITE_READONLY' ||
    code === 'SQLITE_PERM' ||
    code === 'SQLITE_AUTH' ||
    /SQLITE_(READONLY|PERM)/.test(message)
  ) {
    return `${file}: the database is read-only for this user; make the file, its -wal and -shm files and FARSIGHT_DATA_DIR writable by the user farsight runs as`;
  }
  if (code === 'SQLITE_FULL' || /SQLITE_FULL/.test(message)) {
    return `${file}: the disk is full; free some space in FARSIGHT_DATA_DIR`;
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || /SQLITE_(BUSY|LOCKED)/.test(message)) {
    return `${file}: the database stayed locked by another process for 5 s; stop whatever else has it open and start again`;
  }
  if (code === 'SQLITE_IOERR' || /SQLITE_IOERR/.test(message)) {
    return `${file}: the disk reported an I/O error; check the disk (dmesg), then restore a backup made with \`farsight backup\` if the file is damaged`;
  }
  return null;
}

export function damagedDatabase(file: string, why: string): string {
  return (
    `${file}: the database file is damaged (${why}); stop farsight, move ${file} and its -wal and -shm files aside, ` +
    `copy a backup made with \`farsight backup FILE\` to ${file}, and start again`
  );
}

/** The HTTP listener could not bind. `name` is the variable that holds the address. */
export function listenFailure(err: unknown, name: string, address: { host: string; port: number }): string | null {
  const shown = `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
  switch (errorCode(err)) {
    case 'EADDRINUSE':
      return `${name}: ${shown} is already in use by another program (\`ss -ltnp 'sport = :${address.port}'\` shows which); stop it or choose another port`;
    case 'EACCES':
    case 'EPERM':
      return `${name}: ${shown}: permission denied; ports below 1024 need the CAP_NET_BIND_SERVICE capability (the packaged unit has it), or choose a port above 1023`;
    case 'EADDRNOTAVAIL':
      return `${name}: ${shown}: this machine has no such address; use one of its addresses, or 0.0.0.0 / [::] for all`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${name}: ${shown}: the host name does not resolve; use an IP address`;
    default:
      return null;
  }
}

/** The last resort for an error nothing above recognised: its message on one line, no stack. */
export function unexpectedFailure(err: unknown): string {
  return `cannot start: ${errorMessage(err).split('\n')[0]} (set FARSIGHT_LOG_LEVEL=debug for details)`;
}
