/**
 * What a failed end-to-end test leaves for a person to read, in test-output/failures/ (git-ignored):
 * a screenshot of each page opened since the test began, and beside it a text file with the
 * page's URL, the URL of each of its frames and the widget events the demo shop logged. A matrix
 * pays three shoppers at once, so the pages of the tests beside it are caught too; the files are
 * numbered in the order the pages opened. A capture that fails says so in its text file and never
 * hides the test's own failure.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { events } from './checkout-page.js';

const FAILURE_DIR = new URL('../../../test-output/failures/', import.meta.url);

export async function saveFailure(testName: string, pages: readonly Page[]): Promise<void> {
  await mkdir(FAILURE_DIR, { recursive: true });
  const base = testName.replace(/[^\w.-]+/g, '-').slice(0, 100);
  for (const [index, page] of pages.entries()) {
    if (page.isClosed()) continue;
    const name = `${base}-${index + 1}`;
    const lines = [`test: ${testName}`, `page: ${page.url()}`];
    try {
      for (const frame of page.frames().slice(1)) lines.push(`frame: ${frame.url()}`);
      const path = new URL(`${name}.png`, FAILURE_DIR).pathname;
      await page.screenshot({ path, fullPage: true, timeout: 10_000 });
      lines.push('widget events, oldest first:', ...(await events(page)));
    } catch (error) {
      lines.push(`capture failed: ${String(error)}`);
    }
    await writeFile(new URL(`${name}.txt`, FAILURE_DIR), `${lines.join('\n')}\n`);
  }
}
