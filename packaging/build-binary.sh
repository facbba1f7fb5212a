#!/usr/bin/env bash
# Builds dist/farsight: a Node single executable application (SEA) holding the whole app, its views/, docs/
# and public/ files and the sqlite3 addon. It needs no node_modules and no Node on the target machine.
# Its main script (packaging/sea-main.js) runs the agent's own bundle for `farsight agent` and the
# service's bundle, from its V8 code cache, for every other command (docs/agents.md, "Memory").
#
#   bash packaging/build-binary.sh
#
# Environment:
#   FARSIGHT_SKIP_BUILD=1     reuse the existing dist/tsc (skip `npm run build`)
#   FARSIGHT_MINIFY=MODE      whitespace (default: fastest start) | full (2 MB smaller) | none
#   FARSIGHT_CODE_CACHE=0     do not embed V8's code cache (default on: faster cold start)
#   FARSIGHT_STRIP=0          keep the symbols of the node binary (default: strip, about 12 MB smaller)
#   NODE_BINARY=PATH          the node executable to embed into (default: the `node` running this build)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }
die() { printf 'build-binary: %s\n' "$*" >&2; exit 1; }

NODE_BINARY=${NODE_BINARY:-$(command -v node)}
NODE_BINARY=$(readlink -f "$NODE_BINARY")
[ -x "$NODE_BINARY" ] || die "no node binary at $NODE_BINARY"
node_version=$("$NODE_BINARY" --version)
case "$node_version" in
  v2[0-9].*|v[3-9][0-9].*) ;;
  *) die "node $node_version cannot build a single executable with assets (need >= 20.12)" ;;
esac
[ "$("$NODE_BINARY" -p 'process.platform + "-" + process.arch')" = "linux-x64" ] || die "only linux-x64 is supported"

FUSE=NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2
grep -q "$FUSE" "$NODE_BINARY" || die "$NODE_BINARY has no SEA fuse (is it a distribution build without SEA support?)"

if [ "${FARSIGHT_SKIP_BUILD:-0}" != 1 ]; then
  say "npm run build (tsc + dev bundle)"
  npm run build --silent
fi
[ -f dist/tsc/src/main.js ] || die "dist/tsc/src/main.js is missing"

say "sea bundle"
rm -rf dist/sea
mkdir -p dist/sea
node packaging/bundle.js sea --minify "${FARSIGHT_MINIFY:-whitespace}"

say "sea config and blob"
cache_flag=()
if [ "${FARSIGHT_CODE_CACHE:-1}" = 1 ]; then
  # By the node that is embedded: V8 refuses a code cache of another version.
  "$NODE_BINARY" packaging/sea-code-cache.js dist/sea/farsight.js
else
  cache_flag=(--no-code-cache)
fi
node packaging/sea-config.js "${cache_flag[@]}"
# The blob must be made by the same node version that runs it (the code cache is version-specific).
"$NODE_BINARY" --experimental-sea-config dist/sea/sea-config.json

say "inject into a copy of $NODE_BINARY ($node_version)"
out=dist/farsight
rm -f "$out" "$out.tmp"
cp "$NODE_BINARY" "$out.tmp"
chmod u+w "$out.tmp"
if [ "${FARSIGHT_STRIP:-1}" = 1 ]; then
  if command -v strip >/dev/null 2>&1; then
    # Drops the debug info and the static symbol table; the dynamic symbols that addons link
    # against (napi_*, uv_*) stay.
    strip "$out.tmp"
  else
    say "strip not found (binutils); keeping an unstripped binary"
  fi
fi
# postject prints harmless "Can't find string offset for section name '.note.100'" warnings on
# unstripped binaries; keep its output only when it fails.
if ! npx --no-install postject "$out.tmp" NODE_SEA_BLOB dist/sea/sea-prep.blob \
  --sentinel-fuse "$FUSE" >dist/sea/postject.log 2>&1; then
  cat dist/sea/postject.log >&2
  die "postject failed"
fi
chmod 0755 "$out.tmp"
mv "$out.tmp" "$out"
printf '%s\n' "$node_version" >dist/sea/node-version

# The binary must answer on its own before anything else is built on it.
abs_out="$PWD/$out"
v=$(cd / && env -i PATH=/usr/bin:/bin "$abs_out" --version) || die "$out --version failed"
want=$(node -p 'require("./package.json").version')
[ "$v" = "$want" ] || die "$out --version printed '$v', expected '$want'"

size=$(stat -c %s "$out")
say "$out: $(numfmt --to=iec-i --suffix=B "$size") ($size bytes), version $v, node $node_version"
