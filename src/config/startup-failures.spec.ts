import { dataDirFailure, databaseFailure, errorCode, listenFailure, unexpectedFailure } from './startup-failures';

const coded = (code: string, message = `${code}: something`) => Object.assign(new Error(message), { code });
/** TypeORM's QueryFailedError keeps the driver's error in driverError. */
const wrapped = (code: string, message: string) =>
  Object.assign(new Error(message), { driverError: coded(code, message) });

describe('errorCode', () => {
  it.each<[unknown, string | null]>([
    [coded('EADDRINUSE'), 'EADDRINUSE'],
    [wrapped('SQLITE_CORRUPT', 'SQLITE_CORRUPT: database disk image is malformed'), 'SQLITE_CORRUPT'],
    [new Error('plain'), null],
    ['a string', null],
    [null, null],
  ])('reads the code of %p as %p', (err, code) => {
    expect(errorCode(err)).toBe(code);
  });
});

describe('dataDirFailure', () => {
  const dir = '/srv/farsight';

  it.each<[string, RegExp]>([
    ['EEXIST', /is a file, not a directory/],
    ['ENOTDIR', /is a file, not a directory/],
    ['EACCES', /permission denied; make it writable/],
    ['EPERM', /permission denied/],
    ['EROFS', /read-only/],
    ['ENOSPC', /no space left/],
  ])('explains %s with the variable, the path and what to do', (code, advice) => {
    const line = dataDirFailure(coded(code), dir) as string;
    expect(line).toMatch(/^FARSIGHT_DATA_DIR: \/srv\/farsight: /);
    expect(line).toMatch(advice);
    expect(line).not.toContain('\n');
  });

  it('leaves an error it does not know to the caller', () => {
    expect(dataDirFailure(coded('EWHATEVER'), dir)).toBeNull();
  });
});

describe('databaseFailure', () => {
  const file = '/srv/farsight/farsight.db';

  it.each<[string, unknown, RegExp]>([
    [
      'a file that is not a database',
      coded('SQLITE_NOTADB', 'SQLITE_NOTADB: file is not a database'),
      /damaged \(not a database\).*farsight backup/,
    ],
    [
      'a malformed database',
      wrapped('SQLITE_CORRUPT', 'SQLITE_CORRUPT: database disk image is malformed'),
      /damaged \(malformed\).*farsight backup/,
    ],
    [
      'a file SQLite cannot open',
      coded('SQLITE_CANTOPEN', 'SQLITE_CANTOPEN: unable to open database file'),
      /cannot open the database file/,
    ],
    [
      'a read-only database',
      coded('SQLITE_READONLY', 'SQLITE_READONLY: attempt to write a readonly database'),
      /read-only for this user/,
    ],
    ['a full disk', coded('SQLITE_FULL'), /disk is full/],
    ['a lock held too long', coded('SQLITE_BUSY'), /locked by another process/],
    ['an I/O error', coded('SQLITE_IOERR'), /I\/O error/],
  ])('explains %s, naming the file', (_what, err, advice) => {
    const line = databaseFailure(err, file) as string;
    expect(line.startsWith(`${file}: `)).toBe(true);
    expect(line).toMatch(advice);
    expect(line).not.toContain('\n');
  });

  it('says how to put a backup back for a damaged file', () => {
    expect(databaseFailure(coded('SQLITE_CORRUPT'), file)).toContain(
      `copy a backup made with \`farsight backup FILE\` to ${file}`,
    );
  });

  it('leaves an error it does not know to the caller', () => {
    expect(databaseFailure(coded('SQLITE_CONSTRAINT'), file)).toBeNull();
  });
});

describe('listenFailure', () => {
  it.each<[string, { host: string; port: number }, RegExp]>([
    ['EADDRINUSE', { host: '127.0.0.1', port: 9123 }, /^FARSIGHT_LISTEN: 127\.0\.0\.1:9123 is already in use/],
    [
      'EACCES',
      { host: '0.0.0.0', port: 80 },
      /^FARSIGHT_LISTEN: 0\.0\.0\.0:80: permission denied; ports below 1024 need/,
    ],
    [
      'EADDRNOTAVAIL',
      { host: '10.9.9.9', port: 8080 },
      /^FARSIGHT_LISTEN: 10\.9\.9\.9:8080: this machine has no such address/,
    ],
    ['EADDRINUSE', { host: '::1', port: 8080 }, /^FARSIGHT_LISTEN: \[::1\]:8080 is already in use/],
  ])('explains %s on %j', (code, address, line) => {
    expect(listenFailure(coded(code), 'FARSIGHT_LISTEN', address)).toMatch(line);
  });

  it('leaves an error it does not know to the caller', () => {
    expect(listenFailure(coded('ECONNRESET'), 'FARSIGHT_LISTEN', { host: '::', port: 1 })).toBeNull();
  });
});

describe('unexpectedFailure', () => {
  it('keeps the first line of the message and never the stack', () => {
    const err = new Error('first line\nsecond line');
    const line = unexpectedFailure(err);
    expect(line).toMatch(/^cannot start: first line /);
    expect(line).not.toContain('second line');
    expect(line).not.toContain('    at ');
  });
});
