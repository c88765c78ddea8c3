/**
 * A returning shopper on the demo shop, in Chromium: pays once and agrees to save the card, comes
 * back as a returning customer, and pays with the saved card by its security code alone, through
 * the 3-D Secure challenge its bank asks for (the sandbox's saved-card-challenge card).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scaled } from '../support/time-scale.js';
import {
  answerChallenge,
  events,
  openCheckout,
  payButton,
  result,
  shownOrderId,
  typeCard,
} from './support/checkout-page.js';
import { useStack } from './support/use-stack.js';

const harness = useStack();

/** The order's card reference, once the backend made it (it does so after the approval). */
async function cardRefOf(orderId: string): Promise<{ id: string; last4: string } | undefined> {
  for (const end = Date.now() + scaled(10_000); Date.now() < end; ) {
    const order = (await harness.order(orderId)) as { cardRef?: { id: string; last4: string } };
    if (order.cardRef) return order.cardRef;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

describe('a returning shopper on the demo shop', () => {
  test('pays and saves the card, comes back, pays with it by its security code (and its challenge)', async () => {
    const card = harness.card('saved-card-challenge');
    const page = await harness.newPage();

    // First visit: the box to save the card is there, unticked; ticked, the payment saves it.
    await openCheckout(page, harness.stack().shopUrl);
    const first = await shownOrderId(page);
    const consent = page.getByRole('checkbox', { name: 'Save this card for next time' });
    assert.equal(await consent.isChecked(), false);
    await typeCard(page, card);
    await consent.check();
    await payButton(page).click();
    assert.match(await result(page), /Payment approved/);
    const saved = await cardRefOf(first);
    assert.equal(saved?.last4, card.pan.slice(-4));

    // Next visit, as a returning customer: the saved card is offered and chosen; only its code.
    await page.goto(harness.stack().shopUrl);
    await page.getByRole('checkbox', { name: /Returning customer/ }).check();
    await page.getByRole('button', { name: 'Go to payment' }).click();
    await payButton(page).waitFor();
    const second = await shownOrderId(page);
    const option = page.getByRole('radio', { name: `Visa •••• ${card.pan.slice(-4)}, 12/30` });
    assert.equal(await option.isChecked(), true);
    assert.equal(await page.getByLabel('Card number').count(), 0);
    const code = page.getByLabel('Security code');
    await code.click();
    await code.pressSequentially(card.cvv);
    await payButton(page).click();
    await answerChallenge(page, card.otp ?? '');
    assert.match(await result(page), /Payment approved/);

    const order = (await harness.order(second)) as { status: string; cardRef?: unknown };
    assert.equal(order.status, 'approved');
    // Paid with a saved card, it saves nothing new.
    assert.equal(order.cardRef, null);
    const log = await events(page);
    assert.ok(
      log.some((e) => e.includes('pay-submit') && e.includes(`"last4":"${card.pan.slice(-4)}"`)),
      log.join('\n'),
    );
    assert.ok(log.some((e) => e.includes('pay-challenge') && e.includes('"phase":"open"')));
  });
});
