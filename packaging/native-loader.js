'use strict';
/**
 * Loads a native addon that is embedded in the single executable as a SEA asset. packaging/bundle.js
 * puts this file in place of node_modules/sqlite3/lib/sqlite3-binding.js in the sea bundle only.
 *
 * dlopen() needs a real file, so the addon is written once to a cache directory and reused while its
 * SHA-256 matches the one recorded at build time (an upgrade brings a new hash, hence a new file name):
 *   1. $FARSIGHT_DATA_DIR/.native/   when the data directory already exists (the service's state
 *                                    directory; survives restarts, writable under ProtectSystem=strict)
 *   2. $TMPDIR/farsight-native-<uid>/ otherwise (e.g. `farsight --version` must not create ./data)
 *   3. a fresh private temporary directory, removed right after loading (e.g. both are noexec)
 * The directory is 0700 and the file 0500 whatever the umask. A cached file is only trusted in a
 * directory that belongs to the current user and that nobody else can write to, so a root-run CLI never loads a file another user could have swapped; it is re-hashed
 * before every use, and written atomically (temporary file + rename) so a crash never leaves half a file.
 * Outside a SEA (`node dist/sea/farsight.js`) the copy that bundle.js puts beside the bundle is used.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');

function seaModule() {
  try {
    const sea = require('node:sea');
    return sea.isSea() ? sea : null;
  } catch {
    return null;
  }
}

function sha256(buf) {
  return crypto.createHash('sha256').update(buf).digest('hex');
}

function euid() {
  return typeof process.geteuid === 'function' ? process.geteuid() : null;
}

/** The addon is for this user alone: read and run by its owner, written by nobody once in place. */
const ADDON_MODE = 0o500;

/**
 * Creates dir if needed; throws unless it is a directory of ours that others cannot write to.
 * A directory that others can merely read (an older version made it under umask 022) is narrowed to
 * 0700; one they could write to is refused, since they might have put something in it.
 */
function privateDir(dir) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
  const me = euid();
  if (me !== null && st.uid !== me) throw new Error(`${dir} belongs to uid ${st.uid}, not ${me}`);
  if (st.mode & 0o022) throw new Error(`${dir} is writable by group or others`);
  if ((st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
}

function cachedFileIsGood(file, expected) {
  let st;
  try {
    st = fs.lstatSync(file);
  } catch {
    return false;
  }
  const me = euid();
  if (!st.isFile() || st.size !== expected.size || (st.mode & 0o022) !== 0) return false;
  if (me !== null && st.uid !== me) return false;
  if (sha256(fs.readFileSync(file)) !== expected.sha256) return false;
  if ((st.mode & 0o777) !== ADDON_MODE) fs.chmodSync(file, ADDON_MODE);
  return true;
}

function writeAtomically(dir, file, bytes) {
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'wx', ADDON_MODE);
  try {
    // The mode given to open() is narrowed by the umask only; set it exactly.
    fs.fchmodSync(fd, ADDON_MODE);
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

function dlopen(file) {
  const mod = { exports: {} };
  process.dlopen(mod, file, os.constants.dlopen.RTLD_NOW);
  return mod.exports;
}

/**
 * @param {string} assetKey SEA asset key of the addon
 * @param {{sha256: string, size: number}} expected recorded at build time
 * @param {string} name file name stem, e.g. node_sqlite3
 */
function loadNativeAddon(assetKey, expected, name) {
  const sea = seaModule();
  if (!sea) return dlopen(path.join(__dirname, `${name}.node`));

  let bytes = null;
  const asset = () => {
    if (!bytes) {
      bytes = Buffer.from(sea.getAsset(assetKey));
      if (bytes.length !== expected.size || sha256(bytes) !== expected.sha256) {
        throw new Error(`the embedded ${name}.node does not match its build-time hash`);
      }
    }
    return bytes;
  };

  const fileName = `${name}-${expected.sha256.slice(0, 16)}.node`;
  const dirs = [];
  const dataDir = path.resolve(process.env.FARSIGHT_DATA_DIR || './data');
  try {
    if (fs.statSync(dataDir).isDirectory()) dirs.push(path.join(dataDir, '.native'));
  } catch {
    // no data directory yet: do not create one as a side effect
  }
  dirs.push(path.join(os.tmpdir(), `farsight-native-${euid() ?? 'user'}`));

  const failures = [];
  for (const dir of dirs) {
    const file = path.join(dir, fileName);
    try {
      privateDir(dir);
      if (!cachedFileIsGood(file, expected)) writeAtomically(dir, file, asset());
      return dlopen(file);
    } catch (err) {
      failures.push(`${dir}: ${err && err.message}`);
    }
  }

  let tmpDir = null;
  try {
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-native-'));
    const file = path.join(tmpDir, fileName);
    writeAtomically(tmpDir, file, asset());
    // The mapping survives the unlink; nothing is left behind.
    return dlopen(file);
  } catch (err) {
    failures.push(`${tmpDir || os.tmpdir()}: ${err && err.message}`);
  } finally {
    if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  }
  throw new Error(`cannot load the embedded ${name}.node:\n  ${failures.join('\n  ')}`);
}

module.exports = { loadNativeAddon };
