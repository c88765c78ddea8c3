/**
 * Every sandbox scenario through the demo shop, as a shopper pays: type the card, pay, finish the
 * challenge by typing the code, and read the result the shop shows. Each test also reads the
 * order through the merchant API, so the final status is the backend's, not only the page's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { scaled } from '../support/time-scale.js';
import { screenshot } from './support/browser.js';
import {
  answerChallenge,
  autofillCard,
  challengeFrame,
  events,
  openCheckout,
  payButton,
  result,
  shownOrderId,
} from './support/checkout-page.js';
import { SHOPPERS_AT_ONCE, useStack } from './support/use-stack.js';

const harness = useStack();

async function pay(scenario: string): Promise<Page> {
  const page = await harness.newPage();
  await openCheckout(page, harness.stack().shopUrl);
  await autofillCard(page, harness.card(scenario));
  await payButton(page).click();
  return page;
}

/** The order the shop shows, as the merchant API reports it. */
async function orderOf(page: Page) {
  return harness.order(await shownOrderId(page));
}

function methodCompletion(logged: string[]): string | undefined {
  const line = logged.find((l) => l.includes('pay-3ds-method') && l.includes('"complete"'));
  return line?.match(/"compInd":"([YNU])"/)?.[1];
}

describe('every sandbox scenario, paid on the demo shop', SHOPPERS_AT_ONCE, () => {
  test('approved', async () => {
    const page = await pay('approved');
    assert.match(await result(page), /Payment approved/);
    const order = await orderOf(page);
    assert.deepEqual([order.status, order.amount, order.currency], ['approved', '10.42', 'EUR']);
    assert.ok(
      (await events(page)).some((l) => l.startsWith('pay-success') || l.includes(' pay-success ')),
    );
    await screenshot(page, 'approved');
  });

  for (const [scenario, status] of [
    ['declined', 'declined'],
    ['insufficient-funds', 'declined'],
    ['error', 'error'],
    ['filtered', 'filtered'],
  ] as const) {
    test(scenario, async () => {
      const page = await pay(scenario);
      assert.match(await result(page), /Payment declined/);
      assert.equal((await orderOf(page)).status, status);
      if (scenario === 'declined') await screenshot(page, 'declined');
    });
  }

  test('unknown-then-approved', async () => {
    const page = await pay('unknown-then-approved');
    assert.match(await result(page, scaled(60_000)), /Payment approved/);
    assert.equal((await orderOf(page)).status, 'approved');
  });

  test('3ds2-frictionless: the method completes (Y), no challenge, approved', async () => {
    const page = await pay('3ds2-frictionless');
    assert.match(await result(page), /Payment approved/);
    const logged = await events(page);
    assert.equal(methodCompletion(logged), 'Y', logged.join('\n'));
    assert.ok(!logged.some((l) => l.includes('pay-challenge')), 'no challenge was shown');
    assert.equal((await orderOf(page)).status, 'approved');
  });

  test('3ds2-challenge: the right code approves', async () => {
    const page = await pay('3ds2-challenge');
    const dialog = page.getByRole('dialog');
    await challengeFrame(page).getByLabel('One-time code').waitFor();
    await screenshot(page, 'challenge');
    assert.ok(await dialog.isVisible());
    await answerChallenge(page, harness.card('3ds2-challenge').otp ?? '');
    assert.match(await result(page), /Payment approved/);
    assert.equal(await dialog.isVisible(), false);
    assert.equal((await orderOf(page)).status, 'approved');
  });

  test('3ds2-challenge: a wrong code declines', async () => {
    const page = await pay('3ds2-challenge');
    await answerChallenge(page, '0000');
    assert.match(await result(page), /Payment declined/);
    assert.equal((await orderOf(page)).status, 'declined');
  });

  test('3ds2-challenge: Cancel on the bank page declines', async () => {
    const page = await pay('3ds2-challenge');
    await challengeFrame(page).getByRole('button', { name: 'Cancel' }).click();
    assert.match(await result(page), /Payment declined/);
    assert.equal((await orderOf(page)).status, 'declined');
  });

  test('3ds2-challenge: Escape asks first; confirmed, the dialog closes and the shop says cancelled', async () => {
    const page = await pay('3ds2-challenge');
    await challengeFrame(page).getByLabel('One-time code').waitFor();
    await page.keyboard.press('Escape');
    const dialog = page.getByRole('dialog');
    // Still open, the bank's page untouched, until the shopper confirms.
    await dialog.getByRole('button', { name: 'Keep confirming' }).waitFor();
    assert.equal(await challengeFrame(page).getByLabel('One-time code').isVisible(), true);
    await dialog.getByRole('button', { name: 'Cancel payment' }).click();
    assert.match(await result(page), /challenge-cancelled/);
    assert.equal(await dialog.isVisible(), false);
  });

  test('3ds2-challenge-no-method: compInd U, then the challenge approves', async () => {
    const page = await pay('3ds2-challenge-no-method');
    await answerChallenge(page, harness.card('3ds2-challenge-no-method').otp ?? '');
    assert.match(await result(page), /Payment approved/);
    assert.equal(methodCompletion(await events(page)), 'U');
  });

  test('3ds2-method-timeout: after 10 s compInd N is uploaded and the payment approves', async () => {
    const page = await pay('3ds2-method-timeout');
    assert.match(await result(page, 40_000), /Payment approved/);
    // The sandbox refuses Y when its method page never notified, and U when a method URL was
    // given: an approval means N reached the gateway.
    assert.equal(methodCompletion(await events(page)), 'N');
    assert.equal((await orderOf(page)).status, 'approved');
  });

  test('3ds1: the 1.0.2 bank page takes the code and approves', async () => {
    const page = await pay('3ds1');
    await answerChallenge(page, harness.card('3ds1').otp ?? '');
    assert.match(await result(page), /Payment approved/);
    assert.equal((await orderOf(page)).status, 'approved');
  });
});
