import { storageFailureCode, StorageUnavailable } from './database';

const sqliteError = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code });

describe('storageFailureCode', () => {
  it.each<[string, unknown, string | null]>([
    ['a full disk', sqliteError('SQLITE_FULL', 'database or disk is full'), 'SQLITE_FULL'],
    ['an I/O error', sqliteError('SQLITE_IOERR', 'disk I/O error'), 'SQLITE_IOERR'],
    ['an extended I/O error code in the text only', new Error('SQLITE_IOERR_WRITE: disk I/O error'), 'SQLITE_IOERR_WRITE'],
    ['a read-only file', sqliteError('SQLITE_READONLY', 'attempt to write a readonly database'), 'SQLITE_READONLY'],
    ['a file that cannot be opened', sqliteError('SQLITE_CANTOPEN', 'unable to open database file'), 'SQLITE_CANTOPEN'],
    ['a constraint (a bug or a race, not storage)', sqliteError('SQLITE_CONSTRAINT', 'UNIQUE constraint failed'), null],
    ['a busy database (retried by the busy timeout)', sqliteError('SQLITE_BUSY', 'database is locked'), null],
    ['a plain error', new Error('boom'), null],
    ['not an error at all', 'SQLITE_FULL', null],
    ['null', null, null],
  ])('classifies %s', (_what, err, code) => {
    expect(storageFailureCode(err)).toBe(code);
  });
});

describe('StorageUnavailable', () => {
  it.each([
    ['SQLITE_FULL', 'the disk is full'],
    ['SQLITE_IOERR_WRITE', 'a disk input/output error'],
    ['SQLITE_READONLY', 'the database file is read-only'],
  ])('says what is wrong with %s and that nothing changed', (code, words) => {
    const e = new StorageUnavailable(code);
    expect(e.message).toContain(words);
    expect(e.message).toContain('nothing was changed');
  });
});
