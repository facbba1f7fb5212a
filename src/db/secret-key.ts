/**
 * The key that seals monitor secrets in the database (db/secret-box.ts). It lives outside the
 * database on purpose, so that a copied database file or a `farsight backup` alone reveals no
 * secret: `<data>/secret.key` (32 random bytes, 0600, created on first start), or the file named
 * by FARSIGHT_SECRET_KEY_FILE (e.g. a systemd credential), which is never created or changed.
 *
 * Start-up stops with one line, rather than losing secrets quietly, when the database holds
 * sealed values and the key is missing or is not the one they were sealed with.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSecretKey, SECRET_KEY_BYTES, SecretBox, SecretBoxError } from './secret-box';
import { StartupError } from '../config/startup-failures';
import { PRIVATE_FILE_MODE, restrictExisting } from './data-dir';

export const SECRET_KEY_FILE = 'secret.key';

const KEY_FORMATS = `expected ${SECRET_KEY_BYTES} random bytes, 64 hex digits or base64 of ${SECRET_KEY_BYTES} bytes (e.g. \`openssl rand -base64 32\`)`;

/**
 * Opens the secret box for this start. `sealedSample` answers one sealed value stored in the
 * database, or null when there is none (then a missing default key file may simply be created).
 */
export async function loadSecretBox(
  config: { dataDir: string; secretKeyFile: string | null },
  sealedSample: () => Promise<string | null>,
  /** What the sample was sealed for, as messages name it: a backup may hold channel secrets only. */
  sealedWhat: 'monitor secrets' | 'channel secrets' = 'monitor secrets',
): Promise<SecretBox> {
  const given = config.secretKeyFile;
  const file = given ?? path.join(config.dataDir, SECRET_KEY_FILE);
  const name = given ? `FARSIGHT_SECRET_KEY_FILE: ${file}` : file;
  let content: Buffer;
  try {
    if (!given) restrictExisting([file]);
    content = fs.readFileSync(file);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT' || given) {
      throw new StartupError(
        `${name}: cannot read the secret key (${(err as { code?: string }).code ?? (err as Error).message})`,
      );
    }
    if (await sealedSample()) {
      throw new StartupError(
        `${file} is missing, but the database holds ${sealedWhat} sealed with it; ` +
          'put the original secret.key back (it is not part of `farsight backup`), or point FARSIGHT_SECRET_KEY_FILE at it',
      );
    }
    content = createKeyFile(file);
  }
  const key = parseSecretKey(content);
  if (!key) throw new StartupError(`${name}: not a secret key: ${KEY_FORMATS}`);
  const box = new SecretBox(key);
  const sample = await sealedSample();
  if (sample !== null) {
    try {
      box.open(sample);
    } catch (err) {
      if (!(err instanceof SecretBoxError)) throw err;
      throw new StartupError(
        `${name}: this key does not open the ${sealedWhat} stored in the database (they were sealed with another key); ` +
          'put back the key file they were sealed with',
      );
    }
  }
  return box;
}

/** Written whole to a temporary file, then linked into place: a crash never leaves half a key. */
function createKeyFile(file: string): Buffer {
  const key = randomBytes(SECRET_KEY_BYTES);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      fs.fchmodSync(fd, PRIVATE_FILE_MODE);
      fs.writeSync(fd, key);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      // link() refuses to replace: a key another process put there meanwhile wins, and is used.
      fs.linkSync(tmp, file);
    } catch (err) {
      if ((err as { code?: string }).code === 'EEXIST') return fs.readFileSync(file);
      throw err;
    }
    return key;
  } catch (err) {
    throw new StartupError(
      `${file}: cannot create the secret key (${(err as { code?: string }).code ?? (err as Error).message})`,
    );
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
