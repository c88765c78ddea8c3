import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, screenshot } from './support/browser.js';
import {
  answerChallenge,
  events,
  openCheckout,
  payButton,
  result,
  type TestCard,
  testCards,
  typeCard,
} from './support/shopper.js';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
let browser: Browser;
let cards: Map<string, TestCard>;

before(async () => {
  stack = await startStack();
  browser = await launchBrowser();
  cards = await testCards(stack.sandboxUrl);
});

after(async () => {
  await browser?.close();
  await stack?.stop();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  return context.newPage();
}

function card(scenario: string): TestCard {
  const found = cards.get(scenario);
  assert.ok(found, `the sandbox has a ${scenario} card`);
  return found;
}

describe('paying on the demo shop', () => {
  test('approved card: the shop says approved and the order is approved', async () => {
    const page = await newPage();
    await openCheckout(page, stack.shopUrl, { amount: '10.42', currency: 'EUR' });
    await typeCard(page, card('approved'));
    await payButton(page).click();
    assert.match(await result(page), /Payment approved/);
    await screenshot(page, 'approved');
    const logged = await events(page);
    assert.ok(
      logged.some((line) => line.includes('pay-success')),
      logged.join('\n'),
    );
    await page.context().close();
  });

  test('3DS 2 challenge with the right code: approved', async () => {
    const page = await newPage();
    await openCheckout(page, stack.shopUrl);
    const challengeCard = card('3ds2-challenge');
    await typeCard(page, challengeCard);
    await payButton(page).click();
    await answerChallenge(page, challengeCard.otp ?? '');
    assert.match(await result(page), /Payment approved/);
    await page.context().close();
  });
});
