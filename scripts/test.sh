#!/usr/bin/env bash
# The one test command: type check and lint, then the node tests and the browser tests side by
# side. The two halves share no port (every server listens on a free one) and no table (each
# node test file has a PostgreSQL schema of its own, each e2e stack a data folder of its own), and
# each leaves the other's idle time to use: the node half is mostly CPU, the browser half mostly
# waiting on pages. The browser half prints as it goes; the node half's report follows it.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== type check"
./node_modules/.bin/tsc --noEmit -p tsconfig.json
echo "== lint"
./node_modules/.bin/biome check --error-on-warnings .

node_log=$(mktemp)
trap 'rm -f "$node_log"' EXIT
echo "== node tests (in the background; their report follows the browser tests)"
bash scripts/test-node.sh >"$node_log" 2>&1 &
node_pid=$!
echo "== browser tests"
browser_status=0
bash scripts/test-browser.sh || browser_status=$?
node_status=0
wait "$node_pid" || node_status=$?
echo "== node tests: report"
cat "$node_log"
echo "== node tests: exit $node_status; browser tests: exit $browser_status"
[ "$node_status" -eq 0 ] && [ "$browser_status" -eq 0 ]
