/**
 * A gateway that answers the 3DS challenge with `html` (its own page, which posts the CReq to the
 * ACS by script), in Chromium. The widget frames the backend's launcher, which frames its
 * /gateway-page, whose CSP lets that form reach the ACS, and the gateway's script cannot touch the
 * merchant page, even when the shop and the backend share one origin (as the demo does): the page's
 * `sandbox` directive gives it an opaque origin. (How a gateway-driven challenge then ends is the
 * gateway's: its final redirect or status, docs/gateway.md#gateway-driven-3ds; this test stops at
 * the bank's page.) The stack runs in-process (sandbox and backend on loopback) so the gateway's
 * status answers can be rewritten in transit; the shop page is served from the backend's origin.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { FetchLike } from '../../server/src/gateway/index.js';
import { TEST_CARDS } from '../../server/src/sandbox/index.js';
import { ensureWidgetBuilt, widgetBundlePath } from '../../server/src/widget-build.js';
import { createSession, listen, type Pair, startPair } from '../proof/support/proof.js';
import { scaled } from '../support/time-scale.js';
import { DESKTOP, launchBrowser } from './support/browser.js';
import { payButton, typeCard } from './support/checkout-page.js';

const ROOT = new URL('../../', import.meta.url).pathname;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The gateway's page: a form to the ACS, and a script that tries to reach the merchant page
 * before it submits the form (the attack: it must fail, the submit must not).
 */
function gatewayHtml(acsUrl: string, creq: string): string {
  return `<!doctype html><title>Gateway 3DS</title>
<form method="POST" action="${esc(acsUrl)}"><input type="hidden" name="creq" value="${esc(creq)}"></form>
<script>
try { parent.document.title = 'pwned'; } catch (e) {}
try { parent.__pwned = document.cookie || 'yes'; } catch (e) {}
document.forms[0].submit();
</script>`;
}

/** Status answers that carry a 3DS 2 challenge become `html`, as a simplified-3DS gateway sends. */
const htmlGateway: FetchLike = async (url, init) => {
  const res = await fetch(url, init);
  if (!url.includes('/status/')) return res;
  const text = await res.text();
  const json = text.trim().startsWith('{');
  const body: Record<string, string> = json
    ? JSON.parse(text)
    : Object.fromEntries(new URLSearchParams(text));
  const acsUrl = body['acs-url'];
  const creq = body.creq;
  if (acsUrl && creq) {
    delete body['acs-url'];
    delete body.creq;
    delete body['challenge-window-size'];
    body.html = gatewayHtml(acsUrl, creq);
  }
  const out = json ? JSON.stringify(body) : new URLSearchParams(body).toString();
  return { status: res.status, headers: res.headers, text: async () => out };
};

describe('a gateway html page in Chromium', () => {
  let pair: Pair;
  let browser: Browser;
  let bundle: string;

  before(async () => {
    await ensureWidgetBuilt(ROOT);
    bundle = await readFile(widgetBundlePath(ROOT), 'utf8');
    // The shop shares the backend's origin, so it must be an allowed origin: pick the port first.
    const probe = await listen();
    const port = Number(new URL(probe.url).port);
    await new Promise((resolve) => probe.server.close(resolve));
    const origin = `http://127.0.0.1:${port}`;
    pair = await startPair(
      {},
      { gatewayFetch: htmlGateway, port, config: { allowedOrigins: [origin] } },
    );
    // The shop's page and the widget bundle, on the backend's own origin (like the demo).
    const api = pair.be.checkout.app;
    pair.be.server.removeAllListeners('request');
    pair.be.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname === '/pay-checkout.js') {
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle);
      } else if (url.pathname === '/shop') {
        const token = url.searchParams.get('token') ?? '';
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(
          `<!doctype html><html lang="en"><head><title>Shop</title></head><body>
<script type="module" src="/pay-checkout.js"></script>
<pay-checkout backend="${origin}" session="${esc(token)}" challenge="iframe"></pay-checkout>
</body></html>`,
        );
      } else {
        api(req, res);
      }
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await pair?.close();
  });

  test('frames the backend page; its script posts the bank form to the ACS and cannot touch the shop', async () => {
    const threeDs = TEST_CARDS.find((c) => c.scenario === '3ds2-challenge');
    assert.ok(threeDs);
    const session = await createSession(pair.be.url);
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    page.setDefaultTimeout(scaled(20_000));
    const gatewayPages: { status: number; csp: string | undefined }[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/gateway-page/')) {
        gatewayPages.push({ status: r.status(), csp: r.headers()['content-security-policy'] });
      }
    });
    await page.goto(`${pair.be.url}/shop?token=${encodeURIComponent(session.token)}`);
    await typeCard(page, threeDs);
    await payButton(page).click();

    // The bank's page is in the dialog: the gateway page's script posted its form there (the form
    // has no button), through the page's CSP.
    const frame = page.getByRole('dialog').frameLocator('iframe').frameLocator('iframe');
    await frame.getByLabel('One-time code').waitFor();
    const order = await pair.store.orders.getByClientOrderId(session.orderId);
    assert.ok(order);
    const framed = await page.evaluate(() => {
      const f = document
        .querySelector('pay-checkout')
        ?.shadowRoot?.querySelector('dialog iframe') as HTMLIFrameElement | null;
      return { src: f?.getAttribute('src') ?? null, srcdoc: f?.hasAttribute('srcdoc') ?? null };
    });
    // The dialog frames the launcher page, which frames the gateway page.
    assert.match(
      framed.src ?? '',
      new RegExp(`^${pair.be.url}/launch/${order.returnRef}/[A-Za-z0-9_-]{22}$`),
    );
    assert.equal(framed.srcdoc, false);
    assert.equal(gatewayPages.length, 1);
    assert.equal(gatewayPages[0]?.status, 200);
    assert.match(gatewayPages[0]?.csp ?? '', /sandbox allow-forms allow-scripts/);

    // Same origin as the shop, yet the script that posted the form reached nothing of the shop.
    assert.equal(await page.title(), 'Shop');
    assert.equal(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned), undefined);
    await context.close();
  });
});
