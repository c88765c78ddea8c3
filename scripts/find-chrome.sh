#!/usr/bin/env bash
# Prints the path of a Chrome/Chromium binary: CHROME_PATH, else the usual paths; when none is
# there and we run as root with apt, installs Debian's chromium first. Otherwise one line of advice.
set -uo pipefail
if [ -n "${CHROME_PATH:-}" ]; then
  if [ -x "$CHROME_PATH" ]; then echo "$CHROME_PATH"; exit 0; fi
  echo "CHROME_PATH=$CHROME_PATH is not an executable file" >&2; exit 1
fi
candidates=(/usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome /usr/bin/google-chrome-stable /opt/google/chrome/chrome "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")
for c in "${candidates[@]}"; do [ -x "$c" ] && { echo "$c"; exit 0; }; done
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "No Chrome/Chromium found: installing Debian's chromium (about 30 s)..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >&2 || true
  [ -x /usr/bin/chromium ] && { echo /usr/bin/chromium; exit 0; }
fi
echo "No Chrome/Chromium found: install one, or set CHROME_PATH=/path/to/chrome and run again." >&2
exit 1
