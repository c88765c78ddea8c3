/**
 * A payment link, end to end in Chromium: the merchant creates it with amount, currency and
 * description only; a shopper opens its URL, is given a visit of their own, types contact, billing
 * address and card, passes a 3-D Secure challenge in the element's dialog, and the link reads
 * `paid` with one `payment_link.paid` event; the sale carried what was typed; a reload of the
 * visit thanks the shopper, and the link's address says it is paid. The page runs under its own
 * strict CSP: a violation would stop the element, and the test would not reach the challenge.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { type CheckoutApp, createCheckoutApp } from '../../server/src/checkout/app.js';
import { createLogger } from '../../server/src/checkout/logger.js';
import type { CheckoutStore } from '../../server/src/store/index.js';
import { ensureWidgetBuilt } from '../../server/src/widget-build.js';
import {
  closeServer,
  devMerchantAt,
  FAST_TIMING,
  JWT_SECRET,
  listen,
  MERCHANT_API_KEY,
  type Sandbox,
  startSandbox,
} from '../support/loopback-stack.js';
import { memoryCheckoutStore } from '../support/memory-schemas.js';
import { scaled } from '../support/time-scale.js';
import { merchant } from '../support/widget-api-client.js';
import { DESKTOP, launchBrowser } from './support/browser.js';
import {
  answerChallenge,
  challengeFrame,
  payButton,
  type TestCard,
  testCards,
  typeCard,
} from './support/checkout-page.js';

const ROOT = new URL('../../', import.meta.url).pathname;

describe('a payment link paid in Chromium', () => {
  let sb: Sandbox;
  let backend: Awaited<ReturnType<typeof listen>>;
  let store: CheckoutStore;
  let checkout: CheckoutApp;
  let browser: Browser;
  let cards: Map<string, TestCard>;

  before(async () => {
    // The element's CDN folder (dist/cdn: its file, languages and integrity.json), which the
    // backend serves at /v<version>/ and the link page pins.
    await ensureWidgetBuilt(ROOT);
    backend = await listen();
    sb = await startSandbox({ frameAncestors: [backend.url] });
    store = await memoryCheckoutStore();
    checkout = createCheckoutApp(
      {
        gateway: devMerchantAt(sb, sb.gatewayUrl),
        merchantApiKey: MERCHANT_API_KEY,
        jwtSecret: JWT_SECRET,
        publicUrl: backend.url,
        allowedOrigins: ['https://shop.example'],
        logLevel: 'warn',
        paymentLinkPage: { merchantName: 'Corner Shop', colors: { primary: '#0a7d55' } },
      },
      {
        store,
        background: true,
        timing: FAST_TIMING,
        logger: createLogger({ level: 'warn' }),
      },
    );
    backend.server.on('request', checkout.app);
    browser = await launchBrowser();
    cards = await testCards(sb.origin);
  });

  after(async () => {
    await browser?.close();
    await checkout.close();
    await closeServer(backend.server);
    await store.close();
    await sb.close();
  });

  test('opened from its URL, paid through a 3-D Secure challenge: the link reads paid', async () => {
    const created = await merchant(backend.url, 'POST', '/v1/payment-links', {
      amount: '18.50',
      currency: 'EUR',
      description: 'Phone order 2291',
      returnUrl: 'https://shop.example/thanks',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const link = created.body as { id: string; url: string };
    const card = cards.get('3ds2-challenge');
    assert.ok(card?.otp);

    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    page.setDefaultTimeout(scaled(20_000));
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text()))
        violations.push(message.text());
    });
    await page.goto(link.url);
    assert.match(page.url(), /\?visit=[A-Za-z0-9_-]{22}$/);
    await page.getByRole('heading', { name: 'Corner Shop' }).waitFor();
    await page.getByText('Phone order 2291').waitFor();
    await payButton(page).waitFor();
    // The link knows only the amount: the shopper types contact and billing address, then the card.
    const element = page.locator('pay-checkout');
    await element.getByLabel('Email', { exact: true }).fill('sherlock@example.com');
    await element.getByLabel('Phone', { exact: true }).fill('020 7946 0018');
    await element.getByLabel('Country', { exact: true }).selectOption('GB');
    await element.getByLabel('Address', { exact: true }).fill('221B Baker Street');
    await element.getByLabel('City', { exact: true }).fill('London');
    await element.getByLabel('Postal code', { exact: true }).fill('NW1 6XE');
    await typeCard(page, card);
    await payButton(page).click();
    await challengeFrame(page).getByLabel('One-time code').waitFor();
    await answerChallenge(page, card.otp);
    // The element says it succeeded: the page shows its way back to the merchant.
    await page.getByRole('link', { name: 'Continue' }).waitFor();

    const end = Date.now() + scaled(30_000);
    let read = await merchant(backend.url, 'GET', `/v1/payment-links/${link.id}`);
    while (read.body.state !== 'paid' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 200));
      read = await merchant(backend.url, 'GET', `/v1/payment-links/${link.id}`);
    }
    assert.equal(read.body.state, 'paid');
    assert.equal(read.body.paymentCount, 1);
    const orderId = read.body.payments[0].orderId as string;
    const paidOrder = (await merchant(backend.url, 'GET', `/v1/orders/${orderId}`)).body;
    assert.equal(paidOrder.status, 'approved');
    // The sale carried what the shopper typed, as the merchant API shows it.
    assert.equal(paidOrder.customer.email, 'sherlock@example.com');
    assert.equal(paidOrder.customer.phone, '+442079460018');
    assert.equal(paidOrder.customer.address1, '221B Baker Street');
    assert.equal(paidOrder.customer.zipCode, 'NW1 6XE');
    const events = await merchant(backend.url, 'GET', '/v1/events?type=payment_link.paid');
    assert.deepEqual(
      events.body.events
        .filter((e: { data: { paymentLink: { id: string } } }) => e.data.paymentLink.id === link.id)
        .map((e: { type: string }) => e.type),
      ['payment_link.paid'],
    );

    // The visit, reloaded, thanks the shopper; the link's own address says it is paid.
    await page.reload();
    await page.getByText('Payment received. Thank you.').waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'Continue' }).getAttribute('href'),
      'https://shop.example/thanks',
    );
    await page.goto(link.url);
    await page.getByText('This link has already been paid.').waitFor();
    assert.deepEqual(violations, []);
    await page.context().close();
  });
});
