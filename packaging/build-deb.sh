#!/usr/bin/env bash
# Builds dist/farsight_<version>_amd64.deb from dist/farsight (packaging/build-binary.sh), or with
# --arch arm64 dist/farsight_<version>_arm64.deb from dist/farsight-linux-arm64
# (packaging/build-binary-arm64.sh): the same files, units (the service's and the probe agent's),
# maintainer scripts and farsightctl.
#
#   bash packaging/build-deb.sh [--arch amd64|arm64]
#
# Environment:
#   FARSIGHT_DEB_MAINTAINER   Maintainer field (default: "Farsight maintainers <farsight@localhost>")
#   SOURCE_DATE_EPOCH         file times inside the package (default: the binary's mtime)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }
die() { printf 'build-deb: %s\n' "$*" >&2; exit 1; }

arch=amd64
case "${1:-}" in
  '') ;;
  --arch) arch=${2:-} ;;
  *) die "usage: bash packaging/build-deb.sh [--arch amd64|arm64]" ;;
esac
case "$arch" in
  amd64) bin=dist/farsight addon=dist/sea/node_sqlite3.node run=() ;;
  arm64)
    bin=dist/farsight-linux-arm64 addon=dist/sea-arm64/node_sqlite3.node
    command -v qemu-aarch64-static >/dev/null 2>&1 ||
      die "qemu-aarch64-static not found: sudo apt-get install -y qemu-user-static (it runs the arm64 binary's --version)"
    run=(qemu-aarch64-static -L /usr/aarch64-linux-gnu)
    ;;
  *) die "--arch must be amd64 or arm64, got '$arch'" ;;
esac

command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb not found (apt-get install dpkg)"
[ -x "$bin" ] || die "$bin is missing: run packaging/build-binary$([ "$arch" = amd64 ] || echo -arm64).sh first"

version=$(node -p 'require("./package.json").version')
homepage=$(node -p 'require("./package.json").homepage || ""')
# Debian versions may not contain '-' unless there is a revision; npm prereleases (1.0.0-rc.1)
# sort correctly with '~' (1.0.0~rc.1 < 1.0.0).
deb_version=${version//-/\~}
bin_version=$(cd / && env -i PATH=/usr/bin:/bin "${run[@]}" "$OLDPWD/$bin" --version)
[ "$bin_version" = "$version" ] || die "$bin is version $bin_version, package.json says $version: rebuild the binary"

maintainer=${FARSIGHT_DEB_MAINTAINER:-Farsight maintainers <farsight@localhost>}
out="dist/farsight_${deb_version}_${arch}.deb"
stage=dist/deb-$arch/root
rm -rf "dist/deb-$arch" "$out"
mkdir -p "$stage/DEBIAN"

say "staging files"
install -D -m 0755 "$bin" "$stage/usr/bin/farsight"
install -D -m 0755 packaging/deb/farsightctl "$stage/usr/sbin/farsightctl"
install -D -m 0644 systemd/farsight.service "$stage/lib/systemd/system/farsight.service"
install -D -m 0640 packaging/deb/farsight.env "$stage/etc/farsight/farsight.env"
# The probe agent (`farsight agent`, docs/agents.md): its unit, not enabled by the package, and its
# settings, root's alone (they hold the location's token; systemd reads them as root).
install -D -m 0644 systemd/farsight-agent.service "$stage/lib/systemd/system/farsight-agent.service"
install -D -m 0600 packaging/deb/agent.env "$stage/etc/farsight/agent.env"
doc="$stage/usr/share/doc/farsight"
install -D -m 0644 docs/install.md "$doc/install.md"
install -D -m 0644 docs/agents.md "$doc/agents.md"
sea_dir=$(dirname "$addon")
if [ -f "$sea_dir/THIRD-PARTY-NOTICES.txt" ]; then
  install -D -m 0644 "$sea_dir/THIRD-PARTY-NOTICES.txt" "$doc/THIRD-PARTY-NOTICES.txt"
  gzip -9n "$doc/THIRD-PARTY-NOTICES.txt"
fi
node_version=$(cat "$sea_dir/node-version" 2>/dev/null || echo "(unknown version)")
license=$(node -p 'require("./package.json").license || "UNLICENSED"')
cat >"$doc/copyright" <<EOF
Farsight $version
License: $license

Farsight is distributed as a single executable that includes Node.js $node_version and
open-source packages; their notices and licenses are in THIRD-PARTY-NOTICES.txt.gz.
SQLite is in the public domain.
EOF
chmod 0644 "$doc/copyright"

say "control files"
# Shared-library dependencies of the binary and of the embedded sqlite3 addon.
# The newest symbol versions the binary and the addon use, a reasoned list that needs no library of
# the target architecture: glibc's GLIBC_x.y is the libc6 version that brought it; GCC_x.y is
# libgcc-s1's; libstdc++6 is named by the GCC release whose GLIBCXX_3.4.n it needs.
symbol_depends() {
  local syms glibc gcc cxx gxx
  syms=$(objdump -T "$bin" "$addon" 2>/dev/null) || return 1
  glibc=$(grep -o 'GLIBC_[0-9.]*' <<<"$syms" | sed 's/GLIBC_//' | sort -Vu | tail -n 1)
  gcc=$(grep -o 'GCC_[0-9.]*' <<<"$syms" | sed 's/GCC_//; s/\.0$//' | sort -Vu | tail -n 1)
  cxx=$(grep -o 'GLIBCXX_3\.4\.[0-9]*' <<<"$syms" | sed 's/GLIBCXX_3\.4\.//' | sort -n | tail -n 1)
  # GLIBCXX_3.4.n -> GCC major (libstdc++'s ABI history): 21..24 -> 5..7, 25 -> 8, 26..28 -> 9, 10,
  # 29 -> 11, 30 -> 12, 31 -> 13, 32 -> 14.
  case "${cxx:-0}" in
    2[1-4]) gxx=5 ;; 25) gxx=8 ;; 26) gxx=9 ;; 2[78]) gxx=10 ;; 29) gxx=11 ;; 30) gxx=12 ;; 31) gxx=13 ;; 32) gxx=14 ;;
    *) return 1 ;;
  esac
  [ -n "$glibc" ] && [ -n "$gcc" ] || return 1
  printf 'libc6 (>= %s), libgcc-s1 (>= %s), libstdc++6 (>= %s)' "$glibc" "$gcc" "$gxx"
}
depends_libs=""
if [ "$arch" = amd64 ] && command -v dpkg-shlibdeps >/dev/null 2>&1; then
  # On the build's own architecture Debian computes it from the installed libraries' symbols files.
  shl=$(mktemp -d)
  mkdir -p "$shl/debian"
  printf 'Source: farsight\n\nPackage: farsight\nArchitecture: amd64\n' >"$shl/debian/control"
  depends_libs=$(cd "$shl" && dpkg-shlibdeps -O -e"$OLDPWD/$bin" -e"$OLDPWD/$addon" 2>/dev/null |
    sed -n 's/^shlibs:Depends=//p') || depends_libs=""
  rm -rf "$shl"
fi
# arm64 (dpkg-shlibdeps on the cross toolchain's libraries names the cross packages,
# libgcc-s1-arm64-cross, which no Pi has), or amd64 without dpkg-dev.
[ -n "$depends_libs" ] || depends_libs=$(symbol_depends) || die "cannot read the symbol versions of $bin and $addon (objdump, binutils)"
installed_kb=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
{
  sed -e "s|@VERSION@|$deb_version|" \
    -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$installed_kb|" \
    -e "s|^Architecture: .*|Architecture: $arch|" \
    -e "s|^Depends: .*|Depends: adduser, iputils-ping, $depends_libs|" \
    packaging/deb/control.in |
    if [ -n "$homepage" ]; then sed "s|@HOMEPAGE@|$homepage|"; else grep -v '^Homepage:'; fi
} >"$stage/DEBIAN/control"
printf '/etc/farsight/farsight.env\n/etc/farsight/agent.env\n' >"$stage/DEBIAN/conffiles"
for script in postinst prerm postrm; do
  sh -n "packaging/deb/$script" || die "packaging/deb/$script: syntax error"
  install -m 0755 "packaging/deb/$script" "$stage/DEBIAN/$script"
done
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
  >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles" "$stage/DEBIAN/md5sums"

# Directories 0755 whatever the umask; stable times for a reproducible archive.
find "$stage" -type d -exec chmod 0755 {} +
epoch=${SOURCE_DATE_EPOCH:-$(stat -c %Y "$bin")}
find "$stage" -exec touch -h -d "@$epoch" {} +

say "dpkg-deb"
SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Zxz --build "$stage" "$out" >/dev/null
size=$(stat -c %s "$out")
target=$((30 * 1000 * 1000))
verdict="within the 30 MB target"
[ "$size" -le "$target" ] || verdict="OVER the 30 MB target"
say "$out: $(numfmt --to=iec-i --suffix=B "$size") ($size bytes, $verdict), installed size ${installed_kb} KiB"
say "Depends: $(sed -n 's/^Depends: //p' "$stage/DEBIAN/control")"
[ "$size" -le "$target" ] || die "$out is over the 30 MB target"
