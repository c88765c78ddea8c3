#!/usr/bin/env bash
# `npm run bench`: benchmarks (not tests), written to test/bench/RESULTS.md. Loopback only, about
# 3-5 minutes. `npm run bench -- --load` (17-20) adds the 60 s load tests, PGlite's options and
# the whole of `npm test`; `-- --quick` is a smoke run.
set -euo pipefail
cd "$(dirname "$0")/.."
exec node --import tsx test/bench/run.ts "$@"
