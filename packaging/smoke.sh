#!/usr/bin/env bash
# Smoke test of what `npm run package` built: dist/farsight and dist/farsight_<version>_amd64.deb,
# or with --arch arm64 dist/farsight-linux-arm64 and dist/farsight_<version>_arm64.deb, the binary
# run under Debian's qemu-user-static with the arm64 C library of the cross toolchain.
#
#   bash packaging/smoke.sh [--arch amd64|arm64]
#
# The binary runs from a fresh temp dir with no node_modules above it and a clean environment:
# --version, serve (cold start to a healthy /api/health, timed), setup-link and the link's token,
# an admin key, a monitor and a check of it, backup, `farsight agent` against it, then SIGTERM (exit 0 within 5 s). The .deb is checked with dpkg-deb (paths, control,
# conffiles, maintainer scripts, the binary inside is the one tested). Exits non-zero on any failure.
set -euo pipefail
# Answers are matched with `grep -q PATTERN <<<"$answer"`, never `printf ... | grep -q`: grep -q stops
# at the first match, and with pipefail the writer's SIGPIPE on a page over 64 KB fails the step.
cd "$(dirname "$0")/.."
ROOT=$PWD

# Modules the bundle leaves out that our dependencies probe for at start and do without (see OPTIONAL
# in packaging/bundle.js). Any other refused require() means a code path we use needs a module that
# is not in the binary.
EXPECTED_PROBES='@nestjs/microservices/microservices-module @nestjs/websockets/socket-module source-map supports-color'

work=""
server_pid=""
step() { printf '\n== %s\n' "$*"; }
ok() { printf 'smoke: ok: %s\n' "$*"; }
fail() {
  printf '\nsmoke: FAIL: %s\n' "$*" >&2
  if [ -n "$work" ] && [ -s "$work/serve.log" ]; then
    printf -- '--- last lines of the server log (%s)\n' "$work/serve.log" >&2
    tail -n 40 "$work/serve.log" >&2
  fi
  exit 1
}
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null || true; fi
  if [ -n "$work" ] && [ "${FARSIGHT_SMOKE_KEEP:-0}" != 1 ]; then rm -rf "$work"; fi
}
trap cleanup EXIT

arch=amd64
case "${1:-}" in
  '') ;;
  --arch) arch=${2:-} ;;
  *) fail "usage: bash packaging/smoke.sh [--arch amd64|arm64]" ;;
esac
# How the binary is run, and how long it may take to become healthy: under qemu every instruction
# is translated, so start-up there is many times slower and says nothing about a real Pi
# (docs/performance.md says what to expect on one).
case "$arch" in
  amd64) bin=dist/farsight runner=() healthy_within_ms=20000 stop_within_ms=5000 slow=1 ;;
  arm64)
    # slow: the factor on every request's time limit under emulation.
    bin=dist/farsight-linux-arm64 healthy_within_ms=180000 stop_within_ms=30000 slow=12
    command -v qemu-aarch64-static >/dev/null 2>&1 || fail "qemu-aarch64-static is required: sudo apt-get install -y qemu-user-static"
    [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || fail "the arm64 C library is required: sudo apt-get install -y libc6-arm64-cross"
    runner=(qemu-aarch64-static -L /usr/aarch64-linux-gnu)
    ;;
  *) fail "--arch must be amd64 or arm64, got '$arch'" ;;
esac
for tool in curl dpkg-deb; do command -v "$tool" >/dev/null 2>&1 || fail "$tool is required"; done
version=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' package.json | head -n 1)
[ -n "$version" ] || fail "cannot read the version from package.json"
deb="dist/farsight_${version//-/\~}_$arch.deb"
[ -x "$bin" ] || fail "$bin is missing: run npm run package"
[ -f "$deb" ] || fail "$deb is missing: run npm run package"

work=$(mktemp -d "${TMPDIR:-/tmp}/farsight-smoke.XXXXXX")
mkdir -p "$work/tmp"
cp "$bin" "$work/farsight"
dir=$work
while :; do
  [ ! -e "$dir/node_modules" ] || fail "$dir/node_modules exists: the binary must be tested away from node_modules"
  [ "$dir" != / ] || break
  dir=$(dirname "$dir")
done
cd "$work"

free_port() {
  local p _
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 40000))
    if ! (: </dev/tcp/127.0.0.1/"$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  return 1
}
port=$(free_port) || fail "no free port found"
base="http://127.0.0.1:$port"
# A clean environment: nothing from the caller (NODE_OPTIONS, NODE_PATH, FARSIGHT_*) leaks in.
# An array, not a function: `"${farsight[@]}" serve &` must make $! the server itself (env execs it),
# or SIGTERM would hit a bash subshell instead.
farsight=(env -i PATH=/usr/bin:/bin HOME="$work" TMPDIR="$work/tmp" LANG=C.UTF-8
  FARSIGHT_DATA_DIR="$work/data" FARSIGHT_LISTEN="127.0.0.1:$port" FARSIGHT_PUBLIC_URL="$base"
  FARSIGHT_CANARIES=off FARSIGHT_TRACE_OPTIONAL=1 "${runner[@]}" "$work/farsight")
now_ms() { echo $(($(date +%s%N) / 1000000)); }

step "binary: $work/farsight ($bin, $arch${runner:+ under ${runner[*]}})"
got=$("${farsight[@]}" --version 2>"$work/version.err") || fail "farsight --version exited $?: $(cat "$work/version.err")"
[ "$got" = "$version" ] || fail "farsight --version printed '$got', expected '$version'"
ok "--version = $version"

step "serve on $base"
t0=$(now_ms)
"${farsight[@]}" serve >"$work/serve.log" 2>&1 &
server_pid=$!
health=""
deadline=$((t0 + healthy_within_ms))
while :; do
  if health=$(curl -fsS --max-time $((1 * slow)) "$base/api/health" 2>/dev/null); then break; fi
  kill -0 "$server_pid" 2>/dev/null || fail "farsight serve exited before it became healthy"
  [ "$(now_ms)" -lt "$deadline" ] || fail "no healthy /api/health within $((healthy_within_ms / 1000)) s"
  sleep 0.01
done
cold_ms=$(($(now_ms) - t0))
grep -q '"ok":true' <<<"$health" || fail "/api/health answered $health"
grep -q "\"version\":\"$version\"" <<<"$health" || fail "/api/health has the wrong version: $health"
ok "healthy: $health"
if [ "$arch" = amd64 ]; then
  ok "cold start to healthy: ${cold_ms} ms"
  [ "$cold_ms" -lt 1000 ] || printf 'smoke: note: cold start %s ms is above the 1 s target\n' "$cold_ms"
else
  ok "start to healthy under qemu: ${cold_ms} ms (emulated: not a performance figure)"
fi

step "setup-link"
link=$("${farsight[@]}" setup-link 2>"$work/setup-link.err") || fail "farsight setup-link exited $?: $(cat "$work/setup-link.err")"
[ "$(printf '%s\n' "$link" | wc -l)" -eq 1 ] || fail "setup-link printed more than one line: $link"
[[ $link =~ ^$base/setup/([A-Za-z0-9_-]+)$ ]] || fail "setup-link printed '$link', expected $base/setup/<token>"
token=${BASH_REMATCH[1]}
answer=$(curl -fsS --max-time $((5 * slow)) "$base/api/v1/auth/setup/$token") || fail "GET /api/v1/auth/setup/<token> failed"
grep -q '"valid":true' <<<"$answer" || fail "the setup link is not valid: ${answer:0:200}"
ok "$link is valid"

step "a rendered page and an asset, from inside the binary"
page=$(curl -fsS --max-time $((5 * slow)) "$base/setup/$token") || fail "GET /setup/<token> failed"
grep -q '<title>Set up Farsight</title>' <<<"$page" || fail "the setup page did not render its head partial: ${page:0:300}"
grep -q '/dashboard/assets/pages/setup.js' <<<"$page" || fail "the setup page does not load its script: ${page:0:300}"
css_type=$(curl -fsS --max-time $((5 * slow)) -o "$work/dashboard.css" -w '%{content_type}' "$base/dashboard/assets/dashboard.css") ||
  fail "GET /dashboard/assets/dashboard.css failed"
[[ $css_type == text/css* ]] || fail "dashboard.css was served as '$css_type'"
cmp -s "$work/dashboard.css" "$ROOT/public/dashboard/dashboard.css" || fail "dashboard.css served by the binary differs from public/dashboard/dashboard.css"
ok "the setup page renders (layout + partial) and dashboard.css is served byte for byte"

step "the served docs and the route description, from inside the binary"
docs=$(curl -fsS --max-time $((5 * slow)) "$base/docs/interface") || fail "GET /docs/interface failed"
grep -q '<title>Uptime Monitoring Service: Interface Specification' <<<"$docs" || fail "/docs/interface did not render docs/interface.md: ${docs:0:300}"
grep -q 'href="/docs/not-shown"' <<<"$docs" || fail "/docs/interface does not list the other pages: ${docs:0:300}"
openapi=$(curl -fsS --max-time $((5 * slow)) "$base/api/openapi.json") || fail "GET /api/openapi.json failed"
grep -q '"openapi":"3.1.0"' <<<"$openapi" || fail "/api/openapi.json is not OpenAPI 3.1: ${openapi:0:200}"
llms=$(curl -fsS --max-time $((5 * slow)) "$base/llms.txt") || fail "GET /llms.txt failed"
[ "${llms%%$'\n'*}" = '# Farsight' ] || fail "/llms.txt does not start with its H1"
ok "/docs/interface, /api/openapi.json and /llms.txt are served"

step "owner setup to an admin API key, over HTTP alone"
# The authenticator code is computed the way an app would (RFC 6238, SHA-1, 30 s, 6 digits).
secret=$(printf '%s' "$answer" | sed -n 's/.*"secret":"\([A-Z2-7]*\)".*/\1/p')
[ -n "$secret" ] || fail "no authenticator secret in the setup answer"
code=$(python3 -c 'import base64,hmac,struct,sys,time
k=base64.b32decode(sys.argv[1]+"="*(-len(sys.argv[1])%8))
h=hmac.new(k,struct.pack(">Q",int(time.time())//30),"sha1").digest()
o=h[-1]&15
print("%06d"%((struct.unpack(">I",h[o:o+4])[0]&0x7fffffff)%1000000))' "$secret") || fail "python3 could not compute the code"
setup=$(curl -sS --max-time $((10 * slow)) -o "$work/setup.json" -w '%{http_code}' -D "$work/setup.headers" \
  -H 'Content-Type: application/json' -H "Origin: $base" \
  -d "{\"email\":\"owner@example.com\",\"password\":\"smoke test password 1\",\"code\":\"$code\"}" \
  "$base/api/v1/auth/setup/$token") || fail "POST setup failed"
[ "$setup" = 200 ] || fail "POST setup answered $setup: $(cat "$work/setup.json")"
cookie=$(sed -n 's/^[Ss]et-[Cc]ookie: \(service_session=[^;]*\).*/\1/p' "$work/setup.headers" | tr -d '\r')
[ -n "$cookie" ] || fail "no session cookie after setup"
key=$(curl -fsS --max-time $((5 * slow)) -H "Cookie: $cookie" -H "Origin: $base" -H 'Content-Type: application/json' \
  -d '{"name":"smoke","scope":"admin"}' "$base/api/v1/keys" | sed -n 's/.*"key":"\(fs_[0-9a-f]*\)".*/\1/p')
[ -n "$key" ] || fail "POST /api/v1/keys gave no key"
keys=$(curl -fsS --max-time $((5 * slow)) -H "Authorization: Bearer $key" "$base/api/v1/keys") || fail "the new key was refused"
grep -q '"name":"smoke"' <<<"$keys" || fail "GET /api/v1/keys does not list the key: ${keys:0:200}"
ok "setup, session cookie, POST /keys and a request with the key all work"

step "a monitor and a check of it"
# The service checks its own health endpoint: a real HTTP check through the binary's network code.
created=$(curl -sS --max-time $((10 * slow)) -o "$work/monitor.json" -w '%{http_code}' -H "Authorization: Bearer $key" \
  -H 'Content-Type: application/json' \
  -d "{\"name\":\"Self\",\"kind\":\"http\",\"http\":{\"url\":\"$base/api/health\"}}" "$base/api/v1/monitors") ||
  fail "POST /api/v1/monitors failed"
[ "$created" = 201 ] || fail "POST /api/v1/monitors answered $created: $(cat "$work/monitor.json")"
monitor_id=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])' <"$work/monitor.json" 2>/dev/null) || monitor_id=""
[ -n "$monitor_id" ] || fail "no id in the created monitor: $(head -c 200 "$work/monitor.json")"
check=$(curl -fsS --max-time $((60 * slow)) -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d '{}' \
  "$base/api/v1/monitors/$monitor_id/check") || fail "POST /api/v1/monitors/$monitor_id/check failed"
grep -q '"outcome":"up"' <<<"$check" || fail "the check of $base/api/health is not up: ${check:0:300}"
ok "monitor $monitor_id created; its check is up"

step "backup"
"${farsight[@]}" backup "$work/backup.db" >"$work/backup.out" 2>"$work/backup.err" ||
  fail "farsight backup exited $?: $(cat "$work/backup.err")"
[ "$(head -c 15 "$work/backup.db" 2>/dev/null)" = "SQLite format 3" ] || fail "backup.db is not an SQLite database"
ok "$(cat "$work/backup.out")"

step "modules refused inside the binary"
probes=$(cat "$work/serve.log" "$work/setup-link.err" "$work/version.err" "$work/backup.err" |
  sed -n 's/^\[farsight-sea\] require("\([^"]*\)") refused.*/\1/p' | sort -u)
for p in $probes; do
  case " $EXPECTED_PROBES " in
    *" $p "*) ;;
    *) fail "the app asked for '$p', which is not in the binary (see OPTIONAL in packaging/bundle.js)" ;;
  esac
done
# shellcheck disable=SC2086 # one name per word, on purpose
ok "only the expected optional probes: $(printf '%s ' $probes)"

step "agent"
# `farsight agent` runs the agent's own bundle (packaging/sea-main.js): it starts, asks the service for
# its monitors, is refused (a token of no location: the 401 path) and stops cleanly on SIGTERM.
env -i PATH=/usr/bin:/bin HOME="$work" TMPDIR="$work/tmp" LANG=C.UTF-8 FARSIGHT_AGENT_SERVER="$base" \
  FARSIGHT_AGENT_TOKEN=fsa_0123456789abcdef0123456789abcdef0123456789abcdef FARSIGHT_AGENT_SPOOL_DIR="$work/spool" \
  FARSIGHT_CANARIES=off FARSIGHT_TRACE_OPTIONAL=1 "${runner[@]}" "$work/farsight" agent >"$work/agent.log" 2>&1 &
agent_pid=$!
t0=$(now_ms)
until grep -q 'the service refused the token (401' "$work/agent.log"; do
  kill -0 "$agent_pid" 2>/dev/null || fail "farsight agent exited: $(tail -n 5 "$work/agent.log")"
  [ $(($(now_ms) - t0)) -lt $((20000 * slow)) ] || fail "farsight agent did not reach the service: $(tail -n 5 "$work/agent.log")"
  sleep 0.1
done
grep -q "Farsight agent $version for $base" "$work/agent.log" || fail "the agent's start line is missing: $(head -n 3 "$work/agent.log")"
agent_rss_kb=$(awk '/^VmRSS/{print $2}' "/proc/$agent_pid/status" 2>/dev/null || echo '?')
kill -TERM "$agent_pid"
rc=0
wait "$agent_pid" || rc=$?
[ "$rc" -eq 0 ] || fail "farsight agent exited $rc after SIGTERM, expected 0: $(tail -n 5 "$work/agent.log")"
! grep -q '^\[farsight-sea\] require' "$work/agent.log" || fail "the agent asked for modules not in the binary: $(grep '^\[farsight-sea\]' "$work/agent.log")"
ok "agent: started, reached the service (refused token), exited 0 on SIGTERM; ${agent_rss_kb} kB resident"

step "SIGTERM"
kill -TERM "$server_pid"
t0=$(now_ms)
while kill -0 "$server_pid" 2>/dev/null && [ $(($(now_ms) - t0)) -lt "$stop_within_ms" ]; do sleep 0.05; done
if kill -0 "$server_pid" 2>/dev/null; then fail "farsight serve still runs $((stop_within_ms / 1000)) s after SIGTERM"; fi
rc=0
wait "$server_pid" || rc=$?
server_pid=""
[ "$rc" -eq 0 ] || fail "farsight serve exited $rc after SIGTERM, expected 0"
ok "exited 0 after SIGTERM in $(($(now_ms) - t0)) ms"
if grep -Eq 'DeprecationWarning|ExperimentalWarning|single executable' "$work/serve.log"; then
  grep -E 'DeprecationWarning|ExperimentalWarning|single executable' "$work/serve.log" >&2
  fail "the server log has runtime warnings"
fi
ok "no Node warnings in the log"
ls "$work"/data/.native/node_sqlite3-*.node >/dev/null 2>&1 || fail "the sqlite3 addon was not cached in the data dir"
ok "sqlite3 addon cached as $(basename "$work"/data/.native/node_sqlite3-*.node)"

step "package: $deb"
cd "$ROOT"
info=$(dpkg-deb --info "$deb") || fail "dpkg-deb --info failed"
field() { printf '%s\n' "$info" | sed -n "s/^ $1: //p"; }
[ "$(field Package)" = farsight ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "${version//-/\~}" ] || fail "Version is '$(field Version)'"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture is '$(field Architecture)', expected $arch"
case "$(field Depends)" in *"libc6 (>= "*"libstdc++6 (>= "*) ;; *) fail "Depends lacks the versioned C and C++ libraries: $(field Depends)" ;; esac
case "$(field Depends)" in *cross*|*:arm64*|*:amd64*) fail "Depends names a cross or qualified package: $(field Depends)" ;; esac
case "$(field Depends)" in *iputils-ping*) ;; *) fail "Depends lacks iputils-ping: $(field Depends)" ;; esac
ok "control: farsight $(field Version) $arch, Depends: $(field Depends)"

contents=$(dpkg-deb --contents "$deb") || fail "dpkg-deb --contents failed"
expect_path() { # mode path
  printf '%s\n' "$contents" | awk -v m="$1" -v p="./$2" '$1 == m && $2 == "root/root" && $NF == p { f = 1 } END { exit !f }' ||
    fail "$deb lacks $1 root/root ./$2"
}
expect_path -rwxr-xr-x usr/bin/farsight
expect_path -rwxr-xr-x usr/sbin/farsightctl
expect_path -rw-r--r-- lib/systemd/system/farsight.service
expect_path -rw-r----- etc/farsight/farsight.env
expect_path -rw-r--r-- lib/systemd/system/farsight-agent.service
expect_path -rw------- etc/farsight/agent.env
expect_path -rw-r--r-- usr/share/doc/farsight/install.md
expect_path -rw-r--r-- usr/share/doc/farsight/agents.md
expect_path -rw-r--r-- usr/share/doc/farsight/copyright
ok "contents: /usr/bin/farsight, /usr/sbin/farsightctl, the units, /etc/farsight/farsight.env and agent.env, docs"

x="$work/deb"
mkdir -p "$x"
dpkg-deb --raw-extract "$deb" "$x" || fail "dpkg-deb --raw-extract failed"
grep -qx /etc/farsight/farsight.env "$x/DEBIAN/conffiles" || fail "/etc/farsight/farsight.env is not a conffile"
grep -qx /etc/farsight/agent.env "$x/DEBIAN/conffiles" || fail "/etc/farsight/agent.env is not a conffile"
for s in postinst prerm postrm; do
  [ -x "$x/DEBIAN/$s" ] || fail "DEBIAN/$s is missing or not executable"
  sh -n "$x/DEBIAN/$s" || fail "DEBIAN/$s: sh -n failed"
  head -n 1 "$x/DEBIAN/$s" | grep -qx '#!/bin/sh' || fail "DEBIAN/$s does not start with #!/bin/sh"
  if command -v dash >/dev/null 2>&1; then dash -n "$x/DEBIAN/$s" || fail "DEBIAN/$s: dash -n failed"; fi
done
bash -n "$x/usr/sbin/farsightctl" || fail "farsightctl: bash -n failed"
ok "conffiles, sh -n postinst prerm postrm, bash -n farsightctl"
cmp -s "$x/usr/bin/farsight" "$bin" || fail "the binary in the .deb differs from $bin"
grep -q '^FARSIGHT_DATA_DIR=/var/lib/farsight$' "$x/etc/farsight/farsight.env" || fail "farsight.env does not set FARSIGHT_DATA_DIR=/var/lib/farsight"
for v in FARSIGHT_LISTEN FARSIGHT_PUBLIC_URL FARSIGHT_HTTPS_LISTEN FARSIGHT_ACME_HTTP_LISTEN FARSIGHT_ACME_DIRECTORY \
  FARSIGHT_ACME_CA_FILE FARSIGHT_DNS_SERVERS FARSIGHT_SMTP FARSIGHT_SMTP_FALLBACK FARSIGHT_MAIL_FROM FARSIGHT_CANARIES \
  FARSIGHT_TRUST_PROXY FARSIGHT_CHALLENGE_SITE_KEY FARSIGHT_CHALLENGE_SECRET FARSIGHT_CHALLENGE_VERIFY_URL FARSIGHT_LOG_LEVEL FARSIGHT_REFUSE_ROOT; do
  grep -q "^#$v=" "$x/etc/farsight/farsight.env" || fail "farsight.env lacks a commented default for $v"
done
ok "the packaged binary is the tested one; farsight.env documents every FARSIGHT_* variable"

if command -v systemd-analyze >/dev/null 2>&1; then
  # verify wants ExecStart to exist: point it at the extracted binary.
  sed "s#^ExecStart=/usr/bin/farsight #ExecStart=$x/usr/bin/farsight #" "$x/lib/systemd/system/farsight.service" \
    >"$work/farsight.service"
  if ! out=$(systemd-analyze verify "$work/farsight.service" 2>&1); then
    printf '%s\n' "$out" >&2
    fail "systemd-analyze verify farsight.service"
  fi
  ok "systemd-analyze verify farsight.service"
  sed "s#^ExecStart=/usr/bin/farsight #ExecStart=$x/usr/bin/farsight #" "$x/lib/systemd/system/farsight-agent.service" \
    >"$work/farsight-agent.service"
  if ! out=$(systemd-analyze verify "$work/farsight-agent.service" 2>&1); then
    printf '%s\n' "$out" >&2
    fail "systemd-analyze verify farsight-agent.service"
  fi
  ok "systemd-analyze verify farsight-agent.service"
else
  printf 'smoke: note: systemd-analyze not installed; the unit was not verified\n'
fi

step "sizes"
bin_size=$(stat -c %s "$bin")
deb_size=$(stat -c %s "$deb")
# The targets of the issue that brought arm64 (MB = 10^6 bytes); x64 keeps its older 120 MiB bound.
bin_target=$([ "$arch" = arm64 ] && echo $((110 * 1000 * 1000)) || echo $((120 * 1024 * 1024)))
deb_target=$((30 * 1000 * 1000))
printf 'binary  %s  %s (%s bytes; target <= %s bytes)\n' "$bin" "$(numfmt --to=iec-i --suffix=B "$bin_size")" "$bin_size" "$bin_target"
printf 'package %s  %s (%s bytes; target <= %s bytes)\n' "$deb" "$(numfmt --to=iec-i --suffix=B "$deb_size")" "$deb_size" "$deb_target"
printf 'start to healthy: %s ms%s\n' "$cold_ms" "$([ "$arch" = amd64 ] || echo ' (under qemu)')"
[ "$bin_size" -le "$bin_target" ] || fail "the binary is over its target"
[ "$deb_size" -le "$deb_target" ] || fail "the package is over its target"
printf '\nsmoke: all checks passed\n'
