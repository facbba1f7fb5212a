#!/usr/bin/env bash
# Builds dist/farsight_<version>_amd64.deb from dist/farsight (packaging/build-binary.sh).
#
#   bash packaging/build-deb.sh
#
# Environment:
#   FARSIGHT_DEB_MAINTAINER   Maintainer field (default: "Farsight maintainers <farsight@localhost>")
#   SOURCE_DATE_EPOCH         file times inside the package (default: the binary's mtime)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }
die() { printf 'build-deb: %s\n' "$*" >&2; exit 1; }

command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb not found (apt-get install dpkg)"
[ -x dist/farsight ] || die "dist/farsight is missing: run packaging/build-binary.sh first"

version=$(node -p 'require("./package.json").version')
homepage=$(node -p 'require("./package.json").homepage || ""')
# Debian versions may not contain '-' unless there is a revision; npm prereleases (1.0.0-rc.1)
# sort correctly with '~' (1.0.0~rc.1 < 1.0.0).
deb_version=${version//-/\~}
bin_version=$(cd / && env -i PATH=/usr/bin:/bin "$OLDPWD/dist/farsight" --version)
[ "$bin_version" = "$version" ] || die "dist/farsight is version $bin_version, package.json says $version: rebuild the binary"

maintainer=${FARSIGHT_DEB_MAINTAINER:-Farsight maintainers <farsight@localhost>}
out="dist/farsight_${deb_version}_amd64.deb"
stage=dist/deb/root
rm -rf dist/deb "$out"
mkdir -p "$stage/DEBIAN"

say "staging files"
install -D -m 0755 dist/farsight "$stage/usr/bin/farsight"
install -D -m 0755 packaging/deb/farsightctl "$stage/usr/sbin/farsightctl"
install -D -m 0644 systemd/farsight.service "$stage/lib/systemd/system/farsight.service"
install -D -m 0640 packaging/deb/farsight.env "$stage/etc/farsight/farsight.env"
doc="$stage/usr/share/doc/farsight"
install -D -m 0644 docs/install.md "$doc/install.md"
if [ -f dist/sea/THIRD-PARTY-NOTICES.txt ]; then
  install -D -m 0644 dist/sea/THIRD-PARTY-NOTICES.txt "$doc/THIRD-PARTY-NOTICES.txt"
  gzip -9n "$doc/THIRD-PARTY-NOTICES.txt"
fi
node_version=$(cat dist/sea/node-version 2>/dev/null || echo "(unknown version)")
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
# Shared-library dependencies of the binary and of the embedded sqlite3 addon, as Debian computes them.
depends_libs=""
if command -v dpkg-shlibdeps >/dev/null 2>&1; then
  shl=$(mktemp -d)
  mkdir -p "$shl/debian"
  printf 'Source: farsight\n\nPackage: farsight\nArchitecture: amd64\n' >"$shl/debian/control"
  addon=dist/sea/node_sqlite3.node
  depends_libs=$(cd "$shl" && dpkg-shlibdeps -O -e"$OLDPWD/dist/farsight" ${addon:+-e"$OLDPWD/$addon"} 2>/dev/null |
    sed -n 's/^shlibs:Depends=//p') || depends_libs=""
  rm -rf "$shl"
fi
if [ -z "$depends_libs" ]; then
  # Without dpkg-dev: the newest glibc symbol version the binary or the addon uses (binutils), else
  # the build host's glibc, which the addon was compiled against (a safe upper bound).
  glibc=$(objdump -T dist/farsight dist/sea/node_sqlite3.node 2>/dev/null | grep -o 'GLIBC_[0-9.]*' |
    sed 's/GLIBC_//' | sort -Vu | tail -n 1) || glibc=""
  [ -n "$glibc" ] || glibc=$(getconf GNU_LIBC_VERSION | sed 's/^glibc //')
  # libstdc++6 11 brings GLIBCXX_3.4.29, the newest the sqlite3 addon built on bookworm needs.
  depends_libs="libc6 (>= $glibc), libgcc-s1, libstdc++6 (>= 11)"
fi
installed_kb=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
{
  sed -e "s|@VERSION@|$deb_version|" \
    -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$installed_kb|" \
    -e "s|^Depends: .*|Depends: adduser, iputils-ping, $depends_libs|" \
    packaging/deb/control.in |
    if [ -n "$homepage" ]; then sed "s|@HOMEPAGE@|$homepage|"; else grep -v '^Homepage:'; fi
} >"$stage/DEBIAN/control"
printf '/etc/farsight/farsight.env\n' >"$stage/DEBIAN/conffiles"
for script in postinst prerm postrm; do
  sh -n "packaging/deb/$script" || die "packaging/deb/$script: syntax error"
  install -m 0755 "packaging/deb/$script" "$stage/DEBIAN/$script"
done
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
  >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles" "$stage/DEBIAN/md5sums"

# Directories 0755 whatever the umask; stable times for a reproducible archive.
find "$stage" -type d -exec chmod 0755 {} +
epoch=${SOURCE_DATE_EPOCH:-$(stat -c %Y dist/farsight)}
find "$stage" -exec touch -h -d "@$epoch" {} +

say "dpkg-deb"
SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Zxz --build "$stage" "$out" >/dev/null
size=$(stat -c %s "$out")
say "$out: $(numfmt --to=iec-i --suffix=B "$size") ($size bytes), installed size ${installed_kb} KiB"
say "Depends: $(sed -n 's/^Depends: //p' "$stage/DEBIAN/control")"
