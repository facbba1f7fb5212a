#!/usr/bin/env bash
# The jest part of `npm test` (after scripts/check-and-build.sh), in two lanes at once: the suites
# of scripts/waiting-suites.txt (the 5-minute soak last) one after another in a lane of their own,
# and every other suite on jest's two workers, as before.
#
# Why: those suites spend their time waiting on the wall clock (a 20 s alert batch, an agent's 60 s
# offline, a killed service's restart, a window's end): measured alone, each used under a tenth of
# a core over its run (docs/testing.md, "What the suite costs"). On jest's two workers each held a
# worker, and so half of a 2-core machine, for minutes while it slept. Beside the two workers they
# cost the machine almost nothing, and the other suites keep both workers.
#
# The waiting lane writes to a file, printed when both lanes are done (two jest reports written
# into one terminal at once would interleave); the exit status is the first lane's failure, if any.
set -uo pipefail
cd "$(dirname "$0")/.."
# npm puts node_modules/.bin first on PATH; run by hand, the script finds jest there too.
PATH="$PATH:$PWD/node_modules/.bin"

list=scripts/waiting-suites.txt
mapfile -t waiting < <(node scripts/waiting-order.js)
ignore=()
for f in "${waiting[@]}"; do
  if [ ! -f "$f" ]; then
    echo "$list names $f, which is not there" >&2
    exit 1
  fi
  ignore+=("/${f//./\\.}\$")
done

log=$(mktemp)
trap 'rm -f "$log"' EXIT
jest --runInBand --testSequencer "$PWD/scripts/waiting-order.js" --runTestsByPath "${waiting[@]}" >"$log" 2>&1 &
side=$!

jest --testPathIgnorePatterns /node_modules/ /test/faults/soak "${ignore[@]}"
main=$?
wait "$side"
waited=$?

echo
echo "=== the waiting lane (scripts/waiting-suites.txt), run beside the above ==="
cat "$log"
if [ "$main" -ne 0 ]; then exit "$main"; fi
exit "$waited"
