/**
 * The browser's own autofill, in Chromium: through the DevTools `Autofill` domain
 * (`Autofill.setAddresses`, `Autofill.trigger`) the browser fills the element's billing address,
 * contact and card fields inside its shadow root, as it fills a page's own form, and the payment
 * goes through with what it filled. The demo shop, its switch "what the shop knows about the
 * shopper" on "nothing", so the element asks for everything. Firefox and WebKit offer no way to
 * drive their autofill (docs/widget.md says what was tried).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../chromium.mjs';
import { openCheckout, payButton, result, shownOrderId } from './support/checkout-page.js';
import { useStack } from './support/use-stack.js';

const harness = useStack();

/**
 * The full Chromium (the matrix's, CHROMIUM_BROWSER_PATH): Debian's headless shell, which the
 * rest of the suite uses, has no `Autofill` domain ("'Autofill.trigger' wasn't found").
 */
let browser: Browser | undefined;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_BROWSER_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
});
after(async () => {
  await browser?.close();
});

/** The address Chromium is given to fill, in its own field types. */
const ADDRESS = [
  { name: 'NAME_FULL', value: 'Sherlock Holmes' },
  { name: 'EMAIL_ADDRESS', value: 'sherlock@example.com' },
  { name: 'PHONE_HOME_WHOLE_NUMBER', value: '+442079460018' },
  { name: 'ADDRESS_HOME_LINE1', value: '221B Baker Street' },
  { name: 'ADDRESS_HOME_CITY', value: 'London' },
  { name: 'ADDRESS_HOME_ZIP', value: 'NW1 6XE' },
  { name: 'ADDRESS_HOME_COUNTRY', value: 'GB' },
];

/** The DevTools id of a field of the element (inside its shadow root), by its name. */
async function fieldId(cdp: CDPSession, name: string): Promise<number> {
  const { result: remote } = (await cdp.send('Runtime.evaluate', {
    expression: `document.querySelector('pay-checkout').shadowRoot.querySelector('[name="${name}"]')`,
  })) as { result: { objectId?: string } };
  assert.ok(remote.objectId, `the element has a field named ${name}`);
  const { node } = await cdp.send('DOM.describeNode', { objectId: remote.objectId });
  return node.backendNodeId;
}

/** The values of the element's fields, by name. */
const values = (page: Page) =>
  page.evaluate(() =>
    Object.fromEntries(
      [
        ...document
          .querySelector('pay-checkout')!
          .shadowRoot!.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select'),
      ].map((el) => [el.name, el.value]),
    ),
  );

describe('the browser’s own autofill (Chromium, DevTools Autofill domain)', () => {
  test('fills the address, contact and card fields inside the shadow root; the sale carries them', async () => {
    assert.ok(browser, 'Chromium started');
    const page = await (await browser.newContext()).newPage();
    await openCheckout(page, harness.stack().shopUrl, { knows: 'Nothing (the checkout asks)' });
    const orderId = await shownOrderId(page);
    await page.locator('pay-checkout').locator('[name="email"]').waitFor();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    await cdp.send('Autofill.enable');
    await cdp.send('Autofill.setAddresses', { addresses: [{ fields: ADDRESS }] });
    // Chromium parses a form once a shopper has been in it.
    await page.locator('pay-checkout').locator('[name="email"]').click();
    await page.waitForTimeout(1000);
    await cdp.send('Autofill.trigger', {
      fieldId: await fieldId(cdp, 'email'),
      address: { fields: ADDRESS },
    });
    // The address fields are the form's `billing` section (their tokens say so), the e-mail and
    // phone its default one: Chromium fills one section per pick, so the shopper picks twice.
    await page.locator('pay-checkout').locator('[name="address1"]').click();
    await page.waitForTimeout(500);
    await cdp.send('Autofill.trigger', {
      fieldId: await fieldId(cdp, 'address1'),
      address: { fields: ADDRESS },
    });
    const card = harness.card('approved');
    await page.locator('pay-checkout').locator('[name="number"]').click();
    await page.waitForTimeout(500);
    await cdp.send('Autofill.trigger', {
      fieldId: await fieldId(cdp, 'number'),
      card: {
        number: card.pan,
        name: 'Sherlock Holmes',
        expiryMonth: card.expMonth,
        expiryYear: card.expYear,
        cvc: card.cvv,
      },
    });
    await page.waitForTimeout(500);
    const filled = await values(page);
    assert.deepEqual(
      {
        email: filled.email,
        country: filled.country,
        address1: filled.address1,
        city: filled.city,
        zipCode: filled.zipCode,
        number: filled.number?.replace(/\s/g, ''),
        name: filled.name,
        cvc: filled.cvc,
      },
      {
        email: 'sherlock@example.com',
        country: 'GB',
        address1: '221B Baker Street',
        city: 'London',
        zipCode: 'NW1 6XE',
        number: card.pan,
        name: 'Sherlock Holmes',
        cvc: card.cvv,
      },
      `what the browser filled: ${JSON.stringify(filled)}`,
    );
    assert.equal(filled.phone?.replace(/\D/g, '').slice(-10), '2079460018', filled.phone);
    await payButton(page).click();
    assert.match(await result(page), /approved/i);
    const order = (await harness.order(orderId)) as unknown as { gatewayOrderId: string };
    const payer = (await (
      await fetch(`${harness.stack().sandboxUrl}/sandbox/payer/${order.gatewayOrderId}`)
    ).json()) as Record<string, string>;
    assert.deepEqual(
      [payer.email, payer.phone, payer.address1, payer.city, payer.zip_code, payer.country],
      ['sherlock@example.com', '+442079460018', '221B Baker Street', 'London', 'NW1 6XE', 'GB'],
    );
  });
});
