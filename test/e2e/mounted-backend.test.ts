/**
 * The recommended deployment, in Chromium: a shop's own Express app with the backend mounted at
 * /pay (createPayCheckout), its page on the same origin with `<pay-checkout backend="/pay">`, and
 * its server creating sessions through pay-checkout/client. A shopper pays with every 3DS card;
 * the widget never needs CORS (no preflight reaches the shop) and nothing lands outside /pay.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import type { Browser, Page } from 'playwright-core';
import { createMerchantClient } from '../../server/src/client/merchant-client.js';
import { createPayCheckout, type PayCheckout } from '../../server/src/library/pay-checkout.js';
import { ensureWidgetBuilt, widgetBundlePath } from '../../server/src/widget-build.js';
import {
  closeServer,
  devMerchantAt,
  JWT_SECRET,
  listen,
  MERCHANT_API_KEY,
  type Sandbox,
  startSandbox,
} from '../support/loopback-stack.js';
import { scaled } from '../support/time-scale.js';
import { CUSTOMER, uniqueOrderId } from '../support/widget-api-client.js';
import { DESKTOP, launchBrowser } from './support/browser.js';
import {
  answerChallenge,
  autofillCard,
  challengeFrame,
  payButton,
  type TestCard,
  testCards,
} from './support/checkout-page.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The shop's checkout page: asks its own server for a session, then shows the widget. */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>The shop</title><link rel="icon" href="data:,">
<script type="module" src="/assets/pay-checkout.js"></script></head>
<body><h1>The shop</h1><p id="order"></p><p id="result" aria-live="polite"></p>
<script type="module">
  const { orderId, token } = await (await fetch('/api/checkout', { method: 'POST' })).json();
  document.querySelector('#order').textContent = orderId;
  const element = document.createElement('pay-checkout');
  element.setAttribute('backend', '/pay');
  element.setAttribute('session', token);
  const show = (text) => { document.querySelector('#result').textContent = text; };
  element.addEventListener('pay-success', () => show('Payment approved'));
  element.addEventListener('pay-declined', () => show('Payment declined'));
  element.addEventListener('pay-error', (event) => show('Payment failed: ' + event.detail.code));
  document.body.append(element);
</script></body></html>`;

describe('the backend mounted at /pay of the shop’s own app, paid in Chromium', () => {
  let sb: Sandbox;
  let shop: Awaited<ReturnType<typeof listen>>;
  let pay: PayCheckout;
  let browser: Browser;
  let cards: Map<string, TestCard>;
  /** Every request the shop's server answered: `METHOD path status`. */
  const seen: string[] = [];

  before(async () => {
    await ensureWidgetBuilt(ROOT);
    shop = await listen();
    sb = await startSandbox({ frameAncestors: [shop.url] });
    pay = createPayCheckout({
      gateway: devMerchantAt(sb, sb.gatewayUrl),
      merchantApiKey: MERCHANT_API_KEY,
      jwtSecret: JWT_SECRET,
      publicUrl: `${shop.url}/pay`,
      database: { memory: true },
      logLevel: 'warn',
    });
    const api = createMerchantClient({ baseUrl: `${shop.url}/pay`, apiKey: MERCHANT_API_KEY });

    const app = express();
    app.use((req, res, next) => {
      res.on('finish', () =>
        seen.push(`${req.method} ${req.originalUrl.split('?')[0]} ${res.statusCode}`),
      );
      next();
    });
    app.use('/pay', pay.router);
    app.get('/', (_req, res) => {
      res.type('html').send(PAGE);
    });
    app.get('/assets/pay-checkout.js', (_req, res) => {
      res.sendFile(widgetBundlePath(ROOT));
    });
    app.post('/api/checkout', async (_req, res) => {
      const orderId = uniqueOrderId('mounted');
      const { token } = await api.createSession({
        amount: '10.42',
        currency: 'EUR',
        orderId,
        description: 'Mounted backend',
        customer: CUSTOMER,
        returnUrl: `${shop.url}/thanks`,
      });
      res.json({ orderId, token });
    });
    await pay.start();
    shop.server.on('request', app);
    browser = await launchBrowser();
    cards = await testCards(sb.origin);
  });

  after(async () => {
    await browser?.close();
    await closeServer(shop.server);
    await pay.stop();
    await sb.close();
  });

  async function checkout(): Promise<{ page: Page; orderId: string }> {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    page.setDefaultTimeout(scaled(20_000));
    await page.goto(shop.url);
    await payButton(page).waitFor();
    const orderId = (await page.locator('#order').textContent()) ?? '';
    return { page, orderId };
  }

  async function result(page: Page): Promise<string> {
    await page
      .locator('#result')
      .filter({ hasText: /\S/ })
      .waitFor({ timeout: scaled(30_000) });
    return (await page.locator('#result').textContent()) ?? '';
  }

  for (const scenario of [
    'approved',
    '3ds2-frictionless',
    '3ds2-challenge',
    '3ds2-challenge-no-method',
    '3ds1',
  ]) {
    test(`${scenario}: paid through /pay on the shop's own origin`, async () => {
      const card = cards.get(scenario);
      assert.ok(card, scenario);
      const { page, orderId } = await checkout();
      await autofillCard(page, card);
      await payButton(page).click();
      if (card.otp) {
        await challengeFrame(page).getByLabel('One-time code').waitFor();
        await answerChallenge(page, card.otp);
      }
      assert.equal(await result(page), 'Payment approved');
      const api = createMerchantClient({ baseUrl: `${shop.url}/pay`, apiKey: MERCHANT_API_KEY });
      assert.equal((await api.getOrder(orderId)).status, 'approved');
      await page.context().close();
    });
  }

  test('same origin: no CORS preflight, nothing outside the shop’s routes and /pay, no errors', () => {
    assert.ok(seen.some((line) => line.startsWith('POST /pay/widget/pay 200')));
    assert.deepEqual(
      seen.filter((line) => line.startsWith('OPTIONS ')),
      [],
    );
    const shopRoutes =
      /^(GET \/ |GET \/assets\/pay-checkout\.js |POST \/api\/checkout |\w+ \/pay\/)/;
    assert.deepEqual(
      seen.filter((line) => !shopRoutes.test(line)),
      [],
    );
    assert.deepEqual(
      seen.filter((line) => / (4\d\d|5\d\d)$/.test(line)),
      [],
    );
  });
});
