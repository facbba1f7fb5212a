#!/usr/bin/env bash
# `npm run package`: every form Farsight ships in (docs/packaging.md):
#   dist/farsight                      the linux-x64 single binary
#   dist/farsight_<version>_amd64.deb  its Debian package
#   dist/farsight-linux-arm64          the linux-arm64 single binary (cross-built: Raspberry Pi 4/5, 64-bit OS)
#   dist/farsight_<version>_arm64.deb  its Debian package
#   dist/farsight_<version>_oci.tar    the OCI image, amd64 and arm64 in one index (docker/podman load)
# Check them with: bash packaging/smoke.sh; bash packaging/smoke.sh --arch arm64; bash packaging/smoke-oci.sh
# Each step prints its output's size against its target (binary <= 110 MB arm64, .deb <= 30 MB,
# image <= 120 MB uncompressed per architecture) and fails over it.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
bash packaging/build-binary.sh
bash packaging/build-deb.sh
# The x64 build has just run `npm run build`: the arm64 binary is made from that same build.
FARSIGHT_SKIP_BUILD=1 bash packaging/build-binary-arm64.sh
bash packaging/build-deb.sh --arch arm64
bash packaging/build-oci.sh
printf '==> npm run package: done in %s s\n' "$(($(date +%s) - t0))"
