import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SecretBox } from './secret-box';
import { StartupError } from '../config/startup-failures';
import { loadSecretBox } from './secret-key';

describe('loadSecretBox', () => {
  let dataDir: string;
  const none = async () => null;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-key-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const keyFile = () => path.join(dataDir, 'secret.key');

  async function startupError(p: Promise<unknown>): Promise<string> {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StartupError);
    return (err as StartupError).message;
  }

  it('creates secret.key on first start: 32 random bytes, 0600 even under umask 000, no temporary file left', async () => {
    const umask = process.umask(0);
    try {
      await loadSecretBox({ dataDir, secretKeyFile: null }, none);
    } finally {
      process.umask(umask);
    }
    expect(fs.readFileSync(keyFile())).toHaveLength(32);
    expect((fs.statSync(keyFile()).mode & 0o777).toString(8)).toBe('600');
    expect(fs.readdirSync(dataDir)).toEqual(['secret.key']);
  });

  it('uses the same key on the next start', async () => {
    const sealed = (await loadSecretBox({ dataDir, secretKeyFile: null }, none)).seal('token');
    const again = await loadSecretBox({ dataDir, secretKeyFile: null }, async () => sealed);
    expect(again.open(sealed)).toBe('token');
  });

  it('reads FARSIGHT_SECRET_KEY_FILE and never creates secret.key', async () => {
    const given = path.join(dataDir, 'credential');
    const key = randomBytes(32);
    fs.writeFileSync(given, `${key.toString('hex')}\n`);
    const box = await loadSecretBox({ dataDir, secretKeyFile: given }, none);
    expect(new SecretBox(key).open(box.seal('x'))).toBe('x');
    expect(fs.existsSync(keyFile())).toBe(false);
  });

  it('refuses a FARSIGHT_SECRET_KEY_FILE that vanished since the config was read, and creates nothing there', async () => {
    const given = path.join(dataDir, 'gone');
    const message = await startupError(loadSecretBox({ dataDir, secretKeyFile: given }, none));
    expect(message).toBe(`FARSIGHT_SECRET_KEY_FILE: ${given}: cannot read the secret key (ENOENT)`);
    expect(fs.existsSync(given)).toBe(false);
  });

  it.each<[string, Buffer]>([
    ['an empty file', Buffer.alloc(0)],
    ['a password', Buffer.from('hunter2\n')],
  ])('refuses a key file holding %s, naming the file and the formats', async (_what, content) => {
    fs.writeFileSync(keyFile(), content);
    const message = await startupError(loadSecretBox({ dataDir, secretKeyFile: null }, none));
    expect(message).toMatch(
      new RegExp(`^${keyFile()}: not a secret key: expected 32 random bytes, 64 hex digits or base64`),
    );
  });

  it('does not create a key when secret.key is missing but sealed values exist', async () => {
    const sealed = new SecretBox(randomBytes(32)).seal('token');
    const message = await startupError(loadSecretBox({ dataDir, secretKeyFile: null }, async () => sealed));
    expect(message).toMatch(
      new RegExp(`^${keyFile()} is missing, but the database holds monitor secrets sealed with it; `),
    );
    expect(fs.existsSync(keyFile())).toBe(false);
  });

  it("names channel secrets when the sealed value is a channel's (a backup whose monitors hold none)", async () => {
    const sealed = new SecretBox(randomBytes(32)).seal('token');
    const message = await startupError(
      loadSecretBox({ dataDir, secretKeyFile: null }, async () => sealed, 'channel secrets'),
    );
    expect(message).toMatch(
      new RegExp(`^${keyFile()} is missing, but the database holds channel secrets sealed with it; `),
    );
    fs.writeFileSync(keyFile(), randomBytes(32));
    const other = await startupError(
      loadSecretBox({ dataDir, secretKeyFile: null }, async () => sealed, 'channel secrets'),
    );
    expect(other).toMatch(
      new RegExp(`^${keyFile()}: this key does not open the channel secrets stored in the database`),
    );
  });

  it('refuses a key that does not open the stored values', async () => {
    fs.writeFileSync(keyFile(), randomBytes(32));
    const sealed = new SecretBox(randomBytes(32)).seal('token');
    const message = await startupError(loadSecretBox({ dataDir, secretKeyFile: null }, async () => sealed));
    expect(message).toMatch(
      new RegExp(`^${keyFile()}: this key does not open the monitor secrets stored in the database`),
    );
  });
});
