/**
 * The 3-D Secure journeys that strand shoppers on real pages, in Chromium: Back from the bank's
 * page, a reload mid-challenge, a return message that never arrives, and a refused CRes; each
 * ends in the gateway's real outcome within 15 s. One at a time: each holds or drops the very
 * messages the others' timings rest on.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  answerChallenge,
  challengeFrame,
  payButton,
  shownOrderId,
  typeCard,
} from './support/checkout-page.js';
import { countPosts, useShops, WITHIN_MS } from './support/shops.js';

const { harness, demoShop, plainShop } = useShops();

describe('Back, reload and a lost message', () => {
  test('Back from the bank page (redirect mode): not sent back to the bank; the form is there, and another card pays', async () => {
    const page = await harness.newPage();
    const creqs = countPosts(page, '/acs/challenge');
    const orderId = await demoShop.open(page, 'redirect');
    await typeCard(page, harness.card('3ds2-challenge'));
    await payButton(page).click();
    await page.getByLabel('One-time code').waitFor();
    const left = Date.now();
    await page.goBack();
    // Back at the shop: the bank page was left, and the form is back for another card.
    const notice = page.locator('pay-checkout [part="notice"]');
    await notice.waitFor({ timeout: WITHIN_MS });
    assert.match(
      (await notice.textContent()) ?? '',
      /^Your bank’s page was closed before the payment was confirmed\./,
    );
    assert.ok(Date.now() - left < WITHIN_MS);
    assert.equal(new URL(page.url()).origin, harness.stack().shopUrl);
    assert.equal(creqs(), 1, 'the used CReq was not posted again');
    // A new page (the old one left for the bank): every field empty.
    assert.equal(await page.getByLabel('Card number').inputValue(), '');
    await typeCard(page, harness.card('approved'));
    await payButton(page).click();
    await page.locator('#result', { hasText: 'Payment approved' }).waitFor({ timeout: WITHIN_MS });
    const order = await harness.order(orderId);
    assert.equal(order.status, 'approved');
    // The left attempt is still the gateway's (its bank page waits): followed, never sent again.
    assert.deepEqual(
      order.attempts.map((a) => [a.id, a.status, a.abandoned]),
      [
        [orderId, 'processing', true],
        [`${orderId}-2`, 'approved', false],
      ],
    );
    assert.equal(creqs(), 1);
  });

  test('a reload while the bank answers: the same payment ends approved, the CReq posted once', async () => {
    const page = await harness.newPage();
    const creqs = countPosts(page, '/acs/challenge');
    const pays = countPosts(page, '/widget/pay');
    // The long polls' answers, withheld from the challenge on (`holding`) until the reload: one
    // already sent when the challenge shows is withheld too (a route added then would not catch
    // it, and on a busy machine its answer, the payment's end, reached the page before the reload).
    let holding = false;
    await page.route('**/widget/next**', async (route) => {
      const response = await route.fetch().catch(() => undefined);
      if (!response || holding) return;
      await route.fulfill({ response }).catch(() => {});
    });
    const card = harness.card('3ds2-challenge');
    const orderId = await demoShop.open(page, 'auto');
    await typeCard(page, card);
    await payButton(page).click();
    // The ACS posts its answer to the backend, which uploads it; the page reloads before the
    // answer page can report back.
    let answered: () => void = () => {};
    const uploaded = new Promise<void>((resolve) => (answered = resolve));
    await page.route('**/return/**', async (route) => {
      // Only the ACS's answer: the 3DS Method's notification is posted here too, and must pass
      // (held, it would cost the 10 s Method window and resolve `uploaded` before the answer).
      const answer =
        route.request().method() === 'POST' && /(^|&)cres=/.test(route.request().postData() ?? '');
      if (!answer) return route.continue();
      await route.fetch();
      answered();
      await route.abort();
    });
    await challengeFrame(page).getByLabel('One-time code').waitFor();
    // Nor does the long poll alongside the challenge get its answer before the reload (else the
    // shop, seeing the payment end, would not resume it after the reload).
    holding = true;
    await answerChallenge(page, card.otp ?? '');
    await uploaded;
    await page.unroute('**/widget/next**');
    const reloaded = Date.now();
    await page.reload();
    assert.equal(await demoShop.outcome(page, WITHIN_MS), 'approved');
    assert.ok(Date.now() - reloaded < WITHIN_MS);
    assert.equal(await shownOrderId(page), orderId);
    assert.equal((await harness.order(orderId)).status, 'approved');
    assert.deepEqual([creqs(), pays()], [1, 1]);
  });

  test('a reload while the bank waits for the code: no second CReq; the form is back for another card', async () => {
    const page = await harness.newPage();
    const creqs = countPosts(page, '/acs/challenge');
    await demoShop.open(page, 'iframe');
    await typeCard(page, harness.card('3ds2-challenge'));
    await payButton(page).click();
    await challengeFrame(page).getByLabel('One-time code').waitFor();
    await page.reload();
    await page
      .locator('pay-checkout [part="notice"]')
      .getByText('Your bank’s page was closed before the payment was confirmed.')
      .waitFor({ timeout: WITHIN_MS });
    assert.equal(await page.locator('pay-checkout dialog[open]').count(), 0);
    assert.equal(creqs(), 1);
  });

  test('a lost return message: the long poll ends the challenge within 15 s', async () => {
    const page = await harness.newPage();
    const card = harness.card('3ds2-challenge');
    const orderId = await plainShop.open(page, 'auto');
    // The challenge's return page arrives without its script: no postMessage ever reaches the
    // shop. (The 3DS Method's notification, posted here too, passes: lost, it would only cost the
    // 10 s Method window before the challenge.)
    await page.route('**/return/**', async (route) => {
      const answer =
        route.request().method() === 'POST' && /(^|&)cres=/.test(route.request().postData() ?? '');
      if (!answer) return route.continue();
      const response = await route.fetch();
      const body = (await response.text()).replace(/<script[\s\S]*?<\/script>/g, '');
      await route.fulfill({ response, body });
    });
    await typeCard(page, card);
    await payButton(page).click();
    await answerChallenge(page, card.otp ?? '');
    const submitted = Date.now();
    assert.equal(await plainShop.outcome(page, WITHIN_MS), 'approved');
    assert.ok(Date.now() - submitted < WITHIN_MS);
    assert.equal((await harness.order(orderId)).status, 'approved');
  });

  test('a refused CRes: the used challenge is never shown again; the gateway’s decline within 15 s', async () => {
    for (const shop of [demoShop, plainShop]) {
      const page = await harness.newPage();
      const creqs = countPosts(page, '/acs/challenge');
      const card = harness.card('3ds2-cres-refused');
      const orderId = await shop.open(page, 'iframe');
      await typeCard(page, card);
      await payButton(page).click();
      await answerChallenge(page, card.otp ?? '');
      const submitted = Date.now();
      assert.match(await shop.outcome(page, WITHIN_MS), /Payment declined/);
      assert.ok(Date.now() - submitted < WITHIN_MS);
      assert.equal((await harness.order(orderId)).status, 'declined');
      assert.equal(creqs(), 1, 'the refused challenge was not posted again');
      await page.context().close();
    }
  });
});
