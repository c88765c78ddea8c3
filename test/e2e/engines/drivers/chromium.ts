/**
 * Debian's Chromium as shoppers have it, driven by puppeteer-core. Not playwright-core: Playwright
 * launches Chromium with `--disable-back-forward-cache` and with third-party storage partitioning
 * switched off, and a test of Back, or of frames on other sites, must run without those; puppeteer
 * switches neither off. The flags are the suite's quiet, root-safe ones (test/chromium.mjs).
 */
import { basename } from 'node:path';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../../chromium.mjs';
import { type EngineBinaries, requireBinary } from './binaries.js';
import { PUPPETEER_INPUT, PuppeteerTab } from './puppeteer-tab.js';
import type { Engine, Scheme } from './tab.js';

const VIEWPORT = { width: 1280, height: 900 };

/**
 * What each scheme emulates on the page, through CDP's Emulation.setEmulatedMedia (puppeteer's
 * emulateMediaFeatures refuses `forced-colors`, which CDP takes).
 */
const SCHEME_MEDIA: Record<Scheme, { name: string; value: string }[]> = {
  light: [{ name: 'prefers-color-scheme', value: 'light' }],
  dark: [{ name: 'prefers-color-scheme', value: 'dark' }],
  // Chromium renders forced colours, not only the media query, when this is emulated.
  forced: [{ name: 'forced-colors', value: 'active' }],
};

export async function launchChromium(bins: EngineBinaries): Promise<Engine> {
  const executablePath = requireBinary(bins, 'chromium');
  // Debian's chromium-headless-shell is headless only, and takes the old `--headless` flag.
  const shell = basename(executablePath).includes('headless-shell');
  const browser = await puppeteer.launch({
    executablePath,
    headless: shell ? 'shell' : true,
    args: CHROMIUM_ARGS,
    defaultViewport: VIEWPORT,
  });
  return {
    name: 'Chromium',
    version: `${await browser.version()}${shell ? ' (headless shell)' : ''}`,
    setup: "puppeteer-core's defaults: back/forward cache and storage partitioning on",
    backForwardCache: true,
    schemes: {
      light: { how: 'emulated prefers-color-scheme: light' },
      dark: { how: 'emulated prefers-color-scheme: dark' },
      forced: { how: 'emulated forced-colors: active' },
    },
    async newTab(scheme: Scheme = 'light') {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      const cdp = await page.createCDPSession();
      await cdp.send('Emulation.setEmulatedMedia', { features: SCHEME_MEDIA[scheme] });
      return new PuppeteerTab(page, PUPPETEER_INPUT, () => context.close());
    },
    async close() {
      await browser.close();
    },
  };
}
