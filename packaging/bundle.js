#!/usr/bin/env node
/**
 * Bundles the tsc output (never the .ts sources: esbuild cannot emit the decorator metadata Nest needs).
 *
 *   node packaging/bundle.js dev   dist/tsc/src/main.js -> dist/app.js, npm packages inlined but sqlite3,
 *                                  and dist/main.js, the launcher that runs it from a V8 code cache
 *                                  (what `npm run build` runs after tsc; `node dist/main.js <command>`),
 *                                  and dist/tsc/src/agent-main.js -> dist/agent.js, the agent's own
 *                                  bundle, which the launcher runs for `agent`
 *   node packaging/bundle.js sea   dist/tsc/src/main.js -> dist/sea/farsight.js, everything inlined, and
 *                                  the agent's dist/sea/agent.js: the two bundles the single executable's
 *                                  main script (packaging/sea-main.js) picks from (packaging/build-binary.sh)
 *
 * Options: --entry FILE (default dist/tsc/src/main.js), --outfile FILE, --minify full|whitespace|none (sea),
 *          --no-minify (= --minify none), --analyze (print what takes the space),
 *          --addon FILE (sea: the sqlite3 addon to embed, default the one npm built for this machine;
 *          packaging/build-binary-arm64.sh passes the cross-built arm64 one, whose hash the bundle holds).
 *
 * Inside a SEA `require` only loads built-in modules, so the sea bundle must contain every module the
 * app uses. Modules that Nest, TypeORM and friends probe lazily and that Farsight does not use are left
 * out on purpose (OPTIONAL below); a banner wraps `require` so that asking for one of them throws the
 * same MODULE_NOT_FOUND error as an uninstalled package (and, with FARSIGHT_TRACE_OPTIONAL=1, says so
 * on stderr), whether the bundle runs inside the SEA or under a plain `node`. Any other module that
 * esbuild could not inline fails the build.
 *
 * sqlite3's own loader (lib/sqlite3-binding.js, via the `bindings` package) searches node_modules for
 * the .node file; the sea bundle replaces it with packaging/native-loader.js, which takes the addon
 * from a SEA asset, extracts it once to a private cache and loads it with process.dlopen.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { isBuiltin } = require('node:module');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..');
const SQLITE3_ADDON = path.join(ROOT, 'node_modules/sqlite3/build/Release/node_sqlite3.node');
/** The SEA asset key of the sqlite3 addon; outside views/ and public/ so it can never collide. */
const SQLITE3_ASSET_KEY = 'native/node_sqlite3.node';

/**
 * Packages (and their subpaths) that are required lazily by our dependencies, guarded by try/catch
 * or by a configuration we do not use, and that are deliberately not in the binary.
 */
const OPTIONAL = [
  // Nest: transports and integrations we do not use (NestApplication probes the first two at start)
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@nestjs/platform-fastify',
  '@nestjs/platform-socket.io',
  '@nestjs/platform-ws',
  '@nestjs/graphql',
  '@nestjs/swagger',
  '@fastify/static',
  '@fastify/view',
  '@fastify/cors',
  '@fastify/formbody',
  '@fastify/middie',
  '@mikro-orm/core',
  // `@grpc/grpc-js` is not here: the grpc monitor kind uses it (src/probes/services/grpc.ts, required
  // lazily); its health service is defined in code, so proto-loader (Nest's, for .proto files) stays out
  '@grpc/proto-loader',
  'amqplib',
  'amqp-connection-manager',
  'kafkajs',
  // `mqtt` is not here: the mqtt monitor kind uses it (src/probes/services/mqtt.ts, required lazily)
  'nats',
  'cache-manager',
  'fastify',
  // TypeORM: every driver but sqlite3 (which the app passes in as `driver`); `pg` and `mysql2` are not
  // among them since the postgres and mysql monitor kinds use them (src/probes/services/, required lazily)
  'mysql',
  'pg-native',
  'pg-query-stream',
  'oracledb',
  'mssql',
  'redis',
  'ioredis',
  'mongodb',
  'sql.js',
  'better-sqlite3',
  '@sap/hana-client',
  'hdb-pool',
  'typeorm-aurora-data-api-driver',
  'react-native-sqlite-storage',
  '@google-cloud/spanner',
  '@sqltools/formatter/lib/languages/plsql',
  'expo-sqlite',
  '@capacitor-community/sqlite',
  'sqlite3-offline',
  'nativescript-sqlite',
  // misc optional peers: TS/ESM loaders, native speedups, source-map support for handlebars
  'ts-node',
  'typescript',
  'source-map',
  'bufferutil',
  'utf-8-validate',
  'supports-color',
  'encoding',
  'canvas',
  'cpu-features',
  'aws4',
  'snappy',
  'kerberos',
  'mongodb-client-encryption',
  '@aws-sdk/credential-providers',
  'gcp-metadata',
  'socks',
  'pnpapi',
  'class-transformer/storage',
];

/**
 * esbuild minification levels for the sea bundle. keepNames is always on (Nest DI tokens and TypeORM
 * entity metadata use class names), so even `full` keeps every class and function name.
 */
const MINIFY = {
  none: {},
  whitespace: { minifyWhitespace: true },
  full: { minify: true },
};
const DEFAULT_MINIFY = 'whitespace';

function isOptional(id) {
  return OPTIONAL.some((name) => id === name || id.startsWith(name + '/'));
}

function parseArgs(argv) {
  const args = {
    mode: argv[0],
    entry: 'dist/tsc/src/main.js',
    outfile: null,
    minify: DEFAULT_MINIFY,
    analyze: false,
    addon: SQLITE3_ADDON,
  };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--entry') args.entry = argv[++i];
    else if (a === '--outfile') args.outfile = argv[++i];
    else if (a === '--minify') args.minify = argv[++i];
    else if (a === '--no-minify') args.minify = 'none';
    else if (a === '--analyze') args.analyze = true;
    else if (a === '--addon') args.addon = path.resolve(ROOT, argv[++i] ?? '');
    else throw new Error(`unknown option ${a}`);
  }
  if ((args.mode !== 'dev' && args.mode !== 'sea') || !MINIFY[args.minify]) {
    throw new Error(
      `usage: node packaging/bundle.js dev|sea [--entry FILE] [--outfile FILE] [--minify ${Object.keys(MINIFY).join('|')}] [--no-minify] [--analyze] [--addon FILE]`,
    );
  }
  args.entry = path.resolve(ROOT, args.entry);
  args.outfile = path.resolve(ROOT, args.outfile || (args.mode === 'dev' ? 'dist/main.js' : 'dist/sea/farsight.js'));
  return args;
}

function requireEntry(entry) {
  if (!fs.existsSync(entry)) {
    throw new Error(`${path.relative(ROOT, entry)} does not exist: run \`npx tsc -p tsconfig.build.json\` first`);
  }
}

/** What both bundles share. keepNames: Nest and TypeORM read class names at run time. */
function baseOptions(args) {
  return {
    entryPoints: [args.entry],
    outfile: args.outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    keepNames: true,
  };
}

/**
 * dist/app.js holds the service and its npm packages (sqlite3 stays outside: its loader finds its
 * .node file in node_modules), so a start reads one file instead of resolving ~900 modules, and
 * dist/main.js is src/launcher.ts (bundled), which runs app.js from a V8 code cache. Optional packages
 * stay runtime requires, as in the sea bundle.
 */
async function bundleDev(args) {
  requireEntry(args.entry);
  const dir = path.dirname(args.outfile);
  const appFile = path.join(dir, 'app.js');
  const result = await esbuild.build({
    ...baseOptions(args),
    outfile: appFile,
    // As the sea bundle: 30 % less to read at each start, names kept, stack lines mapped by app.js.map.
    ...MINIFY[DEFAULT_MINIFY],
    external: ['sqlite3'],
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
    metafile: true,
    plugins: [optionalPlugin(), packageRewritePlugin(new Set())],
  });
  assertAscii(appFile);
  const buildId = crypto.createHash('sha256').update(fs.readFileSync(appFile)).digest('hex').slice(0, 16);
  for (const f of fs.readdirSync(dir)) {
    if (/^app\.js\.[0-9a-f]+\.v8-cache/.test(f)) fs.rmSync(path.join(dir, f), { force: true });
  }
  await esbuild.build({
    ...baseOptions(args),
    entryPoints: [path.join(path.dirname(args.entry), 'launcher.js')],
    define: { FARSIGHT_BUILD_ID: JSON.stringify(buildId) },
    logLevel: 'warning',
  });
  fs.rmSync(`${args.outfile}.map`, { force: true });
  report({ ...args, outfile: appFile }, result);
  await bundleAgent(args, path.join(dir, 'agent.js'), { sourcemap: true });
}

/**
 * Packages the agent's bundle must never hold: the service's framework, database and templates
 * (test/layering.spec.ts keeps them out of the agent's imports; this keeps them out of its bundle).
 */
const NOT_IN_AGENT =
  /node_modules[\\/](@nestjs|typeorm|sqlite3|express|handlebars|class-validator|class-transformer)[\\/]/;

/**
 * `farsight agent`'s own bundle (src/agent-main.ts): the agent, the checkers, the scheduler and the
 * client libraries of the service kinds (pg, mysql2, redis, mqtt, grpc: evaluated only when a
 * monitor of that kind is checked). The launcher (dev) and the single executable's main script run
 * it for `agent` instead of the service's bundle. Writes `<outfile>` and `agent-bundle.json` beside it
 * (its bytes and the packages it holds: test/agent/agent-modules.e2e-spec.ts reads it).
 */
async function bundleAgent(args, outfile, extra) {
  const entry = path.join(path.dirname(args.entry), 'agent-main.js');
  requireEntry(entry);
  const result = await esbuild.build({
    ...baseOptions({ ...args, entry, outfile }),
    ...MINIFY[DEFAULT_MINIFY],
    legalComments: 'none',
    sourcemap: extra.sourcemap ? true : 'external',
    sourcesContent: false,
    banner: extra.banner ? { js: extra.banner } : undefined,
    logLevel: 'warning',
    metafile: true,
    plugins: [optionalPlugin(), packageRewritePlugin(new Set(), { requireLazy: false })],
  });
  assertAscii(outfile);
  if (extra.banner) {
    // Inside a SEA only built-in modules load: anything else left outside would fail there.
    const out = Object.values(result.metafile.outputs).find((o) => o.entryPoint);
    const outside = out.imports
      .filter((i) => i.external && !isBuiltin(i.path) && i.kind !== 'require-resolve' && !isOptional(i.path))
      .map((i) => i.path);
    if (outside.length > 0)
      throw new Error(
        `the agent's sea bundle would require modules it does not hold: ${[...new Set(outside)].join(', ')}`,
      );
  }
  const inputs = Object.keys(result.metafile.inputs);
  const wrong = inputs.filter((p) => NOT_IN_AGENT.test(p));
  if (wrong.length > 0)
    throw new Error(`the agent's bundle would hold the service's packages: ${wrong.slice(0, 5).join(', ')}`);
  const packages = [
    ...new Set(
      inputs.flatMap((p) => {
        const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/](?!.*node_modules)/.exec(p);
        return m ? [m[1].split(path.sep).join('/')] : [];
      }),
    ),
  ].sort();
  fs.writeFileSync(
    path.join(path.dirname(outfile), 'agent-bundle.json'),
    JSON.stringify({ bytes: fs.statSync(outfile).size, packages }, null, 2) + '\n',
  );
  report({ ...args, outfile }, result);
}

/** Wraps the module-level `require` (see the header). Plain ES2020, runs before anything else. */
function seaBanner() {
  const optional = JSON.stringify(OPTIONAL);
  return `var require = (function (realRequire) {
  var optional = ${optional};
  var builtin = realRequire('node:module').isBuiltin;
  function notFound(id, why) {
    var e = new Error("Cannot find module '" + id + "' (" + why + ")");
    e.code = 'MODULE_NOT_FOUND';
    return e;
  }
  function farsightRequire(id) {
    if (typeof id === 'string' && !builtin(id)) {
      var opt = optional.some(function (n) { return id === n || id.indexOf(n + '/') === 0; });
      if (process.env.FARSIGHT_TRACE_OPTIONAL) {
        process.stderr.write('[farsight-sea] require(' + JSON.stringify(id) + ') refused' + (opt ? ' (optional)' : '') + '\\n');
      }
      throw notFound(id, opt ? 'optional, not built into farsight' : 'not bundled into farsight');
    }
    return realRequire(id);
  }
  for (var k in realRequire) farsightRequire[k] = realRequire[k];
  return farsightRequire;
})(require);`;
}

function optionalPlugin() {
  return {
    name: 'farsight-optional',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (isOptional(args.path)) return { path: args.path, external: true };
        return undefined;
      });
    },
  };
}

function sqlite3BindingPlugin(expected) {
  return {
    name: 'farsight-sqlite3-binding',
    setup(build) {
      build.onLoad({ filter: /[\\/]sqlite3[\\/]lib[\\/]sqlite3-binding\.js$/ }, () => ({
        contents:
          `module.exports = require(${JSON.stringify(path.join(__dirname, 'native-loader.js'))})` +
          `.loadNativeAddon(${JSON.stringify(SQLITE3_ASSET_KEY)}, ${JSON.stringify(expected)}, 'node_sqlite3');`,
        loader: 'js',
        resolveDir: __dirname,
      }));
    },
  };
}

/**
 * Node prints DEP0005 ("Buffer() is deprecated") once per process when `new Buffer()` is called from
 * outside node_modules, and inside a SEA every frame is outside node_modules: otplib's base32 encoder
 * (thirty-two) would put that warning in the service log at each setup link. Rewrite the calls in
 * bundled packages to the equivalent Buffer.alloc / Buffer.from (same semantics, zero-filled).
 */
const NEW_BUFFER = /\bnew Buffer\(/g;
const NEW_BUFFER_HELPER =
  '\n;function __farsightNewBuffer(a, b, c) { return typeof a === "number" ? Buffer.alloc(a) : Buffer.from(a, b, c); }\n';

/**
 * The bundles are ASCII-only. esbuild escapes non-ASCII characters everywhere but in regular
 * expression literals and tagged templates' raw text, and one such character is enough for V8 to
 * hold the whole bundle as a two-byte string for as long as the process runs (16 MB instead of 8:
 * RSS after a start with 10,000 monitors 197 -> 187 MB), and reading it as UTF-8 takes 40-50 ms
 * instead of 16 (4 ms as latin1, which only an ASCII file allows: src/launcher.ts). In these
 * packages every non-ASCII character is in a regular expression or an untagged template (checked
 * by hand), where its `\uXXXX` escape means the same character, so they are escaped in the source
 * before esbuild reads it. assertAscii() stops the build when another one turns up.
 */
const ESCAPE_NON_ASCII = ['validator/lib/', 'ansis/'];

const NON_ASCII = /[^\x00-\x7f]/;

function escapeNonAscii(text) {
  return text.replace(
    new RegExp(NON_ASCII.source, 'g'),
    (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

/**
 * Nest's loggers (both replaced by the service's own, runtime/logger.ts) build a date formatter when
 * @nestjs/common is loaded: ICU's first use, 15-35 ms of every start. Made on first use instead.
 */
const LAZY_DATE_FORMATTER = [
  {
    from: 'const dateTimeFormatter = new Intl.DateTimeFormat(undefined, {',
    to:
      'let farsightDateTimeFormatter;\n' +
      'const dateTimeFormatter = { format: (t) => (farsightDateTimeFormatter ??= new Intl.DateTimeFormat(undefined, farsightDateTimeOptions)).format(t) };\n' +
      // The original's closing `});` closes this parenthesis.
      'const farsightDateTimeOptions = ({',
  },
];

/**
 * mime-types fills its extension and type maps from mime-db's 2,500 types when loaded (version 3
 * scores every conflict: 15-20 ms of every start, and express, multer and form-data each load a
 * copy), for lookups the service makes only when it serves a file. `extensions` and `types` become
 * getters that fill both maps at the first use.
 */
const LAZY_MIME_MAPS = [
  { from: 'exports.extensions = Object.create(null)\n', to: '' },
  { from: 'exports.types = Object.create(null)\n', to: '' },
  {
    from: 'populateMaps(exports.extensions, exports.types)\n',
    to: [
      'var farsightMaps = null',
      'function farsightMimeMaps () {',
      '  if (farsightMaps === null) {',
      '    farsightMaps = { extensions: Object.create(null), types: Object.create(null) }',
      '    populateMaps(farsightMaps.extensions, farsightMaps.types)',
      '  }',
      '  return farsightMaps',
      '}',
      "Object.defineProperty(exports, 'extensions', { enumerable: true, get: function () { return farsightMimeMaps().extensions } })",
      "Object.defineProperty(exports, 'types', { enumerable: true, get: function () { return farsightMimeMaps().types } })",
      '',
    ].join('\n'),
  },
];

/**
 * Work that packages do when loaded and the service never needs then, moved to first use: each
 * edit is an exact text that must be in the file once, or the build stops (the package changed:
 * look at it again). `file` is the path below the last node_modules/, so every installed copy of
 * a package is rewritten.
 */
const LAZY_REWRITES = [
  { file: '@nestjs/common/services/console-logger.service.js', edits: LAZY_DATE_FORMATTER },
  { file: '@nestjs/common/services/logger.service.js', edits: LAZY_DATE_FORMATTER },
  { file: 'mime-types/index.js', edits: LAZY_MIME_MAPS },
];

/** Applies each exact edit, or stops the build naming the file when its text is not there once. */
function applyEdits(text, edits, file) {
  for (const e of edits) {
    if (text.split(e.from).length !== 2) {
      throw new Error(
        `${file}: the text to make lazy is not there once; look at the package again (packaging/bundle.js LAZY_REWRITES): ${JSON.stringify(e.from.slice(0, 60))}`,
      );
    }
    text = text.replace(e.from, () => e.to);
  }
  return text;
}

/**
 * Every rewrite of package sources in one onLoad (esbuild uses the first onLoad that answers).
 * `requireLazy`: stop the build when a package of LAZY_REWRITES was not bundled (off for the
 * agent's bundle, which holds none of them).
 */
function packageRewritePlugin(bufferPatched, { requireLazy = true } = {}) {
  const lazyDone = new Set();
  return {
    name: 'farsight-package-rewrites',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, async (args) => {
        const rel = path.relative(ROOT, args.path).split(path.sep).join('/');
        // Matched on the path below the last node_modules: a symlinked node_modules resolves elsewhere.
        const inPackage = rel.slice(rel.lastIndexOf('node_modules/') + 'node_modules/'.length);
        const original = await fs.promises.readFile(args.path, 'utf8');
        let text = original.replace(NEW_BUFFER, '__farsightNewBuffer(');
        if (text !== original) {
          bufferPatched.add(rel);
          // Appended, not prepended: a function declaration is hoisted, and a leading 'use strict' stays first.
          text += NEW_BUFFER_HELPER;
        }
        if (ESCAPE_NON_ASCII.some((dir) => inPackage.startsWith(dir))) text = escapeNonAscii(text);
        for (const r of LAZY_REWRITES) {
          if (inPackage !== r.file) continue;
          text = applyEdits(text, r.edits, rel);
          lazyDone.add(r.file);
        }
        return text !== original ? { contents: text, loader: 'js' } : undefined;
      });
      build.onEnd((result) => {
        if (result.errors.length > 0 || !requireLazy) return;
        const missed = LAZY_REWRITES.filter((r) => !lazyDone.has(r.file)).map((r) => r.file);
        if (missed.length > 0)
          throw new Error(`never bundled, so not rewritten: ${missed.join(', ')} (packaging/bundle.js LAZY_REWRITES)`);
      });
    },
  };
}

/** Throws when `file` (a bundle with its source map beside it) still holds a non-ASCII character, naming its source. */
function assertAscii(file) {
  const text = fs.readFileSync(file, 'utf8');
  const m = NON_ASCII.exec(text);
  if (!m) return;
  const before = text.slice(0, m.index);
  const line = before.split('\n').length - 1;
  const column = m.index - (before.lastIndexOf('\n') + 1);
  let source = `line ${line + 1} of ${path.relative(ROOT, file)}`;
  try {
    const { SourceMap } = require('node:module');
    const entry = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8'))).findEntry(line, column);
    if (entry && entry.originalSource)
      source = `${entry.originalSource.replace(/^(\.\.\/)+/, '')}:${entry.originalLine + 1}`;
  } catch {
    // No map: the bundle's own line will do.
  }
  throw new Error(
    `the bundle keeps the non-ASCII character ${JSON.stringify(m[0])} (from ${source}), which makes V8 hold it as a two-byte string: ` +
      'in our code write it as a \\u escape; in a package where it sits in a regular expression (not a tagged template), add the package to ESCAPE_NON_ASCII in packaging/bundle.js',
  );
}

async function bundleSea(args) {
  requireEntry(args.entry);
  if (!fs.existsSync(args.addon)) throw new Error(`missing ${path.relative(ROOT, args.addon)}`);
  const addon = fs.readFileSync(args.addon);
  const addonSha256 = crypto.createHash('sha256').update(addon).digest('hex');
  const bufferPatched = new Set();

  const result = await esbuild.build({
    ...baseOptions(args),
    ...MINIFY[args.minify],
    legalComments: 'none',
    sourcemap: 'external',
    sourcesContent: false,
    banner: { js: seaBanner() },
    logLevel: 'error',
    metafile: true,
    plugins: [
      optionalPlugin(),
      sqlite3BindingPlugin({ sha256: addonSha256, size: addon.length }),
      packageRewritePlugin(bufferPatched),
    ],
  });

  assertAscii(args.outfile);
  // Everything that esbuild left as a runtime require must be a built-in or a known optional module:
  // anything else would throw inside the SEA. (esbuild silently leaves unresolvable require() calls
  // inside try/catch alone, so this catches what the build itself does not.)
  const out = Object.values(result.metafile.outputs).find((o) => o.entryPoint);
  const unexpected = [];
  const optionalSeen = new Set();
  const resolvedOnly = new Set();
  for (const imp of out.imports) {
    if (!imp.external) continue;
    if (isBuiltin(imp.path)) continue;
    // require.resolve() loads nothing (e.g. Nest's FileTypeValidator probing `file-type`); it fails
    // gracefully inside the SEA like an absent package.
    if (imp.kind === 'require-resolve') {
      resolvedOnly.add(imp.path);
      continue;
    }
    if (isOptional(imp.path)) optionalSeen.add(imp.path);
    else unexpected.push(imp.path);
  }
  if (unexpected.length) {
    throw new Error(
      `the sea bundle would require modules that are neither built in nor bundled: ${[...new Set(unexpected)].join(', ')}\n` +
        'bundle them (install the package) or, if they are truly optional and unused, add them to OPTIONAL in packaging/bundle.js',
    );
  }
  const usesSqlite3 = Object.keys(result.metafile.inputs).some((p) =>
    /node_modules[\\/]sqlite3[\\/]lib[\\/]sqlite3\.js$/.test(p),
  );
  const replacedBinding = Object.keys(result.metafile.inputs).some((p) => /packaging[\\/]native-loader\.js$/.test(p));
  if (usesSqlite3 && !replacedBinding) throw new Error('sqlite3 is bundled but its binding loader was not replaced');

  const notices = writeNotices(result.metafile, path.join(path.dirname(args.outfile), 'THIRD-PARTY-NOTICES.txt'));
  if (!notices.nodeLicense)
    console.warn('  warning: Node.js LICENSE not found; THIRD-PARTY-NOTICES.txt links to it instead');

  // A copy of the addon beside the bundle lets `node dist/sea/farsight.js` (outside a SEA) load it too.
  fs.copyFileSync(args.addon, path.join(path.dirname(args.outfile), 'node_sqlite3.node'));
  fs.writeFileSync(
    path.join(path.dirname(args.outfile), 'bundle-info.json'),
    JSON.stringify(
      {
        entry: path.relative(ROOT, args.entry),
        minify: args.minify,
        bytes: fs.statSync(args.outfile).size,
        sqlite3: usesSqlite3 ? { asset: SQLITE3_ASSET_KEY, sha256: addonSha256, bytes: addon.length } : null,
        optionalExternals: [...optionalSeen].sort(),
        requireResolveOnly: [...resolvedOnly].sort(),
        newBufferRewritten: [...bufferPatched].sort(),
        noticesPackages: notices.packages,
      },
      null,
      2,
    ) + '\n',
  );
  report(args, result);
  if (optionalSeen.size) console.log(`  left out (optional): ${[...optionalSeen].sort().join(', ')}`);
  // The agent's own bundle beside it: the single executable's main script runs it for `agent`.
  await bundleAgent(args, path.join(path.dirname(args.outfile), 'agent.js'), { banner: seaBanner() });
}

/**
 * The binary redistributes Node.js and every bundled package, and their licenses (mostly MIT/ISC/BSD)
 * ask for their notices to travel with it: collect them from the packages esbuild actually inlined.
 */
function writeNotices(metafile, file) {
  const pkgDirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(input);
    if (m) pkgDirs.add(path.resolve(ROOT, m[1]));
  }
  const sections = [];
  const seen = new Set();
  for (const dir of [...pkgDirs].sort()) {
    let pkg;
    try {
      pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    const id = `${pkg.name}@${pkg.version}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const licenseFile = fs
      .readdirSync(dir)
      .find((f) => /^(licen[cs]e|copying|notice)(\.|$)/i.test(f) && fs.statSync(path.join(dir, f)).isFile());
    const license = typeof pkg.license === 'string' ? pkg.license : (pkg.license && pkg.license.type) || 'see package';
    const text = licenseFile
      ? fs.readFileSync(path.join(dir, licenseFile), 'utf8').trim()
      : `(no license file; package.json says ${license})`;
    sections.push(`${id} (${license})\n${'-'.repeat(id.length + license.length + 3)}\n${text}\n`);
  }
  const nodeLicense = [
    path.join(path.dirname(process.execPath), '..', 'share', 'doc', 'nodejs', 'LICENSE'),
    path.join(path.dirname(process.execPath), '..', 'LICENSE'),
    '/usr/share/doc/nodejs/LICENSE',
  ].find((f) => fs.existsSync(f));
  const header =
    'Farsight bundles Node.js and the open-source packages listed below into one executable.\n' +
    'Their copyright notices and licenses follow.\n\n';
  const nodeSection = nodeLicense
    ? `Node.js ${process.version}\n${'-'.repeat(8 + process.version.length)}\n${fs.readFileSync(nodeLicense, 'utf8').trim()}\n`
    : `Node.js ${process.version}: MIT license and bundled third-party licenses, see https://github.com/nodejs/node/blob/${process.version}/LICENSE\n`;
  fs.writeFileSync(file, header + [nodeSection, ...sections].join('\n'));
  return { packages: seen.size, nodeLicense: Boolean(nodeLicense) };
}

function report(args, result) {
  const bytes = fs.statSync(args.outfile).size;
  console.log(`bundle ${args.mode}: ${path.relative(ROOT, args.outfile)} ${(bytes / 1024 / 1024).toFixed(2)} MiB`);
  if (args.analyze) console.log(esbuild.analyzeMetafileSync(result.metafile, { verbose: false }));
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  fs.mkdirSync(path.dirname(args.outfile), { recursive: true });
  if (args.mode === 'dev') await bundleDev(args);
  else await bundleSea(args);
}

module.exports = { OPTIONAL, SQLITE3_ADDON, SQLITE3_ASSET_KEY, LAZY_REWRITES, applyEdits, escapeNonAscii, assertAscii };

if (require.main === module) {
  main().catch((err) => {
    console.error(`bundle: ${err && err.message ? err.message : err}`);
    process.exit(1);
  });
}
