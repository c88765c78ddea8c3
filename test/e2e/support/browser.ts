/**
 * Chromium for the end-to-end suite, driven by playwright-core (which never downloads a browser:
 * it drives the binary scripts/find-chrome.sh found, passed in CHROME_PATH).
 */
import { mkdir } from 'node:fs/promises';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Flags that keep Chromium quiet and working as root on a closed network. */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  return chromium.launch({ executablePath, headless: true, args: ARGS });
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Screenshots of the main states, for a person to look at; the folder is git-ignored. */
export const SCREENSHOT_DIR = new URL('../../../test-output/screenshots/', import.meta.url);

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOT_DIR).pathname, fullPage: true });
}
