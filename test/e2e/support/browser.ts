/**
 * Chromium for the end-to-end suite, driven by playwright-core (which never downloads a browser:
 * it drives the binary scripts/find-chrome.sh found, passed in CHROME_PATH).
 */
import { mkdir } from 'node:fs/promises';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.mjs';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Screenshots of the main states, for a person to look at; the folder is git-ignored. */
export const SCREENSHOT_DIR = new URL('../../../test-output/screenshots/', import.meta.url);

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOT_DIR).pathname, fullPage: true });
}
