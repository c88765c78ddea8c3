#!/usr/bin/env bash
# The one test command: type check, lint, node tests, then browser tests. Stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== type check"
./node_modules/.bin/tsc --noEmit -p tsconfig.json
echo "== lint"
./node_modules/.bin/biome check --error-on-warnings .
echo "== node tests"
bash scripts/test-node.sh
echo "== browser tests"
bash scripts/test-browser.sh
