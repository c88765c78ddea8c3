#!/usr/bin/env bash
# Node's own test runner over every *.test.ts outside the browser suites (test/widget, test/e2e:
# scripts/test-browser.sh runs those once Chromium is found) and the benchmarks. Node 20 does not
# expand globs, so the shell lists the files. Arguments name a subset of files instead.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -gt 0 ]; then files=("$@"); else
  mapfile -t files < <(find test -name '*.test.ts' -not -path 'test/widget/*' -not -path 'test/bench/*' -not -path 'test/e2e/*' | sort)
fi
if [ "${#files[@]}" -eq 0 ]; then echo "no node test files found" >&2; exit 1; fi
exec node --import tsx --import ./test/support/pglite-template.ts --test --test-reporter=spec --test-timeout=120000 "${files[@]}"
