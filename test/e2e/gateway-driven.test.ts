/**
 * Gateway-driven 3-D Secure in Chromium on the demo shop (`npm start`): the sandbox cards whose
 * sale and status name only the gateway's own page, as the spec's `redirect_url` or as `html`.
 * The shopper types the code on the gateway's page (in the challenge dialog, or at the top level in
 * redirect mode), the gateway sends them back to the order's `redirect_url`, and
 * the shop shows the gateway's real outcome within 15 s, which the merchant API confirms.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scaled } from '../support/time-scale.js';
import {
  autofillCard,
  type CheckoutChoice,
  gatewayPage,
  openCheckout,
  payButton,
  result,
  shownOrderId,
} from './support/checkout-page.js';
import { SHOPPERS_AT_ONCE, useStack } from './support/use-stack.js';

const harness = useStack();
const OUTCOME_WITHIN_MS = scaled(15_000);

const MODES: [CheckoutChoice['challenge'], string][] = [
  ['Auto', 'auto'],
  ['In a frame', 'iframe'],
  ['By redirect', 'redirect'],
];

const CARDS: [string, RegExp, string][] = [
  ['gateway-3ds-redirect', /Payment approved/, 'approved'],
  ['gateway-3ds-redirect-declined', /Payment declined/, 'declined'],
  ['gateway-3ds-html', /Payment approved/, 'approved'],
];

describe('gateway-driven 3DS cards, paid on the demo shop', SHOPPERS_AT_ONCE, () => {
  for (const [challenge, mode] of MODES) {
    for (const [scenario, shown, status] of CARDS) {
      test(`${scenario}, challenge ${mode}: the code on the gateway page ends ${status}`, async () => {
        const page = await harness.newPage();
        await openCheckout(page, harness.stack().shopUrl, { challenge });
        const orderId = await shownOrderId(page);
        const card = harness.card(scenario);
        await autofillCard(page, card);
        await payButton(page).click();

        const bank = await gatewayPage(page);
        // In the challenge dialog unless bank pages go to the top level (redirect mode). The
        // gateway's page is never the merchant's: at the top level it is the gateway's origin,
        // in the dialog it is framed (html: first our /gateway-page, which posts to the gateway).
        assert.equal(bank.at, mode === 'redirect' ? 'page' : 'dialog');
        if (bank.at === 'page') {
          assert.equal(new URL(page.url()).origin, harness.stack().sandboxUrl);
        }
        await bank.in.getByLabel('One-time code').fill(card.otp ?? '');
        const submitted = Date.now();
        await bank.in.getByRole('button', { name: 'Submit' }).click();

        assert.match(await result(page, OUTCOME_WITHIN_MS), shown);
        assert.ok(Date.now() - submitted <= OUTCOME_WITHIN_MS);
        assert.equal(new URL(page.url()).origin, harness.stack().shopUrl);
        assert.equal((await harness.order(orderId)).status, status);
        await page.context().close();
      });
    }
  }
});
