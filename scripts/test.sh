#!/usr/bin/env bash
# The one test command: type check and lint, then the node tests, then the browser tests.
# The halves run one after the other. Side by side took 318 s on a machine where the browser half
# left CPU idle (one after the other would have been about 550 s, the sum of the halves alone),
# but both halves are CPU-bound on a 2-core machine where Chromium costs more: there they took
# 12.5-14.7 minutes side by side against 4 + 7.7 minutes one after the other, and the starved
# halves failed time limits that hold when each runs alone (two node files over 120 s; an
# end-to-end step over 45 s).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== type check"
./node_modules/.bin/tsc --noEmit -p tsconfig.json
echo "== lint"
./node_modules/.bin/biome check --error-on-warnings .
echo "== node tests"
node_status=0
bash scripts/test-node.sh || node_status=$?
echo "== browser tests"
browser_status=0
bash scripts/test-browser.sh || browser_status=$?
echo "== node tests: exit $node_status; browser tests: exit $browser_status"
[ "$node_status" -eq 0 ] && [ "$browser_status" -eq 0 ]
