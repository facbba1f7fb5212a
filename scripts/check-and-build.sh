#!/usr/bin/env bash
# The second part of `npm test`: the type check of everything (tests and bench included) and the
# build the e2e tests run (`npm run build`: tsc of src/, bench/, harness/ and the test drivers in
# test/*/drivers/, then the dev bundle), side by side on two cores; fails if either fails.
set -euo pipefail
cd "$(dirname "$0")/.."

tsc --noEmit -p tsconfig.json &
check=$!
if ! npm run build --silent; then
  wait "$check" || true
  exit 1
fi
wait "$check"
