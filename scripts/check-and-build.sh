#!/usr/bin/env bash
# The second part of `npm test`: the type check of everything (tests and bench included) and the
# build the e2e tests run (`npm run build`: tsc of src/, bench/, harness/ and the test drivers in
# test/*/drivers/, then the dev bundle), side by side on two cores, then the lint (`npm run lint`,
# docs/contributing.md); fails if any fails.
set -euo pipefail
cd "$(dirname "$0")/.."

tsc --noEmit -p tsconfig.json &
check=$!
if ! npm run build --silent; then
  wait "$check" || true
  exit 1
fi
wait "$check"

# After the type check, not beside it: its type-aware rules build the same program again (about
# twice tsc's CPU), and a type error is the clearer first message.
npm run lint --silent
