#!/usr/bin/env bash
# Prints the path of a Chrome/Chromium binary: CHROME_PATH, else the usual paths; when none is
# there and we run as root with apt, installs Debian's chromium first. Otherwise one line of advice.
#
# `find-chrome.sh headless-shell` (the end-to-end suite) prefers Chromium's headless shell, the
# browser Playwright runs headless by default: the same Blink and V8 without the full browser's
# UI layers, it took half the CPU of `chromium --headless` per payment of the 3-D Secure matrix
# (124 s against 275 s of CPU for test/e2e/three-ds.test.ts on a 2-core machine). Debian ships it
# as chromium-headless-shell, installed as chromium is; without it the full browser is used.
# CHROME_PATH still wins. The widget's tests and the bench run the full browser shoppers have.
set -uo pipefail
can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }
apt_install() {
  echo "Installing Debian's $1 (about 30 s)..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1") >&2 || true
}

if [ -n "${CHROME_PATH:-}" ]; then
  if [ -x "$CHROME_PATH" ]; then echo "$CHROME_PATH"; exit 0; fi
  echo "CHROME_PATH=$CHROME_PATH is not an executable file" >&2; exit 1
fi
if [ "${1:-}" = headless-shell ]; then
  shell=/usr/lib/chromium/chromium-headless-shell
  if [ ! -x "$shell" ] && can_install; then apt_install chromium-headless-shell; fi
  [ -x "$shell" ] && { echo "$shell"; exit 0; }
fi
candidates=(/usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome /usr/bin/google-chrome-stable /opt/google/chrome/chrome "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")
for c in "${candidates[@]}"; do [ -x "$c" ] && { echo "$c"; exit 0; }; done
if can_install; then
  apt_install chromium
  [ -x /usr/bin/chromium ] && { echo /usr/bin/chromium; exit 0; }
fi
echo "No Chrome/Chromium found: install one, or set CHROME_PATH=/path/to/chrome and run again." >&2
exit 1
