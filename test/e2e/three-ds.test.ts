/**
 * Every 3-D Secure test card, in Chromium, on two merchant pages (support/shops.ts): the demo
 * shop, and a plain page on another origin with helmet's default CSP plus only what docs/widget.md
 * asks a merchant to add. Each in the `auto`, `iframe` and `redirect` challenge modes. The
 * journeys that strand shoppers on real pages are in three-ds-journeys.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { autofillCard, gatewayPage, payButton } from './support/checkout-page.js';
import {
  bankPage,
  countPosts,
  cspViolations,
  MODES,
  useShops,
  WITHIN_MS,
} from './support/shops.js';
import { SHOPPERS_AT_ONCE } from './support/use-stack.js';

const { harness, demoShop, plainShop } = useShops();

const CHALLENGE_CARDS = [
  '3ds2-challenge',
  '3ds2-challenge-no-method',
  '3ds1',
  '3ds1-no-md',
] as const;

/** The gateway-driven cards (the spec's `redirect_url`, or `html`): the code is typed on its page. */
const GATEWAY_CARDS = [
  ['gateway-3ds-redirect', 'approved'],
  ['gateway-3ds-redirect-declined', 'declined'],
  ['gateway-3ds-html', 'approved'],
] as const;

describe(`gateway-driven 3-D Secure cards on ${plainShop.name}`, SHOPPERS_AT_ONCE, () => {
  for (const [scenario, status] of GATEWAY_CARDS) {
    for (const mode of MODES) {
      test(`${scenario}, challenge="${mode}": ends ${status} within 15 s`, async () => {
        const page = await harness.newPage();
        const violations = cspViolations(page);
        const orderId = await plainShop.open(page, mode);
        const card = harness.card(scenario);
        await autofillCard(page, card);
        await payButton(page).click();
        const bank = await gatewayPage(page);
        assert.equal(bank.at, mode === 'redirect' ? 'page' : 'dialog');
        if (bank.at === 'page') {
          assert.equal(new URL(page.url()).origin, harness.stack().sandboxUrl);
        }
        await bank.in.getByLabel('One-time code').fill(card.otp ?? '');
        const submitted = Date.now();
        await bank.in.getByRole('button', { name: 'Submit' }).click();
        const shown = await plainShop.outcome(page, WITHIN_MS);
        assert.equal(shown, status === 'approved' ? 'approved' : 'Payment declined');
        assert.ok(Date.now() - submitted <= WITHIN_MS);
        assert.equal((await harness.order(orderId)).status, status);
        assert.deepEqual(violations, []);
        await page.context().close();
      });
    }
  }
});

for (const shop of [demoShop, plainShop]) {
  describe(`every 3-D Secure card on ${shop.name}`, SHOPPERS_AT_ONCE, () => {
    for (const scenario of ['3ds2-frictionless', '3ds2-method-timeout']) {
      test(`${scenario}: approved without a challenge`, async () => {
        const page = await harness.newPage();
        const violations = cspViolations(page);
        const orderId = await shop.open(page, 'auto');
        await autofillCard(page, harness.card(scenario));
        await payButton(page).click();
        assert.equal(await shop.outcome(page, 40_000), 'approved');
        assert.equal((await harness.order(orderId)).status, 'approved');
        assert.deepEqual(violations, []);
        await page.context().close();
      });
    }

    for (const scenario of CHALLENGE_CARDS) {
      for (const mode of MODES) {
        test(`${scenario}, challenge="${mode}": the code approves`, async () => {
          const page = await harness.newPage();
          const violations = cspViolations(page);
          const acsPosts = countPosts(
            page,
            scenario.startsWith('3ds1') ? '/acs/3ds1' : '/acs/challenge',
          );
          const orderId = await shop.open(page, mode);
          const card = harness.card(scenario);
          await autofillCard(page, card);
          await payButton(page).click();
          const bank = bankPage(page, mode);
          await bank.getByLabel('One-time code').fill(card.otp ?? '');
          if (mode === 'redirect') {
            assert.equal(new URL(page.url()).origin, harness.stack().sandboxUrl);
          }
          await bank.getByRole('button', { name: 'Submit' }).click();
          assert.equal(await shop.outcome(page), 'approved');
          assert.equal((await harness.order(orderId)).status, 'approved');
          assert.equal(acsPosts(), 1);
          assert.deepEqual(violations, []);
          await page.context().close();
        });
      }
    }
  });
}
