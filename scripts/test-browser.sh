#!/usr/bin/env bash
# Browser tests: web-test-runner for the widget, then the end-to-end suite, both in Chromium: the
# full browser for the widget's tests, its headless shell where there is one for the end-to-end
# suite (find-chrome.sh says why). CHROME_PATH, when set, is used for both.
set -euo pipefail
cd "$(dirname "$0")/.."
has_widget_tests=$(find test/widget -name '*.test.ts' 2>/dev/null | head -n 1)
has_e2e_tests=$(find test/e2e -name '*.test.ts' 2>/dev/null | head -n 1)
if [ -z "$has_widget_tests" ] && [ -z "$has_e2e_tests" ]; then echo "no browser tests yet"; exit 0; fi
if [ -n "$has_widget_tests" ]; then
  browser=$(bash scripts/find-chrome.sh)
  CHROME_PATH=$browser ./node_modules/.bin/web-test-runner --config web-test-runner.config.mjs
  # The element's tests again on the built CDN file: what the build does to the code (minified
  # literals, renamed internal members) must not change what the element does.
  node scripts/build.mjs --cdn
  CHROME_PATH=$browser ./node_modules/.bin/web-test-runner --config test/widget/cdn.config.mjs
fi
if [ -n "$has_e2e_tests" ]; then
  shell=$(bash scripts/find-chrome.sh headless-shell)
  mapfile -t files < <(find test/e2e -name '*.test.ts' | sort)
  # Two files at a time, and within a file's card matrices three shoppers at once
  # (SHOPPERS_AT_ONCE): a journey is mostly waiting on bank pages and the gateway's delays.
  CHROME_PATH=$shell node --import tsx --test --test-reporter=spec --test-concurrency=2 --test-timeout=600000 "${files[@]}"
fi
