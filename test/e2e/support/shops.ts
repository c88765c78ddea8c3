/**
 * The two merchant pages the 3-D Secure journeys pay on: the demo shop, and a plain page on
 * another origin carrying helmet's default CSP (`form-action 'self'`, no third-party frames) plus
 * exactly what docs/widget.md asks a merchant to add: `frame-src` and `connect-src` for the backend's
 * origin. `useShops()` starts the stack with both, once per test file.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { after } from 'node:test';
import express from 'express';
import helmet from 'helmet';
import type { FrameLocator, Page } from 'playwright-core';
import { widgetBundlePath } from '../../../server/src/widget-build.js';
import { scaled } from '../../support/time-scale.js';
import {
  challengeFrame,
  openCheckout,
  payButton,
  result,
  SHOPPER,
  shownOrderId,
} from './checkout-page.js';
import { freePort } from './stack.js';
import { type Harness, useStack } from './use-stack.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
/**
 * The journeys' bound: the shopper sees the gateway's outcome this soon after it is known (15 s on
 * a quiet machine, times the run's time scale: test/support/time-scale.ts).
 */
export const WITHIN_MS = scaled(15_000);

export type Mode = 'auto' | 'iframe' | 'redirect';
export const MODES: Mode[] = ['auto', 'iframe', 'redirect'];
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
  // The element's other languages, beside its file as on a CDN.
  app.use('/locales', express.static(join(dirname(widgetBundlePath(ROOT)), 'locales')));
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

/** A shop the shopper pays on: where the checkout opens, and what it says at the end. */
export interface Shop {
  name: string;
  open(page: Page, mode: Mode): Promise<string>;
  outcome(page: Page, timeout?: number): Promise<string>;
}

export interface Shops {
  harness: Harness;
  demoShop: Shop;
  plainShop: Shop;
}

/** The stack (with the plain page's origin allowed) and the two shops, for one test file. */
export function useShops(): Shops {
  let strict: StrictShop | undefined;
  const harness = useStack(async () => {
    strict = await startStrictShop();
    return { extraOrigins: [strict.origin] };
  });
  after(
    () =>
      new Promise<void>((resolve) => (strict ? strict.server.close(() => resolve()) : resolve())),
  );

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
        customer: SHOPPER,
        returnUrl,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      strict.sessions.set(orderId, (created.body as { token: string }).token);
      await page.goto(returnUrl);
      await payButton(page).waitFor();
      return orderId;
    },
    /**
     * The element's own word: its result panel's title, or, when a failed attempt gave the form
     * back for another card, its notice (a decline's reads as the panel's title would).
     */
    async outcome(page, timeout = scaled(30_000)) {
      const said = page.locator('pay-checkout').locator('[part="result"] h2, [part="notice"]');
      await said.first().waitFor({ timeout });
      const text = (await said.first().textContent()) ?? '';
      if (text === 'Payment approved') return 'approved';
      return text.startsWith('Your bank declined the payment.') ? 'Payment declined' : text;
    },
  };

  return { harness, demoShop, plainShop };
}

/** Every CSP report the page's console shows (a blocked form, frame or fetch). */
export function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/.test(m.text())) seen.push(m.text());
  });
  return seen;
}

/** Where the bank's page is: in the dialog's launcher frame, or the whole page (redirect mode). */
export function bankPage(page: Page, mode: Mode): Page | FrameLocator {
  return mode === 'redirect' ? page : challengeFrame(page);
}

/** Counts the browser's POSTs to a path on the sandbox (each CReq or PaReq the ACS received). */
export function countPosts(page: Page, path: string): () => number {
  let count = 0;
  page.context().on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith(path)) count++;
  });
  return () => count;
}
