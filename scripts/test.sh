#!/usr/bin/env bash
# The one test command: type check and lint, then the node tests, then the browser tests.
# The halves run one after the other: both are CPU-bound on a 2-core machine (the node half
# 222-257 s and the browser half 210-285 s; the whole command 449-550 s, on a machine where
# `tsc --noEmit` takes 3.3-3.7 s and the same run varies by a fifth from hour to hour; 131 s,
# 105 s and 245 s on one where it takes 2.6 s; 250 s, 240 s and 490 s on one where it takes
# 3.0 s). tsc says little about it: a quarter of the node half's CPU time is the kernel's, and
# about half of that is handing out new memory pages to the test processes and their databases;
# on the 490 s machine one such page cost about 7 µs (246,643 of them took 1.71 s of system time).
# Side by side they took 12.5-14.7 minutes on such a machine against 4 + 7.7 one after the other
# (the end-to-end suite then ran in the full browser, not the headless shell), and the starved
# halves failed time limits that hold when each runs alone (two node files over 120 s; an
# end-to-end step over 45 s).
# 2026-11-28, a 2-core machine shared with four other engineers' work: a run took 9.6 minutes of
# CPU in 10.3 (615 s; the end-to-end suite about 200 s of CPU in 283 s): the browser half waits
# more than it computes, so its end-to-end files run three at a time (scripts/test-browser.sh).
# After that and the node half's longest files first: 461 s at a load average of 6-20 (median
# 11), 513-629 s at 3-27.
# Before anything runs, how busy the machine is (test/support/time-scale.ts): every time limit of
# both halves is a quiet machine's times this factor, so a busy laptop is slower, not red.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TEST_TIME_SCALE:-}" ]; then TEST_TIME_SCALE=$(node --import tsx test/support/time-scale.ts); fi
export TEST_TIME_SCALE
echo "== time scale $TEST_TIME_SCALE"

# The three type checks and the lint side by side (each a few seconds, mostly one core each), each
# one's output printed after all have finished; any failure stops the command as before.
checks=$(mktemp -d)
trap 'rm -rf "$checks"' EXIT
run_check() {
  local status=0
  "${@:2}" >"$checks/$1.out" 2>&1 || status=$?
  echo "$status" >"$checks/$1.status"
}
echo "== type check"
# TypeScript by its package: `.bin/tsc` may be the client generator's TypeScript 5 (package.json's
# typescript-5-api alias links a `tsc` too).
tsc=./node_modules/typescript/bin/tsc
run_check tsc-root $tsc --noEmit -p tsconfig.json &
run_check tsc-widget $tsc --noEmit -p widget/tsconfig.json &
run_check tsc-server $tsc --noEmit -p server/tsconfig.json &
run_check lint ./node_modules/.bin/biome check --error-on-warnings . &
wait
failed=0
for check in tsc-root tsc-widget tsc-server lint; do
  [ "$check" = lint ] && echo "== lint"
  cat "$checks/$check.out"
  [ "$(cat "$checks/$check.status")" -eq 0 ] || failed=1
done
[ "$failed" -eq 0 ]
echo "== node tests"
node_status=0
bash scripts/test-node.sh || node_status=$?
echo "== browser tests"
browser_status=0
bash scripts/test-browser.sh || browser_status=$?
echo "== node tests: exit $node_status; browser tests: exit $browser_status"
[ "$node_status" -eq 0 ] && [ "$browser_status" -eq 0 ]
