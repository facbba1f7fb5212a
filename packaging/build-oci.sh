#!/usr/bin/env bash
# Builds dist/farsight_<version>_oci.tar: the OCI image of Farsight for amd64 and arm64, both in one
# image index, as an OCI archive that `docker load` (Docker 25 on) and `podman load` take, and beside it
# dist/farsight_<version>_<arch>_docker.tar, one docker-archive per architecture for any Docker (docs/install.md).
#
#   bash packaging/build-oci.sh
#
# Each architecture's image is one layer on an empty base (`buildah from scratch`) holding exactly
# what the single binary needs, and nothing that could run anything else (no shell, no package
# manager, no curl):
#   /usr/bin/farsight                 dist/farsight or dist/farsight-linux-arm64
#   its shared libraries              found from the ELF's NEEDED entries, recursively (the sqlite3
#                                     addon's too), in this machine's libraries for amd64 and in the
#                                     cross toolchain's arm64 sysroot for arm64, plus the ELF interpreter
#   /etc/ssl/certs/ca-certificates.crt  CA certificates (Debian's ca-certificates)
#   /usr/share/zoneinfo               time zone data (Debian's tzdata)
#   /etc/passwd, /etc/group           root and farsight (uid and gid 10001, no shell), /etc/nsswitch.conf
#   /var/lib/farsight                 the data volume, 0700 farsight; /tmp 1777
# and the configuration: USER farsight, VOLUME /var/lib/farsight, EXPOSE 8080, FARSIGHT_DATA_DIR,
# FARSIGHT_LISTEN=0.0.0.0:8080, FARSIGHT_REFUSE_ROOT=on (`--user 0` stops with the binary's error), HEALTHCHECK `farsight health`, the OCI labels (version, source,
# licenses), ENTRYPOINT farsight, CMD serve. Building the arm64 image runs nothing of arm64: files
# are copied and the configuration says `--arch arm64`; the arm64 rootfs's `--version` is then run
# under qemu with that rootfs as its only library root, which proves the libraries are complete.
#
# The images are built in Docker's format (schema 2) inside the OCI layout: HEALTHCHECK exists only
# in Docker's image configuration (an OCI configuration drops it, and podman ignores it there), and
# both `docker load` and `podman load` read Docker manifests from an OCI archive.
#
# buildah here runs as root in a container without its own storage configuration: it gets a private
# storage under dist/oci/ (vfs driver: no overlay mount is needed, and nothing of another build or of
# the machine's own images is touched). Nothing runs inside a container, so no runtime is needed.
#
# Environment:
#   FARSIGHT_OCI_SOURCE   the org.opencontainers.image.source label (default: package.json's
#                         repository URL, else homepage, else "https://github.com/farsight-monitor/farsight")
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }
die() { printf 'build-oci: %s\n' "$*" >&2; exit 1; }

missing=()
command -v buildah >/dev/null 2>&1 || missing+=(buildah)
command -v objdump >/dev/null 2>&1 || missing+=(binutils)
command -v qemu-aarch64-static >/dev/null 2>&1 || missing+=(qemu-user-static)
[ -f /etc/ssl/certs/ca-certificates.crt ] || missing+=(ca-certificates)
[ -d /usr/share/zoneinfo/Europe ] || missing+=(tzdata)
[ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || missing+=(libc6-arm64-cross)
[ ${#missing[@]} -eq 0 ] || die "missing tools or files; install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}"

version=$(node -p 'require("./package.json").version')
license=$(node -p 'require("./package.json").license || "UNLICENSED"')
source_url=${FARSIGHT_OCI_SOURCE:-$(node -p 'const p = require("./package.json"); (p.repository && (p.repository.url || p.repository)) || p.homepage || "https://github.com/farsight-monitor/farsight"')}
out="dist/farsight_${version//-/\~}_oci.tar"
UID_FARSIGHT=10001

work=dist/oci
rm -rf "$work" "$out"
mkdir -p "$work"
# A private buildah storage (see above); removed at the end, and on any failure.
store=(--root "$PWD/$work/storage" --runroot "$PWD/$work/run" --storage-driver vfs)
# Docker format from the start: `buildah config` drops HEALTHCHECK from a working container in OCI format.
export BUILDAH_FORMAT=docker
bah() { buildah "${store[@]}" "$@"; }
cleanup() {
  bah rm --all >/dev/null 2>&1 || true
  bah rmi --all --force >/dev/null 2>&1 || true
  chmod -R u+w "$work" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The shared libraries an ELF needs, recursively, resolved in the given directories (no execution:
# this works for an arm64 file on an x86-64 machine). Prints "path" lines, the interpreter first.
needed_libs() { # libdirs... -- files...
  local dirs=() files=() seen=" " queue lib dir found interp
  while [ "$1" != -- ]; do dirs+=("$1"); shift; done
  shift
  files=("$@")
  for f in "${files[@]}"; do
    interp=$(LC_ALL=C readelf -l "$f" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
    [ -z "$interp" ] || printf 'interp %s\n' "$interp"
  done
  queue=$(for f in "${files[@]}"; do objdump -p "$f" | awk '$1 == "NEEDED" { print $2 }'; done)
  while [ -n "$queue" ]; do
    lib=${queue%%$'\n'*}
    [ "$lib" = "$queue" ] && queue="" || queue=${queue#*$'\n'}
    case "$seen" in *" $lib "*) continue ;; esac
    seen="$seen$lib "
    found=""
    for dir in "${dirs[@]}"; do
      if [ -e "$dir/$lib" ]; then found="$dir/$lib"; break; fi
    done
    [ -n "$found" ] || die "cannot find $lib (needed by ${files[*]}) in ${dirs[*]}"
    printf 'lib %s\n' "$found"
    queue="$queue"$'\n'"$(objdump -p "$found" | awk '$1 == "NEEDED" { print $2 }')"
    queue=$(sed '/^$/d' <<<"$queue")
  done
}

# Stages the root file system of one architecture.
stage() { # arch binary addon multiarch libdirs...
  local arch=$1 bin=$2 addon=$3 multiarch=$4 root="$work/rootfs-$1" kind path interp_host
  shift 4
  mkdir -p "$root"/{usr/bin,etc/ssl/certs,usr/share,var/lib,tmp,"lib/$multiarch"}
  install -m 0755 "$bin" "$root/usr/bin/farsight"
  while read -r kind path; do
    case "$kind" in
      interp)
        # The interpreter at the very path the binary names; its file comes from the library dirs.
        interp_host=""
        for d in "$@"; do [ -e "$d/$(basename "$path")" ] && { interp_host="$d/$(basename "$path")"; break; }; done
        [ -n "$interp_host" ] || die "cannot find the interpreter $path for $arch"
        mkdir -p "$root$(dirname "$path")"
        cp -L "$interp_host" "$root$path"
        ;;
      lib) cp -L "$path" "$root/lib/$multiarch/$(basename "$path")" ;;
    esac
  done < <(needed_libs "$@" -- "$bin" "$addon")
  cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  cp -a /usr/share/zoneinfo "$root/usr/share/zoneinfo"
  printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nfarsight:x:%s:%s:Farsight:/var/lib/farsight:/usr/sbin/nologin\n' \
    "$UID_FARSIGHT" "$UID_FARSIGHT" >"$root/etc/passwd"
  printf 'root:x:0:\nfarsight:x:%s:\n' "$UID_FARSIGHT" >"$root/etc/group"
  # getaddrinfo (Node's dns.lookup) reads it; docker and podman mount /etc/hosts and /etc/resolv.conf.
  printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
  chmod 0644 "$root/etc/passwd" "$root/etc/group" "$root/etc/nsswitch.conf"
  chmod 1777 "$root/tmp"
}

say "root file systems"
mkdir -p "$work/data/farsight"
chmod 0700 "$work/data/farsight"
[ -x dist/farsight ] || die "dist/farsight is missing: run packaging/build-binary.sh first"
[ -x dist/farsight-linux-arm64 ] || die "dist/farsight-linux-arm64 is missing: run packaging/build-binary-arm64.sh first"
stage amd64 dist/farsight dist/sea/node_sqlite3.node x86_64-linux-gnu /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu
stage arm64 dist/farsight-linux-arm64 dist/sea-arm64/node_sqlite3.node aarch64-linux-gnu /usr/aarch64-linux-gnu/lib

# Each rootfs must run its binary with nothing but its own files (the arm64 one under qemu with the
# rootfs as its library root).
v=$(env -i "$(command -v chroot)" "$work/rootfs-amd64" /usr/bin/farsight --version 2>&1) || die "the amd64 rootfs cannot run its binary: $v"
[ "$v" = "$version" ] || die "the amd64 rootfs's binary says '$v'"
v=$(env -i qemu-aarch64-static -L "$work/rootfs-arm64" "$work/rootfs-arm64/usr/bin/farsight" --version 2>&1) ||
  die "the arm64 rootfs cannot run its binary: $v"
[ "$v" = "$version" ] || die "the arm64 rootfs's binary says '$v'"
# The runs above extracted the sqlite3 addon to the rootfs's /tmp: it must not ship in the image.
find "$work/rootfs-amd64/tmp" "$work/rootfs-arm64/tmp" -mindepth 1 -delete
say "both root file systems run their binary with their own libraries alone"

list="localhost/farsight:$version"
bah manifest create "$list" >/dev/null
declare -A image_bytes
for arch in amd64 arm64; do
  say "image linux/$arch"
  ctr=$(bah from --arch "$arch" --os linux scratch)
  bah copy "$ctr" "$work/rootfs-$arch/" / >/dev/null
  # buildah copy makes everything root's; the data dir is farsight's (a new named volume takes the
  # owner and mode of the image's directory, so the service can write to it at once).
  # (Copied as the content of a folder holding it: copying the directory itself onto an existing
  # /var/lib/farsight would change its content only.)
  bah copy --chown "$UID_FARSIGHT:$UID_FARSIGHT" "$ctr" "$work/data/" /var/lib/ >/dev/null
  bah config \
    --arch "$arch" --os linux \
    --user farsight \
    --workingdir /var/lib/farsight \
    --volume /var/lib/farsight \
    --port 8080/tcp \
    --env FARSIGHT_DATA_DIR=/var/lib/farsight \
    --env FARSIGHT_LISTEN=0.0.0.0:8080 \
    --env FARSIGHT_REFUSE_ROOT=on \
    --env TZ=UTC \
    --entrypoint '["/usr/bin/farsight"]' \
    --cmd '["serve"]' \
    --stop-signal SIGTERM \
    --healthcheck 'CMD /usr/bin/farsight health --timeout 5' \
    --healthcheck-interval 30s --healthcheck-timeout 10s --healthcheck-start-period 30s --healthcheck-retries 3 \
    --label "org.opencontainers.image.title=Farsight" \
    --label "org.opencontainers.image.description=Self-hosted uptime monitor for homelab owners" \
    --label "org.opencontainers.image.version=$version" \
    --label "org.opencontainers.image.source=$source_url" \
    --label "org.opencontainers.image.licenses=$license" \
    "$ctr"
  id=$(bah commit --quiet --format docker --rm "$ctr" "localhost/farsight:$version-$arch")
  bah manifest add "$list" "$id" >/dev/null
  size=$(du -sb --apparent-size "$work/rootfs-$arch" | cut -f1)
  image_bytes[$arch]=$size
done

say "OCI archive $out"
bah manifest push --quiet --all --format v2s2 "$list" "oci-archive:$PWD/$out:farsight:$version" >/dev/null
# The name docker load gives the image: Docker (containerd's importer) reads io.containerd.image.name,
# podman org.opencontainers.image.ref.name (localhost/farsight:<version>). index.json is the one file
# of the layout that no digest covers, so it may be rewritten.
python3 - "$out" "docker.io/library/farsight:$version" <<'PY'
import io, json, sys, tarfile
path, name = sys.argv[1], sys.argv[2]
with tarfile.open(path) as t:
    members = [(m, t.extractfile(m).read() if m.isfile() else None) for m in t.getmembers()]
with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as t:
    for m, data in members:
        if m.name == "index.json":
            index = json.loads(data)
            for d in index["manifests"]:
                d.setdefault("annotations", {})["io.containerd.image.name"] = name
            data = json.dumps(index, separators=(",", ":")).encode()
            m.size = len(data)
        t.addfile(m, io.BytesIO(data) if data is not None else None)
PY

# A Docker older than 25 (Debian 12's docker.io is 20.10) cannot read an OCI archive: one
# docker-archive per architecture as well, which `docker load` reads in every version (docs/install.md).
docker_tars=()
for arch in amd64 arm64; do
  arch_out="dist/farsight_${version//-/\~}_${arch}_docker.tar"
  rm -f "$arch_out"
  bah push --quiet "localhost/farsight:$version-$arch" "docker-archive:$PWD/$arch_out:farsight:$version" >/dev/null
  # buildah adds the name the image was built under: only farsight:<version> is kept (manifest.json,
  # like index.json above, is covered by no digest).
  python3 - "$arch_out" "docker.io/library/farsight:$version" <<'PY'
import io, json, sys, tarfile
path, name = sys.argv[1], sys.argv[2]
with tarfile.open(path) as t:
    members = [(m, t.extractfile(m).read() if m.isfile() else None) for m in t.getmembers()]
with tarfile.open(path, "w") as t:
    for m, data in members:
        if m.name == "manifest.json":
            manifest = json.loads(data)
            for entry in manifest:
                entry["RepoTags"] = [name]
            data = json.dumps(manifest, separators=(",", ":")).encode()
            m.size = len(data)
        t.addfile(m, io.BytesIO(data) if data is not None else None)
PY
  docker_tars+=("$arch_out")
done

target=$((120 * 1000 * 1000))
over=0
for arch in amd64 arm64; do
  b=${image_bytes[$arch]}
  verdict="within the 120 MB target"
  [ "$b" -le "$target" ] || { verdict="OVER the 120 MB target"; over=1; }
  say "image linux/$arch: $(numfmt --to=iec-i --suffix=B "$b") uncompressed ($b bytes, $verdict)"
done
size=$(stat -c %s "$out")
say "$out: $(numfmt --to=iec-i --suffix=B "$size") ($size bytes), amd64 + arm64"
for t in "${docker_tars[@]}"; do
  say "$t: $(numfmt --to=iec-i --suffix=B "$(stat -c %s "$t")") (docker load, any Docker version)"
done
[ "$over" = 0 ] || die "an image is over the 120 MB target"
