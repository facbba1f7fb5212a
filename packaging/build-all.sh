#!/usr/bin/env bash
# `npm run package`: the single binary (dist/farsight), then the Debian package (dist/farsight_<version>_amd64.deb).
# Check both with: bash packaging/smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/build-binary.sh
bash packaging/build-deb.sh
