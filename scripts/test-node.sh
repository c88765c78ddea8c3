#!/usr/bin/env bash
# Node's own test runner over every *.test.ts outside the browser suites (test/widget, test/e2e:
# scripts/test-browser.sh runs those once Chromium is found) and the benchmarks. Node 20 does not
# expand globs, so the shell lists the files. Arguments name a subset of files instead.
# Four files at a time: much of a proof's time is waiting on timers and sockets (every file's
# servers listen on ports of their own and its PostgreSQL tables live in a schema of its own); on
# a 2-core machine four took the half from 129 s to 114 s against three (1.8 cores busy from 1.7).
# In-memory PGlite starts from a template: test/support/pglite-template.ts. `--liftoff-only`
# (as `npm start`): a test process lives seconds, too short for V8's optimising compiler to pay
# back compiling PGlite's WebAssembly; it took about a third of the suite's CPU off.
# A file's time limit is a quiet machine's 120 s times TEST_TIME_SCALE (test/support/time-scale.ts:
# measured here when scripts/test.sh did not pass it), as is every wait the tests set themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TEST_TIME_SCALE:-}" ]; then TEST_TIME_SCALE=$(node --import tsx test/support/time-scale.ts); fi
export TEST_TIME_SCALE
file_timeout=$(awk -v s="$TEST_TIME_SCALE" 'BEGIN { printf "%d", 120000 * s }')
# The longest files start first (seconds each took in a run of the half on a quieter machine,
# 2026-11-29: 39, 23, 21, 20, 18, 16, 14, 14, 12, 11): started late, one of them ran on alone at
# the end of the half while the other slots stood empty. A file that moved is simply not in front.
SLOWEST=(
  test/package/pack-install.test.ts
  test/proof/gateway-injection.test.ts
  test/proof/crash.test.ts
  test/proof/payment-attempts.test.ts
  test/server/store/pglite-engine.test.ts
  test/proof/crash-many-instances.test.ts
  test/proof/unsent-money-ops-resent.test.ts
  test/server/main.test.ts
  test/server/checkout/saved-cards/forgotten-refused.test.ts
  test/server/checkout/order-id-namespace.test.ts
  test/proof/fuzz.test.ts
)
if [ "$#" -gt 0 ]; then files=("$@"); else
  mapfile -t all < <(find test -name '*.test.ts' -not -path 'test/widget/*' -not -path 'test/bench/*' -not -path 'test/e2e/*' | sort)
  files=()
  for f in "${SLOWEST[@]}"; do [ -f "$f" ] && files+=("$f"); done
  for f in "${all[@]}"; do [[ " ${SLOWEST[*]} " == *" $f "* ]] || files+=("$f"); done
fi
if [ "${#files[@]}" -eq 0 ]; then echo "no node test files found" >&2; exit 1; fi
# `--test-force-exit`: a file's process ends once its tests and hooks have, instead of when its
# event loop empties. The proofs that leave an instance "dead" mid-call (its gateway fetch never
# settles) kept their process, and a slot of the four, for the gateway client's 30 s request
# timeout after the last test: crash, claimed-upload-resent, interrupted- and
# unsent-money-ops(-resent) each lived 26-32 s past their tests (2026-11-29). In Node 20 a file
# that defines no test at all then never ends (until its time limit): a test that needs a server
# is skipped without one, never left undefined (test/server/sandbox/postgres.test.ts).
exec node --liftoff-only --import tsx --import ./test/support/pglite-template.ts --test --test-force-exit --test-concurrency=4 --test-reporter=spec --test-timeout="$file_timeout" "${files[@]}"
