/**
 * Firefox ESR as a shopper has it, driven by puppeteer-core over WebDriver BiDi.
 *
 * We start Firefox ourselves and `connect`, rather than `puppeteer.launch`: launch writes a profile
 * whose prefs a caller cannot fully override. It sets `fission.webContentIsolationStrategy` to 0
 * (every site in one content process) after the caller's `extraPrefsFirefox`, and names
 * `cookieBehavior0` in the standard content-blocking category. Our profile sets only the colour
 * scheme, plus Total Cookie Protection (cookieBehavior 5) and site isolation (strategy 1), which
 * are Firefox's defaults, written out so the profile says what it tests. Firefox's Remote Agent
 * applies its own automation prefs (no updates, telemetry or safe-browsing traffic) when it
 * starts. Site isolation is why clicks and keys go through bidi-input.ts.
 *
 * A colour scheme is a pref, read when Firefox starts, so each scheme is a Firefox of its own,
 * started the first time a tab asks for it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { scaled } from '../../../support/time-scale.js';
import { bidiClick, bidiType } from './bidi-input.js';
import { type EngineBinaries, requireBinary } from './binaries.js';
import { killWithUs } from './processes.js';
import { PuppeteerTab } from './puppeteer-tab.js';
import type { Engine, Scheme } from './tab.js';

const VIEWPORT = { width: 1280, height: 900 };

/** A shopper's Firefox: Total Cookie Protection and site isolation, Firefox's own defaults. */
const SHOPPER_PREFS: Record<string, string | number | boolean> = {
  'network.cookie.cookieBehavior': 5,
  'fission.webContentIsolationStrategy': 1,
};

const SCHEME_PREFS: Record<Scheme, Record<string, number>> = {
  // Light whatever the machine's GTK theme says.
  light: { 'layout.css.prefers-color-scheme.content-override': 1, 'ui.systemUsesDarkTheme': 0 },
  dark: { 'layout.css.prefers-color-scheme.content-override': 0, 'ui.systemUsesDarkTheme': 1 },
  // Settings › Colors › Override the colours specified by the page: Always (forced colours).
  forced: { 'browser.display.document_color_use': 2 },
};

const ENDPOINT = /^WebDriver BiDi listening on (ws:\/\/\S+)/m;

interface Running {
  browser: Browser;
  process: ChildProcess;
  profile: string;
}

async function start(firefox: string, scheme: Scheme): Promise<Running> {
  const profile = await mkdtemp(join(tmpdir(), 'pay-checkout-firefox-'));
  const prefs = { ...SHOPPER_PREFS, ...SCHEME_PREFS[scheme] };
  await writeFile(
    join(profile, 'user.js'),
    Object.entries(prefs)
      .map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`)
      .join('\n'),
  );
  const child = spawn(
    firefox,
    ['--headless', '--no-remote', '--profile', profile, '--remote-debugging-port=0', 'about:blank'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' },
    },
  );
  killWithUs(child);
  try {
    const endpoint = await listening(child);
    const browser = await puppeteer.connect({
      browserWSEndpoint: `${endpoint}/session`,
      protocol: 'webDriverBiDi',
      defaultViewport: VIEWPORT,
    });
    return { browser, process: child, profile };
  } catch (error) {
    child.kill('SIGKILL');
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}

/** The Remote Agent's WebSocket address, once Firefox prints it. */
function listening(child: ChildProcess): Promise<string> {
  let output = '';
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Firefox did not listen:\n${output}`)),
      scaled(60_000),
    );
    // Read to the end (not only to the address), so a chatty Firefox never blocks on a full pipe.
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = ENDPOINT.exec(output);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Firefox exited with ${code}:\n${output}`));
    });
  });
}

/** Closes Firefox over BiDi (killed if it has not gone in 10 s), then removes its profile. */
async function stop(running: Running): Promise<void> {
  const { process: child } = running;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await running.browser.close().catch(() => child.kill('SIGKILL'));
  await exited;
  clearTimeout(kill);
  await rm(running.profile, { recursive: true, force: true });
}

export async function launchFirefox(bins: EngineBinaries): Promise<Engine> {
  const firefox = requireBinary(bins, 'firefox');
  const browsers = new Map<Scheme, Promise<Running>>();
  const browserFor = (scheme: Scheme) => {
    let running = browsers.get(scheme);
    if (!running) {
      running = start(firefox, scheme);
      browsers.set(scheme, running);
    }
    return running;
  };
  const { browser } = await browserFor('light');
  return {
    name: 'Firefox ESR',
    version: await browser.version(),
    setup: `puppeteer-core over WebDriver BiDi; prefs ${JSON.stringify(SHOPPER_PREFS)}`,
    backForwardCache: true,
    schemes: {
      light: { how: 'layout.css.prefers-color-scheme.content-override=1' },
      dark: { how: 'ui.systemUsesDarkTheme=1, layout.css.prefers-color-scheme.content-override=0' },
      forced: { how: 'browser.display.document_color_use=2 (override page colours: always)' },
    },
    async newTab(scheme: Scheme = 'light') {
      const { browser } = await browserFor(scheme);
      // A user context of its own: the shopper's cookies and storage, nobody else's.
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      return new PuppeteerTab(page, { click: bidiClick, type: bidiType }, () => context.close());
    },
    async close() {
      // A Firefox that never started has nothing to stop (start cleaned up after itself).
      await Promise.allSettled([...browsers.values()].map(async (r) => stop(await r)));
    },
  };
}
