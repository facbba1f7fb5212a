#!/usr/bin/env bash
# Debian packages the tests need, installed when missing (the first part of `npm test`).
# As root it installs them with apt-get; otherwise it names the exact command and stops.
# Keep in step with what test/ uses: the ping checker's system `ping`, and Debian's Chromium (with a
# font) for the email rendering test (test/channels/email-render.e2e-spec.ts, driven by playwright-core),
# python3 to run the webhook verification snippet of docs/channels.md (test/channels/webhook-docs.e2e-spec.ts),
# iproute2's `ip` for the network namespaces of the uplink and DNS rebinding tests (test/faults/uplink,
# test/security/ssrf-rebinding) and of the agent cut off from the service (test/agent/agents-netns), systemd's `systemd-analyze` to rate the unit's sandbox
# (test/security/systemd-unit; installing the package in a container starts nothing), and `pebble`,
# Let's Encrypt's ACME test server, for the custom hosts' certificate orders (test/hosts/), and the
# servers the service kinds' checkers are tested against on 127.0.0.1 (test/checkers/): redis-server,
# and postgresql (its initdb and postgres under /usr/lib/postgresql/15/bin; as root they run as the
# package's `postgres` user, since PostgreSQL refuses root), and mariadb-server (mariadb-install-db and
# mariadbd, told --user=root when root: a throwaway server in a temporary directory), and podman with
# runc and gcc (podman's Docker-compatible API with real containers of an image built from a static C
# program, since no registry is reachable: test/checkers/docker-podman),
# and mosquitto with its mosquitto_passwd (an MQTT broker with a password file, an access list and a
# TLS listener: test/checkers/mqtt), and `prometheus` for its `promtool check metrics` and a real server scraping GET /metrics
# (test/system/metrics.e2e-spec.ts).
set -euo pipefail

need=()
command -v ping >/dev/null 2>&1 || need+=(iputils-ping)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v ip >/dev/null 2>&1 || need+=(iproute2)
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
command -v pebble >/dev/null 2>&1 || need+=(pebble)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v mosquitto_passwd >/dev/null 2>&1 || need+=(mosquitto)
[ -x /usr/lib/postgresql/15/bin/initdb ] || need+=(postgresql)
command -v mariadbd >/dev/null 2>&1 || need+=(mariadb-server)
command -v podman >/dev/null 2>&1 || need+=(podman)
command -v runc >/dev/null 2>&1 || need+=(runc)
command -v gcc >/dev/null 2>&1 || need+=(gcc libc6-dev)

[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "npm test: missing Debian packages: ${need[*]}" >&2
  echo "install them with: sudo apt-get install -y --no-install-recommends ${need[*]}" >&2
  exit 1
fi
echo "npm test: installing ${need[*]} from Debian"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
