/**
 * Gateway-driven 3-D Secure through the widget API, end to end: the sandbox's gateway-driven
 * cards (its sale and status name only `redirect_url` or `html`), and a tiny gateway written here
 * from the spec's words alone ("For 3DS the response carries `redirect_url`"; the customer is
 * sent "through a `redirect_url` and back"; "the final result comes via status"). A scripted
 * browser follows the pages; the backend must send the shopper there, never back there once
 * they returned, and end the order with the gateway's own outcome.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { NextAction } from '../../../../contract/api-types.js';
import { TEST_CARDS } from '../../../../server/src/sandbox/index.js';
import {
  type Backend,
  closeServer,
  listen,
  MERCHANT_ORIGIN,
  type Sandbox,
  startBackend,
  startSandbox,
  withSandboxAndBackend,
} from '../../../support/loopback-stack.js';
import {
  createSession,
  merchant,
  parseForm,
  postForm,
  returnMessage,
  Shopper,
} from '../../../support/widget-api-client.js';

const card = (scenario: string) => {
  const found = TEST_CARDS.find((c) => c.scenario === scenario);
  assert.ok(found, scenario);
  return found;
};

/** A browser following the bank page at `url` (GET) or the form of an html page, typing `otp`. */
async function typeCodeOnBankPage(
  page: { status: number; html: string },
  url: string,
  otp: string,
) {
  assert.equal(page.status, 200, page.html.slice(0, 300));
  const form = parseForm(page.html, url);
  assert.ok(form, page.html.slice(0, 300));
  const done = await postForm(form.action, { ...form.fields, otp, action: 'submit' });
  assert.equal(done.status, 200);
  // The gateway's final redirect: a form that posts itself to the order's redirect_url.
  const back = parseForm(done.html, form.action);
  assert.ok(back, done.html.slice(0, 300));
  return back;
}

async function get(url: string) {
  const res = await fetch(url, { headers: { Accept: 'text/html' }, redirect: 'manual' });
  return { status: res.status, html: await res.text(), headers: res.headers };
}

describe('gateway-driven 3DS against the sandbox', () => {
  let sb: Sandbox;
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ sb, be } = started);
  });

  async function returnUrlOf(orderId: string): Promise<string> {
    const order = await be.store.orders.getByClientOrderId(orderId);
    assert.ok(order);
    return `${be.url}/return/${order.returnRef}`;
  }

  for (const [scenario, status, reason, errorCode] of [
    ['gateway-3ds-redirect', 'approved', undefined, undefined],
    ['gateway-3ds-redirect-declined', 'declined', 'Do not honour', '05'],
  ] as const) {
    test(`${scenario}: sent to redirect_url, back by the final redirect, ${status}`, async () => {
      const session = await createSession(be.url);
      const shopper = new Shopper(be.url, session.token);
      const first = await shopper.pay(card(scenario));
      assert.equal(first.action, 'redirect');
      assert.ok(first.action === 'redirect');
      assert.match(first.url, new RegExp(`^${sb.gatewayUrl}/form/[A-Za-z0-9_-]{24}/bank$`));
      // It stays the step while the gateway says processing (a long poll holds on it).
      assert.deepEqual(await shopper.next(1), first);

      // A forged way back (a made-up control) ends nothing: same order, same step, no status asked.
      const stored = await be.store.orders.getByClientOrderId(session.orderId);
      assert.ok(stored);
      const historyBefore = (await be.store.history.forOrder(stored.id)).length;
      const forged = await postForm(await returnUrlOf(session.orderId), {
        status: 'approved',
        orderid: stored.gatewayOrderId ?? '',
        client_orderid: session.orderId,
        control: 'f'.repeat(40),
      });
      assert.equal(forged.status, 403);
      const unchanged = await be.store.orders.get(stored.id);
      assert.deepEqual(
        [unchanged?.status, unchanged?.version, unchanged?.nextAction],
        [stored.status, stored.version, stored.nextAction],
      );
      assert.equal((await be.store.history.forOrder(stored.id)).length, historyBefore);

      const back = await typeCodeOnBankPage(await get(first.url), first.url, '1234');
      assert.equal(back.action, await returnUrlOf(session.orderId));
      assert.deepEqual([back.fields.status, back.fields.client_orderid], [status, session.orderId]);
      const ours = await postForm(back.action, back.fields);
      assert.equal(ours.status, 200);
      const page = returnMessage(ours.html);
      // The widget is told (its frame's message, or the shop's returnUrl at the top level).
      assert.deepEqual(page.message, {
        source: 'pay-checkout',
        type: 'final',
        orderId: session.orderId,
      });
      assert.equal(page.origin, MERCHANT_ORIGIN);
      assert.equal(page.returnUrl, `${MERCHANT_ORIGIN}/thank-you`);
      assert.match(ours.html, /Payment finished/);

      const last = await shopper.next(0);
      assert.equal(last.action, 'final');
      assert.equal(last.order.status, status);
      assert.equal(last.order.reason, reason);
      assert.equal(last.order.errorCode, errorCode);
      const order = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
      assert.equal(order.body.status, status);
      // One sale, no 3DS upload: the gateway ran the authentication itself.
      const ops = (await be.store.history.forOrder(stored.id)).map((h) => h.operation);
      assert.equal(ops.filter((o) => o === 'sale').length, 1);
      assert.deepEqual(
        ops.filter((o) => o.startsWith('upload')),
        [],
      );
    });
  }

  test('gateway-3ds-html: our page serves the gateway html; its form leads to the code page and back', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const first = await shopper.pay(card('gateway-3ds-html'));
    const order = await be.store.orders.getByClientOrderId(session.orderId);
    assert.ok(order);
    assert.ok(first.action === 'html');
    assert.equal(first.url, `${be.url}/gateway-page/${order.returnRef}`);
    // The widget loads the launcher (a page of ours), which frames that page.
    assert.ok(first.launchUrl.startsWith(`${be.url}/`), first.launchUrl);
    assert.ok(!JSON.stringify(first).includes('<form'));
    const framed = await get(first.url);
    assert.equal(framed.status, 200);
    assert.match(
      framed.headers.get('content-security-policy') ?? '',
      /sandbox allow-forms allow-scripts/,
    );
    const form = parseForm(framed.html, first.url);
    assert.ok(form);
    assert.match(form.action, new RegExp(`^${sb.gatewayUrl}/form/[A-Za-z0-9_-]{24}/bank$`));
    // What the page's script does: post its form.
    const bank = await postForm(form.action, form.fields);
    const back = await typeCodeOnBankPage(bank, form.action, '1234');
    assert.equal(back.action, `${be.url}/return/${order.returnRef}`);
    const ours = await postForm(back.action, back.fields);
    assert.equal(returnMessage(ours.html).message.type, 'final');
    const last = await shopper.next(0);
    assert.deepEqual([last.action, last.order.status], ['final', 'approved']);
    // The page is served only while it is the order's step.
    assert.equal((await get(first.url)).status, 404);
  });

  test('3ds1-no-md: the 1.0.2 step starts with an empty MD and approves', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const step = await shopper.until(await shopper.pay(card('3ds1-no-md')));
    assert.equal(step.action, '3ds1');
    assert.ok(step.action === '3ds1');
    assert.equal(step.md, '');
    const last = await shopper.complete(card('3ds1-no-md'), step);
    assert.deepEqual([last.action, last.order.status], ['final', 'approved']);
  });
});

/**
 * A gateway from the spec's words alone: sale (control: endpointId + client_orderid + amount in
 * cents + email + key) answers `redirect_url`; status (control: login + client_orderid + orderid +
 * key) says processing, then approved once the shopper was through the 3DS page, and never
 * repeats `redirect_url`. Its 3DS page sends the shopper back to the sale's `redirect_url` with a
 * plain redirect, with no fields: the spec names none for the way back.
 */
function specGateway(options: { lagAfterReturn: number }) {
  const ENDPOINT = '4242';
  const LOGIN = 'spec-merchant';
  const KEY = 'SPEC-CONTROL-KEY';
  const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
  const state = {
    sales: [] as Record<string, string>[],
    statusCalls: 0,
    authenticated: false,
    lag: options.lagAfterReturn,
  };
  let base = '';
  const json = (res: ServerResponse, code: number, body: unknown) => {
    res.writeHead(code, { 'Content-Type': 'application/vnd.pay+json' }).end(JSON.stringify(body));
  };
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://gateway');
    let text = '';
    for await (const chunk of req) text += chunk;
    const f = Object.fromEntries(new URLSearchParams(text));
    if (req.method === 'POST' && url.pathname === `/api/v2/sale/${ENDPOINT}`) {
      const cents = String(Math.round(Number(f.amount) * 100));
      if (req.headers.accept !== 'application/vnd.pay+json') return json(res, 400, {});
      if (f.control !== sha1(`${ENDPOINT}${f.client_orderid}${cents}${f.email}${KEY}`)) {
        return json(res, 400, { type: 'validation-error', 'error-message': 'control' });
      }
      state.sales.push(f);
      return json(res, 200, {
        type: 'async-response',
        status: 'processing',
        orderid: 'SPEC-1',
        redirect_url: `${base}/3ds/SPEC-1`,
      });
    }
    if (req.method === 'POST' && url.pathname === `/api/v2/status/${ENDPOINT}`) {
      if (f.control !== sha1(`${LOGIN}${f.client_orderid}${f.orderid ?? ''}${KEY}`)) {
        return json(res, 400, { type: 'validation-error', 'error-message': 'control' });
      }
      state.statusCalls += 1;
      let status = 'processing';
      if (state.authenticated) {
        if (state.lag > 0) state.lag -= 1;
        else status = 'approved';
      }
      return json(res, 200, { type: 'status-response', status, orderid: 'SPEC-1' });
    }
    if (req.method === 'GET' && url.pathname === '/3ds/SPEC-1') {
      state.authenticated = true;
      res.writeHead(302, { Location: state.sales[0]?.redirect_url ?? '/' }).end();
      return;
    }
    res.writeHead(404).end();
  };
  return {
    state,
    async start() {
      const listening = await listen((req, res) => void handler(req, res));
      base = listening.url;
      return {
        ...listening,
        gateway: { url: listening.url, endpointId: ENDPOINT, login: LOGIN, controlKey: KEY },
      };
    },
  };
}

describe('a tiny gateway from the spec alone: sale answers only redirect_url', () => {
  let sb: Sandbox;
  before(async () => {
    // Only for the harness's defaults; the backend talks to the tiny gateway.
    sb = await startSandbox();
  });
  after(() => sb.close());

  for (const lag of [0, 2]) {
    test(`the shopper is sent there, comes back, and the order ends approved (status lags ${lag})`, async () => {
      const spec = specGateway({ lagAfterReturn: lag });
      const { server, url: gatewayUrl, gateway } = await spec.start();
      const be = await startBackend(sb, { config: { gateway } });
      try {
        const session = await createSession(be.url);
        const shopper = new Shopper(be.url, session.token);
        const first = await shopper.pay(card('approved'));
        // The sale's own answer named the page; the status after it named nothing: it stands.
        assert.equal(first.action, 'redirect');
        assert.ok(first.action === 'redirect');
        assert.equal(first.url, `${gatewayUrl}/3ds/SPEC-1`);
        assert.ok(spec.state.statusCalls >= 1);
        assert.deepEqual(await shopper.next(0), first);
        const order = await be.store.orders.getByClientOrderId(session.orderId);
        assert.ok(order);
        assert.equal(spec.state.sales[0]?.redirect_url, `${be.url}/return/${order.returnRef}`);

        // The browser at the gateway's page, then back at our redirect_url.
        const page = await get(first.url);
        assert.equal(page.status, 302);
        const location = page.headers.get('location') ?? '';
        assert.equal(location, `${be.url}/return/${order.returnRef}`);
        const ours = await get(location);
        assert.equal(ours.status, 200);
        assert.deepEqual(returnMessage(ours.html).message, {
          source: 'pay-checkout',
          type: 'final',
          orderId: session.orderId,
        });
        assert.match(ours.html, lag ? /Checking the payment/ : /Payment finished/);

        // Never sent back to the page: waits (while the status lags), then the final answer.
        const seen: NextAction[] = [];
        let next = await shopper.next(0);
        seen.push(next);
        while (next.action === 'wait') {
          next = await shopper.next(2);
          seen.push(next);
        }
        assert.deepEqual(
          seen.map((a) => a.action).filter((a) => a !== 'wait'),
          ['final'],
        );
        assert.equal(next.order.status, 'approved');
        assert.equal(spec.state.sales.length, 1);
        // A reload of the return page changes nothing and asks the gateway nothing.
        const calls = spec.state.statusCalls;
        assert.equal((await get(location)).status, 200);
        assert.equal(spec.state.statusCalls, calls);
      } finally {
        await be.close();
        await closeServer(server);
      }
    });
  }
});
