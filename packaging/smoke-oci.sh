#!/usr/bin/env bash
# Container test of dist/farsight_<version>_oci.tar (packaging/build-oci.sh), with podman:
#   1. the archive's index holds a linux/amd64 and a linux/arm64 image, each configured as
#      docs/install.md says (user, volume, port, environment, HEALTHCHECK, OCI labels);
#   2. `podman load` takes it; the image holds no shell, no package manager, and no executable but
#      the binary and its libraries;
#   3. the amd64 image runs with a named volume and a published port: its HEALTHCHECK turns healthy,
#      the API answers on the port, the process runs as uid 10001; owner setup, an API key and a
#      monitor are made over HTTP;
#   4. `podman stop` exits 0 within 10 s (SIGTERM to PID 1, which is farsight itself); a new container
#      on the same volume still has the owner, the key and the monitor;
#   5. started with a wrong FARSIGHT_ variable, on a data directory it cannot write, or as root: the
#      binary's own one-line error and a non-zero exit;
#   6. each dist/farsight_<version>_<arch>_docker.tar (for a Docker older than 25) loads as
#      farsight:<version> of its architecture, with that one tag.
#
#   bash packaging/smoke-oci.sh
#
# Podman runs here with a private storage (a temp dir, vfs driver) and a containers.conf written by
# this test (CONTAINERS_CONF): the runtime runc and no default ulimits, which is what works on build
# machines that refuse crun and the default ulimits. None of this is in the image. Without systemd,
# podman cannot schedule the HEALTHCHECK's timer (`--health-interval disable` leaves the check defined
# and silences that), so the test runs it as the timer would: `podman healthcheck run`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

work=""
step() { printf '\n== %s\n' "$*"; }
ok() { printf 'smoke-oci: ok: %s\n' "$*"; }
fail() {
  printf '\nsmoke-oci: FAIL: %s\n' "$*" >&2
  if [ -n "$work" ] && [ -n "${ctr:-}" ]; then
    printf -- '--- last lines of the container log\n' >&2
    pod logs "$ctr" 2>&1 | tail -n 30 >&2 || true
  fi
  exit 1
}

missing=()
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v runc >/dev/null 2>&1 || missing+=(runc)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
[ ${#missing[@]} -eq 0 ] || fail "missing tools; install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}"
[ "$(id -u)" = 0 ] || fail "run as root (rootful podman: the test mounts the image to list its files)"

version=$(node -p 'require("./package.json").version')
archive="$ROOT/dist/farsight_${version//-/\~}_oci.tar"
[ -f "$archive" ] || fail "$archive is missing: run npm run package"

work=$(mktemp -d "${TMPDIR:-/tmp}/farsight-oci.XXXXXX")
cat >"$work/containers.conf" <<'EOF'
[containers]
default_ulimits = []

[engine]
runtime = "runc"
EOF
export CONTAINERS_CONF="$work/containers.conf"
pod() { podman --root "$work/storage" --runroot "$work/run" --storage-driver vfs "$@"; }
ctr=""
cleanup() {
  set +e
  pod rm --all --force --time 0 >/dev/null 2>&1
  pod image unmount --all >/dev/null 2>&1
  pod volume rm --all --force >/dev/null 2>&1
  pod rmi --all --force >/dev/null 2>&1
  [ "${FARSIGHT_SMOKE_KEEP:-0}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
# podman's complaints about the missing systemd (healthcheck timers) are noise here. Never filter the
# stderr of `podman run -d` through a pipe: conmon keeps it open for the container's life.
quiet() { grep -v 'systemd' || true; }
podman_log="$work/podman.log"

step "the archive: $archive ($(numfmt --to=iec-i --suffix=B "$(stat -c %s "$archive")"))"
python3 - "$archive" "$version" <<'EOF' || fail "the archive's index or image configurations are wrong (above)"
import json, sys, tarfile
archive, version = sys.argv[1], sys.argv[2]
t = tarfile.open(archive)
def blob(digest):
    return json.load(t.extractfile("blobs/" + digest.replace(":", "/")))
index = json.load(t.extractfile("index.json"))
[top] = index["manifests"]
assert top["annotations"]["org.opencontainers.image.ref.name"] == "farsight:" + version, top
assert top["annotations"]["io.containerd.image.name"] == "docker.io/library/farsight:" + version, top
lst = blob(top["digest"])
platforms = sorted(m["platform"]["os"] + "/" + m["platform"]["architecture"] for m in lst["manifests"])
assert platforms == ["linux/amd64", "linux/arm64"], platforms
for m in lst["manifests"]:
    arch = m["platform"]["architecture"]
    manifest = blob(m["digest"])
    cfg = blob(manifest["config"]["digest"])
    c = cfg["config"]
    assert cfg["architecture"] == arch and cfg["os"] == "linux", (arch, cfg["architecture"])
    assert c["User"] == "farsight", c["User"]
    assert c["Volumes"] == {"/var/lib/farsight": {}}, c["Volumes"]
    assert c["ExposedPorts"] == {"8080/tcp": {}}, c["ExposedPorts"]
    env = dict(e.split("=", 1) for e in c["Env"])
    assert env["FARSIGHT_DATA_DIR"] == "/var/lib/farsight" and env["FARSIGHT_LISTEN"] == "0.0.0.0:8080", env
    assert env["FARSIGHT_REFUSE_ROOT"] == "on", env
    assert c["Entrypoint"] == ["/usr/bin/farsight"] and c["Cmd"] == ["serve"], (c["Entrypoint"], c["Cmd"])
    assert c["Healthcheck"]["Test"][:3] == ["CMD", "/usr/bin/farsight", "health"], c["Healthcheck"]
    labels = c["Labels"]
    assert labels["org.opencontainers.image.version"] == version, labels
    assert labels["org.opencontainers.image.source"].startswith("http"), labels
    assert labels["org.opencontainers.image.licenses"], labels
    assert len(manifest["layers"]) == 1, manifest["layers"]
    print(f"smoke-oci: ok: linux/{arch}: user farsight, volume, 8080/tcp, env, HEALTHCHECK {' '.join(c['Healthcheck']['Test'][1:])}, labels, one layer")
EOF

step "podman load"
pod load -q -i "$archive" | quiet
image="docker.io/library/farsight:$version"
[ "$(pod image inspect --format '{{.Architecture}}/{{.Os}}' "$image")" = amd64/linux ] || fail "podman did not load the amd64 image"
ok "$image loaded (linux/amd64, $(pod image inspect --format '{{.Size}}' "$image") bytes)"

step "nothing in the image but the binary and what it needs"
mnt=$(pod image mount "$image")
for f in bin/sh usr/bin/sh bin/bash bin/busybox usr/bin/busybox usr/bin/apt usr/bin/dpkg sbin/apk usr/bin/curl usr/bin/wget usr/bin/env; do
  [ ! -e "$mnt/$f" ] || fail "the image holds /$f"
done
# Every executable regular file is the binary or a shared library (the C library's are executable).
strays=$(cd "$mnt" && find . -type f -perm /111 ! -path ./usr/bin/farsight ! -name '*.so' ! -name '*.so.*' -print)
[ -z "$strays" ] || fail "the image holds other executables: $strays"
[ "$(stat -c '%u %a' "$mnt/var/lib/farsight")" = "10001 700" ] || fail "/var/lib/farsight is $(stat -c '%u %a' "$mnt/var/lib/farsight"), expected 10001 700"
ok "no shell, no package manager; executables: /usr/bin/farsight and $(cd "$mnt" && find . -type f -name '*.so*' | wc -l) libraries"
pod image unmount "$image" >/dev/null

free_port() {
  local p _
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 40000))
    if ! (: </dev/tcp/127.0.0.1/"$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  return 1
}
port=$(free_port) || fail "no free port found"
base="http://127.0.0.1:$port"
volume=farsight-smoke-data
run_service() { # name
  pod run -d --name "$1" --health-interval disable -p "127.0.0.1:$port:8080" -v "$volume:/var/lib/farsight" \
    -e FARSIGHT_PUBLIC_URL="$base" -e FARSIGHT_CANARIES=off "$image" 2>>"$podman_log" </dev/null
}
wait_healthy() { # name
  local t0=$SECONDS
  until pod healthcheck run "$1" >/dev/null 2>&1; do
    [ "$(pod inspect --format '{{.State.Running}}' "$1")" = true ] || fail "the container $1 stopped before it became healthy"
    [ $((SECONDS - t0)) -lt 60 ] || fail "the container $1 is not healthy after 60 s"
    sleep 0.5
  done
  [ "$(pod inspect --format '{{.State.Health.Status}}' "$1")" = healthy ] || fail "podman does not say $1 is healthy"
}

step "run: named volume $volume, port $base"
ctr=$(run_service farsight-smoke-1)
wait_healthy "$ctr"
ok "the HEALTHCHECK (farsight health) turned healthy"
health=$(curl -fsS --max-time 5 "$base/api/health") || fail "GET $base/api/health failed"
grep -q "\"ok\":true,\"version\":\"$version\"" <<<"$health" || fail "/api/health answered $health"
ok "the API answers on the published port: $health"
pid=$(pod inspect --format '{{.State.Pid}}' "$ctr")
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")
[ "$uid" = 10001 ] || fail "the service runs as uid $uid, expected 10001"
[ "$(tr '\0' ' ' <"/proc/$pid/cmdline")" = "/usr/bin/farsight serve " ] || fail "PID 1 of the container is not farsight serve"
ok "PID 1 is /usr/bin/farsight serve, uid $uid"

step "owner setup, an API key and a monitor"
link=$(pod exec "$ctr" /usr/bin/farsight setup-link) || fail "farsight setup-link in the container failed"
[[ $link =~ ^$base/setup/([A-Za-z0-9_-]+)$ ]] || fail "setup-link printed '$link'"
token=${BASH_REMATCH[1]}
answer=$(curl -fsS --max-time 5 "$base/api/v1/auth/setup/$token") || fail "GET the setup link failed"
secret=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["totp"]["secret"])' <<<"$answer") || fail "no authenticator secret: ${answer:0:200}"
code=$(python3 -c 'import base64,hmac,struct,sys,time
k=base64.b32decode(sys.argv[1]+"="*(-len(sys.argv[1])%8))
h=hmac.new(k,struct.pack(">Q",int(time.time())//30),"sha1").digest()
o=h[-1]&15
print("%06d"%((struct.unpack(">I",h[o:o+4])[0]&0x7fffffff)%1000000))' "$secret")
status=$(curl -sS --max-time 10 -o "$work/setup.json" -w '%{http_code}' -D "$work/setup.headers" \
  -H 'Content-Type: application/json' -H "Origin: $base" \
  -d "{\"email\":\"owner@example.com\",\"password\":\"container test password 1\",\"code\":\"$code\"}" \
  "$base/api/v1/auth/setup/$token")
[ "$status" = 200 ] || fail "POST setup answered $status: $(cat "$work/setup.json")"
cookie=$(sed -n 's/^[Ss]et-[Cc]ookie: \(service_session=[^;]*\).*/\1/p' "$work/setup.headers" | tr -d '\r')
key=$(curl -fsS --max-time 5 -H "Cookie: $cookie" -H "Origin: $base" -H 'Content-Type: application/json' \
  -d '{"name":"container","scope":"admin"}' "$base/api/v1/keys" | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])') ||
  fail "POST /api/v1/keys gave no key"
curl -fsS --max-time 5 -o /dev/null -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d '{"name":"Kept","kind":"http","slug":"kept","http":{"url":"http://127.0.0.1:8080/api/health"}}' "$base/api/v1/monitors" ||
  fail "POST /api/v1/monitors failed"
ok "owner, key and monitor 'kept' created"

step "podman stop: SIGTERM to PID 1"
t0=$(date +%s%N)
pod stop -t 10 "$ctr" >/dev/null 2>>"$podman_log" || fail "podman stop failed"
ms=$((($(date +%s%N) - t0) / 1000000))
code=$(pod inspect --format '{{.State.ExitCode}}' "$ctr")
[ "$code" = 0 ] || fail "farsight exited $code on podman stop, expected 0"
[ "$ms" -lt 10000 ] || fail "podman stop took $ms ms (10 s would mean SIGKILL)"
pod logs "$ctr" 2>&1 | grep -q 'SIGTERM received, shutting down' || fail "the log does not show a graceful stop"
pod logs "$ctr" 2>&1 | grep -q 'INFO \[farsight\] stopped' || fail "the log does not end with 'stopped'"
ok "exit 0 in $ms ms, after 'SIGTERM received, shutting down' ... 'stopped'"
pod rm "$ctr" >/dev/null 2>>"$podman_log"

step "a new container on the same volume"
ctr=$(run_service farsight-smoke-2)
wait_healthy "$ctr"
monitors=$(curl -fsS --max-time 5 -H "Authorization: Bearer $key" "$base/api/v1/monitors") || fail "the key made before the restart was refused"
grep -q '"slug":"kept"' <<<"$monitors" || fail "the monitor made before the restart is gone: ${monitors:0:300}"
ok "the owner's key and the monitor survived"
pod stop -t 10 "$ctr" >/dev/null 2>>"$podman_log"
pod rm "$ctr" >/dev/null 2>>"$podman_log"
ctr=""

step "start-up errors"
expect_failure() { # want-exit want-line podman-run-args...
  local want_code=$1 want=$2 out code
  shift 2
  code=0
  out=$(pod run --rm --health-interval disable "$@" "$image" 2>&1 </dev/null) || code=$?
  out=$(quiet <<<"$out")
  # podman run gives the container's exit code as its own.
  [ "$code" = "$want_code" ] || fail "expected exit $want_code, got $code: $out"
  grep -qx "$want" <<<"$out" || fail "expected the line '$want', got: $out"
  ok "exit $code: $out"
}
expect_failure 2 'farsight: FARSIGHT_LISTEN: expected host:port, :port or \[ipv6\]:port, got "nonsense"' -e FARSIGHT_LISTEN=nonsense
mkdir -m 0755 "$work/root-owned"
expect_failure 1 'farsight: FARSIGHT_DATA_DIR: /var/lib/farsight: permission denied; make it writable by the user farsight runs as (or choose another FARSIGHT_DATA_DIR)' \
  -v "$work/root-owned:/var/lib/farsight"

expect_failure 1 'farsight: running as root is refused (FARSIGHT_REFUSE_ROOT is on): files root writes in /var/lib/farsight could not be opened by the service user afterwards; run as the farsight user (in a container: without --user 0), or set FARSIGHT_REFUSE_ROOT=off' \
  --user 0 -v "$volume:/var/lib/farsight"

step "the docker-archives (for a Docker older than 25): each loads as farsight:<version> of its architecture"
for arch in amd64 arm64; do
  tar="$ROOT/dist/farsight_${version//-/\~}_${arch}_docker.tar"
  [ -f "$tar" ] || fail "missing $tar (packaging/build-oci.sh makes it)"
  tar -xOf "$tar" manifest.json | python3 -c 'import json,sys; m=json.load(sys.stdin); assert len(m)==1 and m[0]["RepoTags"]==["docker.io/library/farsight:'"$version"'"], m' ||
    fail "$tar: its manifest.json does not name farsight:$version"
  pod rmi -f "farsight:$version" >/dev/null 2>&1 || true
  pod load -q -i "$tar" >/dev/null
  got=$(pod image inspect --format '{{.Architecture}}/{{.Os}} {{.Config.User}}' "farsight:$version")
  [ "$got" = "$arch/linux farsight" ] || fail "$tar loaded as $got, expected $arch/linux farsight"
  ok "$(basename "$tar"): farsight:$version, linux/$arch, user farsight"
done

printf '\nsmoke-oci: all checks passed\n'
