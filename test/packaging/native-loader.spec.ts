/**
 * packaging/native-loader.js as it runs inside the single executable (node:sea stands in for the
 * SEA here): the addon is extracted to `<data>/.native/`, a directory 0700 and a file 0500
 * whatever the umask, and a directory or file left more open by an older version is narrowed.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ADDON = path.resolve(__dirname, '..', '..', 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
const bytes = fs.readFileSync(ADDON);
const expected = { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };

jest.mock('node:sea', () => ({ isSea: () => true, getAsset: () => new Uint8Array(bytes).buffer }), { virtual: true });

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

describe('native-loader in a single executable', () => {
  let dataDir: string;
  let savedUmask: number;
  let savedDataDir: string | undefined;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-native-test-'));
    savedDataDir = process.env.FARSIGHT_DATA_DIR;
    process.env.FARSIGHT_DATA_DIR = dataDir;
    savedUmask = process.umask(0);
  });
  afterEach(() => {
    process.umask(savedUmask);
    if (savedDataDir === undefined) delete process.env.FARSIGHT_DATA_DIR;
    else process.env.FARSIGHT_DATA_DIR = savedDataDir;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const load = () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS without types: the cast is its type
    const { loadNativeAddon } = require('../../packaging/native-loader.js') as {
      loadNativeAddon: (key: string, e: typeof expected, name: string) => { Database?: unknown };
    };
    return loadNativeAddon('native/node_sqlite3.node', expected, 'node_sqlite3');
  };
  const cached = () => path.join(dataDir, '.native', `node_sqlite3-${expected.sha256.slice(0, 16)}.node`);

  it('extracts the addon under umask 000 into a 0700 directory as a 0500 file, and loads it', () => {
    expect(load().Database).toEqual(expect.any(Function));
    expect(modeOf(path.join(dataDir, '.native'))).toBe('700');
    expect(modeOf(cached())).toBe('500');
  });

  it('narrows a cache directory and file that an older version left readable by others', () => {
    fs.mkdirSync(path.join(dataDir, '.native'), { mode: 0o755 });
    fs.writeFileSync(cached(), bytes, { mode: 0o555 });
    expect(load().Database).toEqual(expect.any(Function));
    expect([modeOf(path.join(dataDir, '.native')), modeOf(cached())]).toEqual(['700', '500']);
  });
});
