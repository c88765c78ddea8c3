/**
 * One stack and one browser per test file; a fresh browser context (cookies, storage) per test.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { scaled } from '../../support/time-scale.js';
import { DESKTOP, launchBrowser } from './browser.js';
import { type TestCard, testCards } from './checkout-page.js';
import { saveFailure } from './failure-artefacts.js';
import { type Stack, type StackOptions, startStack } from './stack.js';

/**
 * For a suite whose tests may pay at once: each test has a browser context and an order of its
 * own, and most of a payment is waiting on the bank's pages and the gateway's delays, so a few
 * shoppers at a time share the stack and the browser.
 */
export const SHOPPERS_AT_ONCE = { concurrency: 3 };

/** What the journeys read of the merchant API's order. */
export interface MerchantOrder {
  status: string;
  amount: string;
  currency: string;
  attempts: { id: string; status: string; abandoned: boolean }[];
}

export interface Harness {
  stack(): Stack;
  card(scenario: string): TestCard;
  /** The order as the merchant API reports it (the backend's word, not the page's). */
  order(orderId: string): Promise<MerchantOrder>;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
}

export function useStack(options: StackOptions | (() => Promise<StackOptions>) = {}): Harness {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  let cards = new Map<string, TestCard>();

  before(async () => {
    stack = await startStack(typeof options === 'function' ? await options() : options);
    browser = await launchBrowser();
    cards = await testCards(stack.sandboxUrl);
  });

  after(async () => {
    await browser?.close();
    await stack?.stop();
  });

  // A failed test leaves screenshots of the pages opened since it began (failure-artefacts.ts).
  const opened: { page: Page; at: number }[] = [];
  const began = new Map<string, number>();
  beforeEach((t) => {
    if ('fullName' in t) began.set(t.fullName, Date.now());
  });
  afterEach(async (t) => {
    // `passed` is there at run time on Node 20.20; @types/node does not declare it yet.
    if (!('fullName' in t) || (t as { passed?: boolean }).passed !== false) return;
    const since = began.get(t.fullName) ?? 0;
    await saveFailure(
      t.fullName,
      opened.filter((o) => o.at >= since).map((o) => o.page),
    );
  });

  return {
    stack() {
      assert.ok(stack, 'the stack is running');
      return stack;
    },
    card(scenario) {
      const found = cards.get(scenario);
      assert.ok(found, `the sandbox has a ${scenario} card`);
      return found;
    },
    async order(orderId) {
      assert.ok(stack, 'the stack is running');
      const { status, body } = await stack.merchantApi('GET', `/v1/orders/${orderId}`);
      assert.equal(status, 200, JSON.stringify(body));
      return body as MerchantOrder;
    },
    async newPage(viewport = DESKTOP) {
      assert.ok(browser, 'the browser is running');
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      opened.push({ page, at: Date.now() });
      // How long a step may wait for what it looks for (a field, a frame, a page). Not a claim
      // about the product: the journeys' own bounds (15 s to an outcome) are asserted apart.
      // Generous because a payment to its challenge holds the 10 s Method window, and two e2e
      // files, three shoppers each, share two cores with Chromium. Times the run's time scale.
      page.setDefaultTimeout(scaled(45_000));
      return page;
    },
  };
}
