/**
 * GET /launch/{ref}/{key}: the page that posts the order's stored 3DS form (or frames its gateway
 * page) from the backend's origin. It posts only what is stored for the order's current step, to
 * whoever holds the order's return ref; its load records the browser's real Accept header, which
 * the 3DS Method upload then carries. And the widget API names the page for each step.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFlow } from '../../../../server/src/checkout/following/flow-state.js';
import type { StoredAction } from '../../../../server/src/checkout/following/next-action.js';
import { launchKey } from '../../../../server/src/checkout/payments/urls.js';
import { MERCHANT_ORIGIN } from '../../../support/loopback-stack.js';
import { BROWSER, createSession, Shopper } from '../../../support/widget-api-client.js';
import { storedOrderBackend } from '../stored-order.js';

const CHALLENGE: StoredAction = {
  action: 'challenge',
  acsUrl: 'https://acs.bank.example/challenge',
  creq: 'eyJhIjoiPHNjcmlwdD4ifQ',
  threeDSSessionData: 'c2Vzcw"><script>x</script>',
  challengeWindowSize: '02',
};
const HTML_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('launcher page', () => {
  const stack = storedOrderBackend();
  const { orderWith } = stack;

  const launch = (ref: string, key: string, accept = HTML_ACCEPT) =>
    fetch(`${stack.be.url}/launch/${ref}/${key}`, { headers: { accept } });

  it("posts the stored CReq, escaped, into its own frame, under its own CSP; records the page's Accept", async () => {
    const order = await orderWith(CHALLENGE);
    const res = await launch(order.returnRef, launchKey(CHALLENGE));
    assert.equal(res.status, 200);
    const body = await res.text();
    assert.ok(
      body.includes(
        '<form id="pay-checkout-launch" method="POST" enctype="application/x-www-form-urlencoded" action="https://acs.bank.example/challenge" target="pay-checkout-bank" hidden>' +
          '<input type="hidden" name="creq" value="eyJhIjoiPHNjcmlwdD4ifQ">' +
          '<input type="hidden" name="threeDSSessionData" value="c2Vzcw&#34;&#62;&#60;script&#62;x&#60;/script&#62;"></form>',
      ),
      body,
    );
    assert.ok(body.includes('<iframe id="pay-checkout-bank" name="pay-checkout-bank"'));
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; /);
    assert.ok(
      csp.endsWith(
        "style-src 'unsafe-inline'; frame-src 'self' https: http://127.0.0.1:* http://localhost:*; " +
          "form-action https: http://127.0.0.1:* http://localhost:*; base-uri 'none'; " +
          `frame-ancestors 'self' ${MERCHANT_ORIGIN}`,
      ),
      csp,
    );
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-frame-options'), null);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    const after = await stack.be.store.orders.get(order.id);
    assert.equal(readFlow(after!).navigationAccept, HTML_ACCEPT);
    assert.deepEqual(readFlow(after!).next, CHALLENGE);
  });

  it('posts PaReq, MD (even empty) and TermUrl for 3DS 1.0.2, and the Method data', async () => {
    const threeDs1: StoredAction = {
      action: '3ds1',
      acsUrl: 'https://acs.bank.example/pareq',
      paReq: 'PR',
      md: '',
      termUrl: 'https://pay.example/return/x',
    };
    const order = await orderWith(threeDs1);
    const body = await (await launch(order.returnRef, launchKey(threeDs1))).text();
    assert.ok(
      body.includes(
        '<input type="hidden" name="PaReq" value="PR"><input type="hidden" name="MD" value="">' +
          '<input type="hidden" name="TermUrl" value="https://pay.example/return/x"></form>',
      ),
    );
    const method: StoredAction = {
      action: 'method',
      methodUrl: 'https://acs.bank.example/method',
      methodData: 'bWV0aG9k',
      timeoutMs: 10_000,
    };
    const other = await orderWith(method);
    const page = await (await launch(other.returnRef, launchKey(method))).text();
    assert.ok(
      page.includes(
        'action="https://acs.bank.example/method" target="pay-checkout-bank" hidden><input type="hidden" name="threeDSMethodData" value="bWV0aG9k"></form>',
      ),
    );
  });

  it('frames the gateway page for an html step, with no form of its own', async () => {
    const html: StoredAction = {
      action: 'html',
      url: `${stack.be.url}/gateway-page/abc`,
      html: '<form></form>',
    };
    const order = await orderWith(html);
    const body = await (await launch(order.returnRef, launchKey(html))).text();
    assert.ok(!body.includes('<form'));
    assert.ok(body.includes(`"pageUrl":"${stack.be.url}/gateway-page/abc"`));
  });

  it("frames the gateway's 3DS address for a redirect step; refuses one that is not https", async () => {
    const redirect: StoredAction = {
      action: 'redirect',
      url: 'https://gate.example/3ds?x=1&y=<2>',
    };
    const order = await orderWith(redirect);
    const res = await launch(order.returnRef, launchKey(redirect));
    assert.equal(res.status, 200);
    const body = await res.text();
    assert.ok(!body.includes('<form'));
    assert.ok(
      body.includes('"pageUrl":"https://gate.example/3ds?x=1\\u0026y=\\u003c2\\u003e"'),
      body,
    );
    const plain: StoredAction = { action: 'redirect', url: 'http://evil.example/3ds' };
    const refused = await orderWith(plain);
    const no = await launch(refused.returnRef, launchKey(plain));
    assert.equal(no.status, 410);
    assert.ok(!(await no.text()).includes('evil.example'));
  });

  it('speaks the Accept-Language it understands; a tag named like an Object member is just not one (R4-L2)', async () => {
    const order = await orderWith(CHALLENGE);
    const key = launchKey(CHALLENGE);
    for (const [acceptLanguage, ref, status, lang] of [
      ['de-CH, en;q=0.5', order.returnRef, 200, 'de'],
      ['constructor', order.returnRef, 200, 'en'],
      ['constructor-x;q=1, de;q=0.5', order.returnRef, 200, 'de'],
      ['__proto__, toString', 'A'.repeat(43), 404, 'en'],
    ] as const) {
      const res = await fetch(`${stack.be.url}/launch/${ref}/${key}`, {
        headers: { accept: HTML_ACCEPT, 'accept-language': acceptLanguage },
      });
      assert.equal(res.status, status, acceptLanguage);
      assert.match(await res.text(), new RegExp(`<html lang="${lang}"`), acceptLanguage);
    }
  });

  it('posts nothing for a stale key, a finished order, an unknown or malformed ref, and records nothing', async () => {
    const order = await orderWith(CHALLENGE);
    const finished = await orderWith(CHALLENGE, 'approved');
    const stale = launchKey({ ...CHALLENGE, creq: 'another' });
    const cases: [string, string, number][] = [
      [order.returnRef, stale, 410],
      [finished.returnRef, launchKey(CHALLENGE), 410],
      ['A'.repeat(43), launchKey(CHALLENGE), 404],
      ['short', launchKey(CHALLENGE), 404],
      [order.returnRef, 'not-a-key', 404],
    ];
    for (const [ref, key, status] of cases) {
      const res = await launch(ref, key);
      assert.equal(res.status, status, `${ref} ${key}`);
      assert.ok(!(await res.text()).includes('<form'));
    }
    assert.equal(
      readFlow((await stack.be.store.orders.get(order.id))!).navigationAccept,
      undefined,
    );
  });

  it("opened at the top level after its step: says so in the shopper's language, with a link back to the shop, or that the page may be closed", async () => {
    const session = await createSession(stack.be.url);
    const order = (await stack.be.store.orders.getByClientOrderId(session.orderId))!;
    const over = await fetch(`${stack.be.url}/launch/${order.returnRef}/${launchKey(CHALLENGE)}`, {
      headers: { accept: HTML_ACCEPT, 'accept-language': 'de-AT, en;q=0.5' },
    });
    assert.equal(over.status, 410);
    const body = await over.text();
    assert.match(body, /<html lang="de" dir="ltr">/);
    assert.ok(
      body.includes(
        '<main><h1>Ihre Bank</h1><p>Dieser Schritt bei Ihrer Bank ist abgeschlossen.</p>' +
          `<p><a href="${MERCHANT_ORIGIN}/thank-you">Zurück zum Shop</a></p></main>`,
      ),
      body,
    );
    // Nothing to frame, nothing to post.
    assert.ok(!body.includes('<iframe') && !body.includes('<form'));

    // An order no one knows: no shop to go back to.
    const unknown = await fetch(
      `${stack.be.url}/launch/${'A'.repeat(43)}/${launchKey(CHALLENGE)}`,
      {
        headers: { accept: HTML_ACCEPT, 'accept-language': 'ar' },
      },
    );
    assert.equal(unknown.status, 404);
    const text = await unknown.text();
    assert.match(text, /<html lang="ar" dir="rtl">/);
    assert.ok(
      text.includes('<p>انتهت هذه الخطوة مع مصرفك.</p><p>يمكنك إغلاق هذه الصفحة.</p>'),
      text,
    );
    assert.ok(!text.includes('<a '));
  });

  it('the widget API names the launcher of each step, and the Method upload carries the recorded Accept', async () => {
    const session = await createSession(stack.be.url);
    const shopper = new Shopper(stack.be.url, session.token);
    // Until the gateway has authorised and asks for the Method (it may answer `wait` first).
    const paid = await shopper.until(await shopper.pay({ pan: '4000000000000036' }));
    assert.equal(paid.action, 'method');
    const order = (await stack.be.store.orders.getByClientOrderId(session.orderId))!;
    const launchUrl = `${stack.be.url}/launch/${order.returnRef}/${launchKey(readFlow(order).next)}`;
    assert.equal((paid as { launchUrl?: string }).launchUrl, launchUrl);
    assert.equal((await fetch(launchUrl, { headers: { accept: HTML_ACCEPT } })).status, 200);
    await shopper.methodResult('Y');
    const sent = await stack.be.store.history.forOrder(order.id);
    const upload = sent.find((e) => e.operation === 'upload-method-url-result');
    assert.equal(upload?.request.browserAcceptHeader, HTML_ACCEPT);
  });

  it('an odd browser language is normalised for the gateway, never refused', async () => {
    const session = await createSession(stack.be.url);
    const shopper = new Shopper(stack.be.url, session.token);
    const res = await shopper.call('POST', '/pay', {
      card: {
        number: '4000000000000002',
        expMonth: '12',
        expYear: '2030',
        cvc: '123',
        holder: 'J',
      },
      browser: { ...BROWSER, language: 'zh-Hant-TW-x-private' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const order = (await stack.be.store.orders.getByClientOrderId(session.orderId))!;
    const sale = (await stack.be.store.history.forOrder(order.id)).find(
      (e) => e.operation === 'sale',
    );
    assert.equal(sale?.request.customer_browser_accept_language, 'zh-TW');
  });
});
