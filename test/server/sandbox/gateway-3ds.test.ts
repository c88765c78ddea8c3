/**
 * The sandbox's gateway-driven 3DS profile (acs/gateway-3ds.ts): the sale answer and the status
 * name only the gateway's own page, as the spec's `redirect_url` or as `html`; the page takes the
 * code, ends the transaction, sends the shopper back to the merchant's `redirect_url` with the
 * final redirect, and delivers the callback. Also 3DS 1.0.2 without an MD.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { TEST_CARDS } from '../../../server/src/sandbox/index.js';
import { computeControl } from '../../../server/src/signing/index.js';
import {
  browserPost,
  type Harness,
  PAY_JSON,
  REDIRECT,
  readForm,
  saleRequest,
  startSandbox,
  waitForStatus,
} from './helpers.js';

const pan = (scenario: string) => TEST_CARDS.find((c) => c.scenario === scenario)!.pan;

let h: Harness;
/** The merchant's callback receiver: every callback's query, as received. */
let receiver: Server;
let callbackUrl: string;
const received: Record<string, string>[] = [];
before(async () => {
  h = await startSandbox({ callbacks: { baseDelayMs: 20, maxAttempts: 2, timeoutMs: 1000 } });
  receiver = createServer((req, res) => {
    received.push(Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams));
    res.end('OK');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
});
after(async () => {
  await h.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

/** A sale of the scenario's card, with a callback URL; the ack as the typed client reads it. */
async function sale(scenario: string) {
  const request = saleRequest(pan(scenario), undefined, { server_callback_url: callbackUrl });
  const ack = await h.client.sale(request);
  return { request, ack, orderid: ack.orderId!, clientOrderId: request.client_orderid };
}

const PAGE_FIELDS = ['redirect_url', 'redirect-url', 'redirect-to', 'html', 'acs-url'];
const pageFieldsOf = (raw: Record<string, string>) =>
  Object.keys(raw).filter((name) => PAGE_FIELDS.includes(name));

/** Types `otp` on the bank page at `url` (GET: a redirect; POST: the html form) and submits. */
async function typeCode(url: string, method: 'GET' | 'POST', otp: string) {
  const page =
    method === 'GET'
      ? await fetch(url, { headers: { Accept: 'text/html' } }).then(async (r) => ({
          status: r.status,
          html: await r.text(),
        }))
      : await browserPost(url, {});
  assert.equal(page.status, 200, page.html.slice(0, 300));
  const form = readForm(page.html);
  assert.match(form.action, /^\/paynet\/form\/[A-Za-z0-9_-]+\/3ds$/);
  const done = await browserPost(new URL(form.action, h.origin).href, {
    ...form.fields,
    otp,
    action: 'submit',
  });
  assert.equal(done.status, 200);
  return readForm(done.html);
}

function finalRedirectControl(status: string, orderid: string, clientOrderId: string): string {
  return computeControl(
    'final-notification',
    { status, orderid, client_orderid: clientOrderId },
    h.controlKey,
  );
}

describe('gateway-driven 3DS cards', () => {
  test('redirect: sale and status carry only redirect_url; the code page approves, final-redirects and calls back', async () => {
    const o = await sale('gateway-3ds-redirect');
    assert.equal(o.ack.status, 'processing');
    assert.deepEqual(pageFieldsOf(o.ack.raw), ['redirect_url']);
    const url = o.ack.raw.redirect_url!;
    assert.match(url, new RegExp(`^${h.base}/form/[A-Za-z0-9_-]{24}/bank$`));
    const status = await h.client.status({ client_orderid: o.clientOrderId, orderid: o.orderid });
    assert.equal(status.status, 'processing');
    assert.deepEqual(pageFieldsOf(status.raw), ['redirect_url']);
    assert.equal(status.raw.redirect_url, url);

    const back = await typeCode(url, 'GET', '1234');
    assert.equal(back.action, REDIRECT);
    assert.deepEqual(back.fields, {
      status: 'approved',
      orderid: o.orderid,
      client_orderid: o.clientOrderId,
      merchant_order: o.clientOrderId,
      control: finalRedirectControl('approved', o.orderid, o.clientOrderId),
    });
    const done = await waitForStatus(h, o.clientOrderId, o.orderid);
    assert.equal(done.status, 'approved');
    assert.deepEqual(pageFieldsOf(done.raw), []);
    // The page is over: a second visit changes nothing.
    const again = await fetch(url);
    assert.equal(again.status, 404);
    await h.sandbox.idle();
    const mine = received.filter((q) => q.orderid === o.orderid);
    assert.deepEqual(
      mine.map((q) => [q.status, q.client_orderid, q.control]),
      [['approved', o.clientOrderId, finalRedirectControl('approved', o.orderid, o.clientOrderId)]],
    );
  });

  test('redirect-declined: the right code, then the issuer declines (05)', async () => {
    const o = await sale('gateway-3ds-redirect-declined');
    const back = await typeCode(o.ack.raw.redirect_url!, 'GET', '1234');
    assert.equal(back.fields.status, 'declined');
    assert.equal(back.fields.error_message, 'Do not honour');
    const done = await waitForStatus(h, o.clientOrderId, o.orderid);
    assert.deepEqual([done.status, done.errorCode], ['declined', '05']);
  });

  test('redirect: a wrong code fails the authentication (declined, 3DS-FAILED)', async () => {
    const o = await sale('gateway-3ds-redirect');
    const back = await typeCode(o.ack.raw.redirect_url!, 'GET', '0000');
    assert.equal(back.fields.status, 'declined');
    const done = await waitForStatus(h, o.clientOrderId, o.orderid);
    assert.deepEqual([done.status, done.errorCode], ['declined', '3DS-FAILED']);
  });

  test('html: sale and status carry only html, a form posting itself to the code page', async () => {
    const o = await sale('gateway-3ds-html');
    assert.deepEqual(pageFieldsOf(o.ack.raw), ['html']);
    const html = o.ack.raw.html!;
    const form = readForm(html);
    assert.match(form.action, new RegExp(`^${h.base}/form/[A-Za-z0-9_-]{24}/bank$`));
    assert.deepEqual(form.fields, {});
    assert.match(html, /<script>document\.forms\[0\]\.submit\(\);<\/script>/);
    const status = await h.client.status({ client_orderid: o.clientOrderId, orderid: o.orderid });
    assert.deepEqual(pageFieldsOf(status.raw), ['html']);
    assert.equal(status.raw.html, html);

    const back = await typeCode(form.action, 'POST', '1234');
    assert.deepEqual([back.action, back.fields.status], [REDIRECT, 'approved']);
    assert.equal((await waitForStatus(h, o.clientOrderId, o.orderid)).status, 'approved');
  });

  test('a repeated identical sale is answered with the same page', async () => {
    const o = await sale('gateway-3ds-redirect');
    const again = await h.client.sale(o.request);
    assert.equal(again.orderId, o.orderid);
    assert.equal(again.raw.redirect_url, o.ack.raw.redirect_url);
  });

  test('the response is the gateway JSON type, with the spec spelling redirect_url', async () => {
    const request = saleRequest(pan('gateway-3ds-redirect'));
    const response = await fetch(`${h.base}/api/v2/sale/${h.endpointId}`, {
      method: 'POST',
      headers: { Accept: PAY_JSON, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...request,
        control: computeControl('sale', { endpointId: h.endpointId, ...request }, h.controlKey),
      }).toString(),
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/vnd\.pay\+json/);
    const body = (await response.json()) as Record<string, string>;
    assert.equal(body.type, 'async-response');
    assert.ok(body.redirect_url);
  });
});

describe('3DS 1.0.2 without an MD', () => {
  test('the status names acs-url and pareq, no md; the PaRes uploads without one', async () => {
    const o = await sale('3ds1-no-md');
    const status = await waitForStatus(h, o.clientOrderId, o.orderid, (r) =>
      Boolean(r.raw['acs-url']),
    );
    assert.ok(status.raw.pareq);
    assert.equal('md' in status.raw, false);
    // The browser posts an empty MD, as the form must carry one.
    const page = await browserPost(status.raw['acs-url']!, {
      PaReq: status.raw.pareq!,
      MD: '',
      TermUrl: REDIRECT,
    });
    const otpForm = readForm(page.html);
    const done = await browserPost(new URL(otpForm.action, h.origin).href, {
      ...otpForm.fields,
      otp: '1234',
      action: 'submit',
    });
    const back = readForm(done.html);
    assert.equal(back.action, REDIRECT);
    assert.equal(back.fields.MD, '');
    await h.client.uploadParesResult({
      orderid: o.orderid,
      'client-order-id': o.clientOrderId,
      paRes: back.fields.PaRes!,
    });
    assert.equal((await waitForStatus(h, o.clientOrderId, o.orderid)).status, 'approved');
  });
});
