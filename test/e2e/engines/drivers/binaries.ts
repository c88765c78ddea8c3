/**
 * Where the engines' binaries are. scripts/test-browser.sh finds (and, as root with apt,
 * installs) them with scripts/find-firefox.sh and scripts/find-webkit.sh and passes them in the
 * environment; a variable set but empty means the script found nothing, and the engine's tests
 * fail saying so (never skip: a shopper's browser untested is a failure). Run by hand without the
 * variables, the file looks in the Debian packages' places.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface EngineBinaries {
  firefox: string;
  chromium: string;
  webkitDriver: string;
  minibrowser: string;
  xvfbRun: string;
}

const SOURCES: Record<keyof EngineBinaries, { env: string; fallback: string; how: string }> = {
  firefox: { env: 'FIREFOX_PATH', fallback: 'firefox-esr', how: 'scripts/find-firefox.sh' },
  // The full browser, as the widget's tests run it, not the rest of the end-to-end suite's
  // headless shell: Debian's chromium-headless-shell never restores a page from the
  // back/forward cache (notRestoredReasons: "masked"), and Back is part of the matrix.
  chromium: {
    env: 'CHROMIUM_BROWSER_PATH',
    fallback: '/usr/bin/chromium',
    how: 'scripts/find-chrome.sh',
  },
  webkitDriver: {
    env: 'WEBKIT_DRIVER_PATH',
    fallback: 'WebKitWebDriver',
    how: 'scripts/find-webkit.sh driver',
  },
  minibrowser: {
    env: 'MINIBROWSER_PATH',
    fallback: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
    how: 'scripts/find-webkit.sh minibrowser',
  },
  xvfbRun: { env: 'XVFB_RUN_PATH', fallback: 'xvfb-run', how: 'scripts/find-webkit.sh xvfb-run' },
};

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A bare name is looked up on PATH, as the shell would. */
function onPath(name: string): string {
  if (name.includes('/')) return executable(name) ? name : '';
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return '';
}

/** Every binary, '' for one not there (requireBinary says why when an engine needs it). */
export function engineBinaries(): EngineBinaries {
  const found = {} as EngineBinaries;
  for (const [key, source] of Object.entries(SOURCES) as [
    keyof EngineBinaries,
    typeof SOURCES.firefox,
  ][]) {
    const given = process.env[source.env];
    found[key] = given === undefined ? onPath(source.fallback) : given;
  }
  return found;
}

/** The binary's path, or an error that says where it should have come from. */
export function requireBinary(bins: EngineBinaries, key: keyof EngineBinaries): string {
  const source = SOURCES[key];
  const path = bins[key];
  if (path && executable(path)) return path;
  const given = process.env[source.env];
  throw new Error(
    given === undefined
      ? `${source.fallback} not found (${source.env} unset): run \`bash ${source.how}\` (as root it installs the Debian package) or set ${source.env}`
      : `${source.env}=${JSON.stringify(given)} is not an executable: \`bash ${source.how}\` found nothing (as root with apt it installs the Debian package; see its message above)`,
  );
}
