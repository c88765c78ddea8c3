#!/usr/bin/env bash
# Browser tests: web-test-runner for the widget, then the end-to-end suite, both in Chromium: the
# full browser for the widget's tests, its headless shell where there is one for the end-to-end
# suite (find-chrome.sh says why). CHROME_PATH, when set, is used for both. The end-to-end
# suite's engine matrix also runs Firefox ESR and WebKitGTK (find-firefox.sh, find-webkit.sh).
# Every limit the tests set themselves is a quiet machine's times TEST_TIME_SCALE
# (test/support/time-scale.ts), measured here when scripts/test.sh did not pass it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TEST_TIME_SCALE:-}" ]; then TEST_TIME_SCALE=$(node --import tsx test/support/time-scale.ts); fi
export TEST_TIME_SCALE
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
  # The engine matrix (test/e2e/engines) pays in Firefox ESR, WebKitGTK and the full Chromium
  # (whose back/forward cache the headless shell lacks). A piece the finders cannot find or
  # install is passed empty: that engine's tests fail with the reason, the rest still run.
  firefox=$(bash scripts/find-firefox.sh) || firefox=''
  webkit_driver=$(bash scripts/find-webkit.sh driver) || webkit_driver=''
  minibrowser=$(bash scripts/find-webkit.sh minibrowser) || minibrowser=''
  xvfb_run=$(bash scripts/find-webkit.sh xvfb-run) || xvfb_run=''
  chromium=$(bash scripts/find-chrome.sh) || chromium=''
  # The engine matrix first: the longest file, started last it would run on alone at the end.
  mapfile -t files < <(find test/e2e/engines -name '*.test.ts' | sort; find test/e2e -name '*.test.ts' -not -path 'test/e2e/engines/*' | sort)
  # Three files at a time, and within a file's card matrices three shoppers at once
  # (SHOPPERS_AT_ONCE): a journey is mostly waiting on bank pages and the gateway's delays. The
  # suite is not CPU-bound: 179 s of CPU in 339 s at three files at a time on a machine busy with
  # other work (load 15-30), about 200 s in 283 s at two (2026-11-28).
  CHROME_PATH=$shell CHROMIUM_BROWSER_PATH=$chromium FIREFOX_PATH=$firefox \
    WEBKIT_DRIVER_PATH=$webkit_driver MINIBROWSER_PATH=$minibrowser XVFB_RUN_PATH=$xvfb_run \
    node --import tsx --test --test-reporter=spec --test-concurrency=3 --test-timeout="$(awk -v s="$TEST_TIME_SCALE" 'BEGIN { printf "%d", 600000 * s }')" "${files[@]}"
fi
