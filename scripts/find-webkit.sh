#!/usr/bin/env bash
# Prints the path of one piece of WebKitGTK for the end-to-end engine matrix (test/e2e/engines):
#   find-webkit.sh driver       WebKitWebDriver (WEBKIT_DRIVER_PATH), Debian's webkit2gtk-driver
#   find-webkit.sh minibrowser  MiniBrowser (MINIBROWSER_PATH), in libwebkit2gtk-4.1-0's folder
#   find-webkit.sh xvfb-run     xvfb-run (XVFB_RUN_PATH), Debian's xvfb: MiniBrowser needs a display
# The variable wins when set. When a piece is missing and we run as root with apt, all three
# packages are installed at once (about a minute; xauth named too, as xvfb-run needs it and apt
# may be set to skip recommended packages). Otherwise one line of advice, exit 1.
set -uo pipefail
what=${1:-driver}
can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

case "$what" in
  driver) var=WEBKIT_DRIVER_PATH ;;
  minibrowser) var=MINIBROWSER_PATH ;;
  xvfb-run) var=XVFB_RUN_PATH ;;
  *) echo "usage: find-webkit.sh driver|minibrowser|xvfb-run" >&2; exit 2 ;;
esac

given=${!var:-}
if [ -n "$given" ]; then
  if [ -x "$given" ]; then echo "$given"; exit 0; fi
  echo "$var=$given is not an executable file" >&2; exit 1
fi

find_piece() {
  case "$what" in
    driver) command -v WebKitWebDriver ;;
    xvfb-run) command -v xvfb-run >/dev/null && command -v xauth >/dev/null && command -v xvfb-run ;;
    minibrowser)
      # The package names it; the glob covers a multiarch folder dpkg does not answer for.
      found=$(dpkg -L libwebkit2gtk-4.1-0 2>/dev/null | grep '/MiniBrowser$' | head -n 1)
      [ -z "$found" ] && found=$(ls /usr/lib/*/webkit2gtk-4.1/MiniBrowser 2>/dev/null | head -n 1)
      [ -n "$found" ] && [ -x "$found" ] && echo "$found" ;;
  esac
}

find_piece && exit 0
if can_install; then
  echo "Installing Debian's webkit2gtk-driver and xvfb (about a minute)..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq webkit2gtk-driver libwebkit2gtk-4.1-0 xvfb xauth) >&2 || true
  find_piece && exit 0
fi
echo "No $what for WebKitGTK found: install Debian's webkit2gtk-driver and xvfb (apt-get install webkit2gtk-driver xvfb xauth), or set $var and run again." >&2
exit 1
