#!/usr/bin/env bash
# Prints the path of Firefox for the end-to-end engine matrix (test/e2e/engines): FIREFOX_PATH,
# else Debian's firefox-esr (or a firefox) on PATH; when none is there and we run as root with
# apt, installs Debian's firefox-esr first (about 30 s). Otherwise one line of advice, exit 1.
# puppeteer-core drives it over WebDriver BiDi: no geckodriver, and no browser download.
set -uo pipefail
can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

if [ -n "${FIREFOX_PATH:-}" ]; then
  if [ -x "$FIREFOX_PATH" ]; then echo "$FIREFOX_PATH"; exit 0; fi
  echo "FIREFOX_PATH=$FIREFOX_PATH is not an executable file" >&2; exit 1
fi
find_firefox() {
  for name in firefox-esr firefox; do
    found=$(command -v "$name") && { echo "$found"; return 0; }
  done
  return 1
}
find_firefox && exit 0
if can_install; then
  echo "Installing Debian's firefox-esr (about 30 s)..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr) >&2 || true
  find_firefox && exit 0
fi
echo "No Firefox found: install Debian's firefox-esr (apt-get install firefox-esr), or set FIREFOX_PATH=/path/to/firefox and run again." >&2
exit 1
