/**
 * Every 3-D Secure test card, in Chromium, on two merchant pages: the demo shop, and a plain page
 * on another origin carrying helmet's default CSP (`form-action 'self'`, no third-party frames)
 * plus exactly what the README asks a merchant to add: `frame-src` and `connect-src` for the
 * backend's origin. Each in the `auto`, `iframe` and `redirect` challenge modes. Then the journeys
 * that strand shoppers on real pages: Back from the bank's page, a reload mid-challenge, and a
 * return message that never arrives; each ends in the gateway's real outcome within 15 s.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { after, describe, test } from 'node:test';
import express from 'express';
import helmet from 'helmet';
import type { FrameLocator, Page } from 'playwright-core';
import { widgetBundlePath } from '../../server/src/widget-build.js';
import { useStack } from './support/harness.js';
import {
  challengeFrame,
  gatewayPage,
  openCheckout,
  payButton,
  result,
  shownOrderId,
  typeCard,
} from './support/shopper.js';
import { freePort } from './support/stack.js';

const ROOT = new URL('../../', import.meta.url).pathname;
/** The journeys' bound: the shopper sees the gateway's outcome this soon after it is known. */
const WITHIN_MS = 15_000;

type Mode = 'auto' | 'iframe' | 'redirect';
const MODE_LABEL = { auto: 'Auto', iframe: 'In a frame', redirect: 'By redirect' } as const;

/**
 * A merchant's own page on its own origin: helmet's defaults, plus frame-src and connect-src for
 * the backend, nothing else. It serves the widget's CDN file itself (script-src 'self').
 */
interface StrictShop {
  origin: string;
  /** Set once the stack runs: the backend the page talks to. */
  backend: string;
  sessions: Map<string, string>;
  server: Server;
}

async function startStrictShop(): Promise<StrictShop> {
  const port = await freePort();
  const shop: StrictShop = {
    origin: `http://127.0.0.1:${port}`,
    backend: '',
    sessions: new Map(),
    server: undefined as unknown as Server,
  };
  const bundle = await readFile(widgetBundlePath(ROOT), 'utf8').catch(() => '');
  const app = express();
  app.use((req, res, next) =>
    helmet({
      contentSecurityPolicy: {
        directives: {
          ...helmet.contentSecurityPolicy.getDefaultDirectives(),
          'frame-src': [shop.backend],
          'connect-src': ["'self'", shop.backend],
        },
      },
    })(req, res, next),
  );
  app.get('/pay-checkout.js', async (_req, res) => {
    res.type('text/javascript').send(bundle || (await readFile(widgetBundlePath(ROOT), 'utf8')));
  });
  // The session's returnUrl: the same page, found again by the order id.
  app.get('/shop/:orderId', (req, res) => {
    const token = shop.sessions.get(req.params.orderId) ?? '';
    const mode = String(req.query.challenge ?? 'auto');
    const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Plain shop</title><script type="module" src="/pay-checkout.js"></script></head>
<body><h1>Plain shop</h1><pay-checkout backend="${esc(shop.backend)}" session="${esc(token)}"
challenge="${esc(mode)}"></pay-checkout></body></html>`);
  });
  shop.server = createServer(app);
  await new Promise<void>((resolve) => shop.server.listen(port, '127.0.0.1', resolve));
  return shop;
}

let strict: StrictShop | undefined;
const harness = useStack(async () => {
  strict = await startStrictShop();
  return { extraOrigins: [strict.origin] };
});
after(
  () => new Promise<void>((resolve) => (strict ? strict.server.close(() => resolve()) : resolve())),
);

/** A shop the shopper pays on: where the checkout opens, and what it says at the end. */
interface Shop {
  name: string;
  open(page: Page, mode: Mode): Promise<string>;
  outcome(page: Page, timeout?: number): Promise<string>;
}

const demoShop: Shop = {
  name: 'the demo shop',
  async open(page, mode) {
    await openCheckout(page, harness.stack().shopUrl, { challenge: MODE_LABEL[mode] });
    return shownOrderId(page);
  },
  async outcome(page, timeout) {
    const text = await result(page, timeout);
    return /Payment approved/.test(text) ? 'approved' : text;
  },
};

const plainShop: Shop = {
  name: 'a plain page with a strict CSP',
  async open(page, mode) {
    assert.ok(strict);
    strict.backend = harness.stack().shopUrl;
    const orderId = `strict-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const returnUrl = `${strict.origin}/shop/${orderId}?challenge=${mode}`;
    const created = await harness.stack().merchantApi('POST', '/v1/checkout-sessions', {
      amount: '12.34',
      currency: 'EUR',
      orderId,
      intent: 'sale',
      description: 'Strict CSP shop',
      customer: {
        email: 'jo@example.com',
        firstName: 'Jo',
        lastName: 'Smith',
        address1: '1 Main St',
        city: 'London',
        zipCode: 'N1 9GU',
        country: 'GB',
        phone: '+441234567890',
      },
      returnUrl,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    strict.sessions.set(orderId, (created.body as { token: string }).token);
    await page.goto(returnUrl);
    await payButton(page).waitFor();
    return orderId;
  },
  async outcome(page, timeout = 30_000) {
    const title = page.locator('pay-checkout [part="result"] h2');
    await title.waitFor({ timeout });
    const text = (await title.textContent()) ?? '';
    return text === 'Payment approved' ? 'approved' : text;
  },
};

/** Every CSP report the page's console shows (a blocked form, frame or fetch). */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/.test(m.text())) seen.push(m.text());
  });
  return seen;
}

/** Where the bank's page is: in the dialog's launcher frame, or the whole page (redirect mode). */
function bankPage(page: Page, mode: Mode): Page | FrameLocator {
  return mode === 'redirect' ? page : challengeFrame(page);
}

/** Counts the browser's POSTs to a path on the sandbox (each CReq or PaReq the ACS received). */
function countPosts(page: Page, path: string): () => number {
  let count = 0;
  page.context().on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith(path)) count++;
  });
  return () => count;
}

const CHALLENGE_CARDS = [
  '3ds2-challenge',
  '3ds2-challenge-no-method',
  '3ds1',
  '3ds1-no-md',
] as const;
const MODES: Mode[] = ['auto', 'iframe', 'redirect'];

/** The gateway-driven cards (the spec's `redirect_url`, or `html`): the code is typed on its page. */
const GATEWAY_CARDS = [
  ['gateway-3ds-redirect', 'approved'],
  ['gateway-3ds-redirect-declined', 'declined'],
  ['gateway-3ds-html', 'approved'],
] as const;

describe(`gateway-driven 3-D Secure cards on ${plainShop.name}`, () => {
  for (const [scenario, status] of GATEWAY_CARDS) {
    for (const mode of MODES) {
      test(`${scenario}, challenge="${mode}": ends ${status} within 15 s`, async () => {
        const page = await harness.newPage();
        const violations = cspViolations(page);
        const orderId = await plainShop.open(page, mode);
        const card = harness.card(scenario);
        await typeCard(page, card);
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
  describe(`every 3-D Secure card on ${shop.name}`, () => {
    for (const scenario of ['3ds2-frictionless', '3ds2-method-timeout']) {
      test(`${scenario}: approved without a challenge`, async () => {
        const page = await harness.newPage();
        const violations = cspViolations(page);
        const orderId = await shop.open(page, 'auto');
        await typeCard(page, harness.card(scenario));
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
          await typeCard(page, card);
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

describe('Back, reload and a lost message', () => {
  test('Back from the bank page (redirect mode): not sent back to the bank; Cancel shows the gateway’s word', async () => {
    const page = await harness.newPage();
    const creqs = countPosts(page, '/acs/challenge');
    const orderId = await demoShop.open(page, 'redirect');
    await typeCard(page, harness.card('3ds2-challenge'));
    await payButton(page).click();
    await page.getByLabel('One-time code').waitFor();
    const left = Date.now();
    await page.goBack();
    // Back at the shop, which asked the backend where the order is: the bank still waits.
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Your bank’s page was closed').waitFor({ timeout: WITHIN_MS });
    assert.ok(Date.now() - left < WITHIN_MS);
    assert.equal(new URL(page.url()).origin, harness.stack().shopUrl);
    assert.equal(creqs(), 1, 'the used CReq was not posted again');
    await dialog.getByRole('button', { name: 'Cancel verification' }).click();
    await dialog.getByRole('button', { name: 'Cancel payment' }).click();
    // The gateway has not approved: the shop says cancelled, and the order is what the gateway says.
    assert.match(await result(page, WITHIN_MS), /challenge-cancelled/);
    assert.equal((await harness.order(orderId)).status, 'processing');
    assert.equal(creqs(), 1);
  });

  test('a reload while the bank answers: the same payment ends approved, the CReq posted once', async () => {
    const page = await harness.newPage();
    const creqs = countPosts(page, '/acs/challenge');
    const pays = countPosts(page, '/widget/pay');
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
    await page.route('**/widget/next**', () => {});
    await challengeFrame(page)
      .getByLabel('One-time code')
      .fill(card.otp ?? '');
    await challengeFrame(page).getByRole('button', { name: 'Submit' }).click();
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

  test('a reload while the bank waits for the code: no second CReq; the widget says the bank page closed', async () => {
    const page = await harness.newPage();
    const creqs = countPosts(page, '/acs/challenge');
    await demoShop.open(page, 'iframe');
    await typeCard(page, harness.card('3ds2-challenge'));
    await payButton(page).click();
    await challengeFrame(page).getByLabel('One-time code').waitFor();
    await page.reload();
    await page
      .getByRole('dialog')
      .getByText('Your bank’s page was closed')
      .waitFor({ timeout: WITHIN_MS });
    assert.equal(await page.getByRole('dialog').locator('iframe').count(), 0);
    assert.equal(creqs(), 1);
  });

  test('a lost return message: the long poll ends the challenge within 15 s', async () => {
    const page = await harness.newPage();
    const card = harness.card('3ds2-challenge');
    const orderId = await plainShop.open(page, 'auto');
    // The return page arrives without its script: no postMessage ever reaches the shop.
    await page.route('**/return/**', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/<script[\s\S]*?<\/script>/g, '');
      await route.fulfill({ response, body });
    });
    await typeCard(page, card);
    await payButton(page).click();
    await challengeFrame(page)
      .getByLabel('One-time code')
      .fill(card.otp ?? '');
    await challengeFrame(page).getByRole('button', { name: 'Submit' }).click();
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
      await challengeFrame(page)
        .getByLabel('One-time code')
        .fill(card.otp ?? '');
      await challengeFrame(page).getByRole('button', { name: 'Submit' }).click();
      const submitted = Date.now();
      assert.match(await shop.outcome(page, WITHIN_MS), /Payment declined/);
      assert.ok(Date.now() - submitted < WITHIN_MS);
      assert.equal((await harness.order(orderId)).status, 'declined');
      assert.equal(creqs(), 1, 'the refused challenge was not posted again');
      await page.context().close();
    }
  });
});
