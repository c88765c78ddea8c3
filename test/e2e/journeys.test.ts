/**
 * Whole shopper journeys beyond a single payment: 3-D Secure by full-page redirect, the hosted
 * form, a double click, the merchant's operations on the order from the shop's page, and a
 * phone-sized screen. (Reloads and Back in the middle of 3-D Secure: three-ds-journeys.test.ts.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { APPROVED_CARD_INPUT, BROWSER } from '../support/fixtures.js';
import { PHONE, screenshot } from './support/browser.js';
import {
  answerChallenge,
  challengeFrame,
  openCheckout,
  payButton,
  result,
  SHOPPER,
  shownOrderId,
  typeCard,
} from './support/checkout-page.js';
import { SHOPPERS_AT_ONCE, useStack } from './support/use-stack.js';

const harness = useStack();

function countRequests(page: Page, path: string): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path && request.method() === 'POST') count++;
  });
  return () => count;
}

async function orderStatus(orderId: string): Promise<string> {
  return (await harness.order(orderId)).status;
}

/** The order panel's facts (`Captured` → `4.00` ...), after the shop refreshed them. */
async function orderFact(page: Page, term: string): Promise<string> {
  return (await page.locator(`#order-view dt:text-is("${term}") + dd`).textContent()) ?? '';
}

describe('shopper journeys on the demo shop', SHOPPERS_AT_ONCE, () => {
  test('challenge by redirect: the whole page goes to the bank and comes back paid', async () => {
    const page = await harness.newPage();
    const challenge = harness.card('3ds2-challenge');
    await openCheckout(page, harness.stack().shopUrl, { challenge: 'By redirect' });
    const orderId = await shownOrderId(page);
    await typeCard(page, challenge);
    await payButton(page).click();
    // The bank's page is now the top-level page, on the sandbox's origin.
    await page.getByLabel('One-time code').fill(challenge.otp ?? '');
    assert.equal(new URL(page.url()).origin, harness.stack().sandboxUrl);
    await page.getByRole('button', { name: 'Submit' }).click();
    assert.match(await result(page), /Payment approved/);
    assert.equal(new URL(page.url()).searchParams.get('resume'), orderId);
    assert.equal(await orderStatus(orderId), 'approved');
  });

  test('hosted mode: the gateway page takes the card and the shopper returns paid', async () => {
    const page = await harness.newPage();
    const card = harness.card('approved');
    await openCheckout(page, harness.stack().shopUrl, { mode: 'Hosted form' });
    const orderId = await shownOrderId(page);
    await payButton(page).click();
    await page.getByLabel('Card number').fill(card.pan);
    assert.equal(new URL(page.url()).origin, harness.stack().sandboxUrl);
    await page.getByLabel('Name on card').fill('Alex Shopper');
    await page.getByLabel('Expiry month (MM)').fill(card.expMonth);
    await page.getByLabel('Expiry year (YYYY)').fill(card.expYear);
    await page.getByLabel('Security code (CVV)').fill(card.cvv);
    await screenshot(page, 'hosted-form');
    await page.getByRole('button', { name: 'Pay' }).click();
    assert.match(await result(page), /Payment approved/);
    assert.equal(await orderStatus(orderId), 'approved');
    // The card was typed on the gateway's page: its status names the last four, and the element
    // says them (never "paid with .").
    assert.equal(
      await page.locator('pay-checkout [part="result"] p').textContent(),
      '€10.42 paid with **** 0002.',
    );
  });

  test("the shop's result line and event log mark the element's words with their language (Arabic in an English page)", async () => {
    const page = await harness.newPage();
    await page.goto(harness.stack().shopUrl);
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('ar');
    await page.getByRole('button', { name: 'Go to payment' }).click();
    // Pay on an empty form: the element's own check refuses it, in Arabic.
    const pay = page.locator('pay-checkout').locator('button[type="submit"]');
    await pay.waitFor();
    await pay.click();
    const words = page.locator('#result span[lang="ar"][dir="auto"]');
    await words.waitFor();
    const said = (await words.textContent()) ?? '';
    assert.match(said, /[\u0600-\u06ff]/, said);
    assert.match(
      (await page.locator('#result').textContent()) ?? '',
      /^Payment failed: validation \(/,
    );
    // The event log quotes the same words, marked the same way; its English stays unmarked.
    const logged = page
      .locator('#event-log li', { hasText: 'pay-error' })
      .locator('span[lang="ar"]');
    assert.equal(await logged.textContent(), JSON.stringify(said));
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  });

  test('a double click on Pay sends one payment', async () => {
    const page = await harness.newPage();
    const pays = countRequests(page, '/widget/pay');
    await openCheckout(page, harness.stack().shopUrl);
    const orderId = await shownOrderId(page);
    // The order exists from the session's first moment, and the shop shows it.
    await page
      .locator('#order-view dt:text-is("Status") + dd:text-is("awaiting-payment")')
      .waitFor();
    assert.equal(await orderStatus(orderId), 'awaiting-payment');
    await typeCard(page, harness.card('approved'));
    await payButton(page).dblclick();
    assert.match(await result(page), /Payment approved/);
    assert.equal(pays(), 1);
    assert.equal(await orderStatus(orderId), 'approved');
  });

  test('an unpaid session ended from the order panel: the order expires, the widget takes no payment', async () => {
    const page = await harness.newPage();
    await openCheckout(page, harness.stack().shopUrl);
    const orderId = await shownOrderId(page);
    await page.getByRole('button', { name: 'End the session unpaid' }).click();
    await page.locator('#order-view dt:text-is("Status") + dd:text-is("expired")').waitFor();
    assert.equal(await orderStatus(orderId), 'expired');
    await typeCard(page, harness.card('approved'));
    await payButton(page).click();
    assert.match(await result(page), /expired/i);
    assert.equal(await orderStatus(orderId), 'expired');
  });

  test('preauth: partial capture, then a partial return, from the order panel', async () => {
    const page = await harness.newPage();
    await openCheckout(page, harness.stack().shopUrl, { intent: 'Preauth (capture later)' });
    await typeCard(page, harness.card('approved'));
    await payButton(page).click();
    assert.match(await result(page), /Payment approved/);
    const amounts = ['4.00', '1.50'];
    page.on('dialog', (dialog) => void dialog.accept(amounts.shift()));
    await page.getByRole('button', { name: 'Capture part…' }).click();
    await page.locator('#order-view dt:text-is("Captured") + dd:text-is("4.00")').waitFor();
    await page.getByRole('button', { name: 'Return part…' }).click();
    await page.locator('#order-view dt:text-is("Returned") + dd:text-is("1.50")').waitFor();
    assert.equal(await orderFact(page, 'Captured'), '4.00');
    await screenshot(page, 'order-operations');
  });

  test('preauth: void releases the hold', async () => {
    const page = await harness.newPage();
    await openCheckout(page, harness.stack().shopUrl, { intent: 'Preauth (capture later)' });
    await typeCard(page, harness.card('approved'));
    await payButton(page).click();
    assert.match(await result(page), /Payment approved/);
    await page.getByRole('button', { name: 'Void' }).click();
    await page.locator('#order-view dt:text-is("Voided") + dd:text-is("yes")').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Void' }).count(), 0);
  });

  test('sale: a full return from the order panel', async () => {
    const page = await harness.newPage();
    await openCheckout(page, harness.stack().shopUrl, { amount: '25.00', currency: 'USD' });
    await typeCard(page, harness.card('approved'));
    await payButton(page).click();
    assert.match(await result(page), /Payment approved/);
    await page.getByRole('button', { name: 'Return in full' }).click();
    await page.locator('#order-view dt:text-is("Returned") + dd:text-is("25.00")').waitFor();
  });

  test('a page with only the CDN script and the tag pays against the backend', async () => {
    const { shopUrl, merchantApi } = harness.stack();
    const orderId = `embed-${Date.now()}`;
    const created = await merchantApi('POST', '/v1/checkout-sessions', {
      amount: '7.00',
      currency: 'GBP',
      orderId,
      intent: 'sale',
      description: 'A page with nothing else',
      customer: SHOPPER,
      returnUrl: `${shopUrl}/embed-only.html`,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { token } = created.body as { token: string };
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Embed</title>
<script type="module" src="/pay-checkout.js"></script></head>
<body><pay-checkout backend="${shopUrl}" session="${token}"></pay-checkout></body></html>`;
    const page = await harness.newPage();
    await page.route(`${shopUrl}/embed-only.html`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: html }),
    );
    await page.goto(`${shopUrl}/embed-only.html`);
    // The merchant's own listener: the page has nothing else.
    const success = page.evaluate(
      () =>
        new Promise<unknown>((resolve) =>
          document.addEventListener('pay-success', (e) => resolve((e as CustomEvent).detail)),
        ),
    );
    await typeCard(page, harness.card('approved'));
    assert.equal(
      await payButton(page)
        .textContent()
        .then((t) => t?.includes('7.00')),
      true,
    );
    await payButton(page).click();
    const detail = (await success) as { orderId: string; amount: string; currency: string };
    assert.deepEqual([detail.orderId, detail.amount, detail.currency], [orderId, '7.00', 'GBP']);
    assert.equal(await orderStatus(orderId), 'approved');
  });

  test('a one-minute session: warned at once, "I need more time" extends it on the backend, then the shopper pays', async () => {
    const { shopUrl, merchantApi } = harness.stack();
    const orderId = `short-${Date.now()}`;
    const created = await merchantApi('POST', '/v1/checkout-sessions', {
      amount: '3.00',
      currency: 'GBP',
      orderId,
      intent: 'sale',
      description: 'A short session',
      customer: SHOPPER,
      expiresInMinutes: 1,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { token, id, expiresAt } = created.body as {
      token: string;
      id: string;
      expiresAt: string;
    };
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Short</title>
<script type="module" src="/pay-checkout.js"></script></head>
<body><pay-checkout backend="${shopUrl}" session="${token}"></pay-checkout></body></html>`;
    const page = await harness.newPage();
    await page.route(`${shopUrl}/short.html`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: html }),
    );
    await page.goto(`${shopUrl}/short.html`);
    // Less than two minutes left: the warning shows at once, spoken.
    const warning = page.locator('pay-checkout').getByRole('alert');
    await warning.filter({ hasText: /This checkout closes at/ }).waitFor();
    await warning.getByRole('button', { name: 'I need more time' }).click();
    await warning.filter({ hasNotText: 'I need more time' }).waitFor();
    const session = await merchantApi('GET', `/v1/checkout-sessions/${id}`);
    const extended = Date.parse((session.body as { expiresAt: string }).expiresAt);
    assert.equal(extended - Date.parse(expiresAt), 15 * 60_000);
    await typeCard(page, harness.card('approved'));
    await payButton(page).click();
    await page.locator('pay-checkout').getByRole('heading', { name: 'Payment approved' }).waitFor();
    assert.equal(await orderStatus(orderId), 'approved');
  });

  test('on a phone, the challenge fits the screen and pays', async () => {
    const page = await harness.newPage(PHONE);
    const challenge = harness.card('3ds2-challenge');
    await openCheckout(page, harness.stack().shopUrl);
    await typeCard(page, challenge);
    await payButton(page).click();
    const frame = page.getByRole('dialog').locator('iframe');
    await challengeFrame(page).getByLabel('One-time code').waitFor();
    const box = await frame.boundingBox();
    assert.ok(box && box.width <= PHONE.width && box.x >= 0, JSON.stringify(box));
    await screenshot(page, 'phone-challenge');
    await answerChallenge(page, challenge.otp ?? '');
    assert.match(await result(page), /Payment approved/);
  });
});

describe('another card after a failure, in the same element', SHOPPERS_AT_ONCE, () => {
  /** The form is back after a failed attempt: its notice, the card empty, the name kept. */
  async function formBack(page: Page, why: RegExp): Promise<void> {
    const notice = page.locator('pay-checkout [part="notice"]');
    await notice.waitFor();
    assert.match((await notice.textContent()) ?? '', why);
    assert.equal(await page.getByLabel('Card number').inputValue(), '');
    assert.equal(await page.getByLabel('Name on card').inputValue(), 'Alex Shopper');
    // Focus waits on the card number, for the next card.
    assert.equal(
      await page.evaluate(() =>
        document.querySelector('pay-checkout')?.shadowRoot?.activeElement?.getAttribute('name'),
      ),
      'number',
    );
    await page.getByLabel('Name on card').fill('');
  }

  test('declined, then another card: paid in the same checkout, the order lists both attempts', async () => {
    const page = await harness.newPage();
    await openCheckout(page, harness.stack().shopUrl);
    const orderId = await shownOrderId(page);
    await typeCard(page, harness.card('insufficient-funds'));
    await payButton(page).click();
    // Insufficient funds (51) says so (server/src/checkout/payments/decline-reason.ts).
    await formBack(page, /^There is not enough money on this card\. You can pay again/);
    await typeCard(page, harness.card('approved'));
    await payButton(page).click();
    await page.locator('#result', { hasText: 'Payment approved' }).waitFor();
    const order = await harness.order(orderId);
    assert.equal(order.status, 'approved');
    assert.deepEqual(
      order.attempts.map((a) => [a.id, a.status]),
      [
        [orderId, 'declined'],
        [`${orderId}-2`, 'approved'],
      ],
    );
    await page.locator('#order-view dt:text-is("Attempts")').waitFor();
    assert.match(await orderFact(page, 'Attempts'), /1\. .* declined \(51: Insufficient funds\)/);
  });

  test('a wrong challenge code, then another card: paid', async () => {
    const page = await harness.newPage();
    await openCheckout(page, harness.stack().shopUrl, { challenge: 'In a frame' });
    const orderId = await shownOrderId(page);
    await typeCard(page, harness.card('3ds2-challenge'));
    await payButton(page).click();
    await challengeFrame(page).getByLabel('One-time code').waitFor();
    await answerChallenge(page, '0000');
    await formBack(page, /^Your bank declined the payment\./);
    await typeCard(page, harness.card('approved'));
    await payButton(page).click();
    await page.locator('#result', { hasText: 'Payment approved' }).waitFor();
    assert.equal(await orderStatus(orderId), 'approved');
  });

  test('five declines: the result panel, and a sixth attempt is refused by the backend', async () => {
    const page = await harness.newPage();
    await openCheckout(page, harness.stack().shopUrl);
    const orderId = await shownOrderId(page);
    for (let attempt = 1; attempt <= 5; attempt++) {
      if (attempt > 1) await page.getByLabel('Name on card').fill('');
      await typeCard(page, harness.card('declined'));
      await payButton(page).click();
      if (attempt < 5) await page.locator('pay-checkout [part="notice"]').waitFor();
      else await page.locator('pay-checkout [part="result"] h2').waitFor();
    }
    assert.equal(
      await page.locator('pay-checkout [part="result"] h2').textContent(),
      'Payment declined',
    );
    // A page that sends a sixth payment by hand gets a 409; nothing reaches the gateway.
    const sixth = await page.evaluate(
      async ({ card, browser }) => {
        const el = document.querySelector('pay-checkout');
        const res = await fetch(`${el?.getAttribute('backend')}/widget/pay`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${el?.getAttribute('session')}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({
            card,
            browser,
          }),
        });
        return { status: res.status, body: await res.json() };
      },
      { card: APPROVED_CARD_INPUT, browser: BROWSER },
    );
    assert.equal(sixth.status, 409);
    assert.equal(sixth.body.error.code, 'attempts-exhausted');
    const order = await harness.order(orderId);
    assert.equal(order.attempts.length, 5);
    assert.equal(order.status, 'declined');
  });
});
