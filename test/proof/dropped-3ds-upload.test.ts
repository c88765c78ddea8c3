/**
 * A 3DS upload (method result, CRes, PaRes) whose answer is lost: the gateway committed it, or
 * may not have (timeout, dropped answer, 5xx). The backend must treat it like a sale whose answer
 * was lost: the browser step is over, the widget is told to wait (never a 502, never raw JSON in
 * the challenge frame), and following the order asks the gateway's status, which names the next
 * step. Only when the status shows the gateway never got the upload is it sent again. All of it
 * through the widget API alone: the reconciler never runs here.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { NextAction } from '../../contract/api-types.js';
import {
  BROWSER,
  card,
  createSession,
  exactlyOneCharge,
  faultPlan,
  historyCount,
  type Pair,
  parseForm,
  postForm,
  returnMessage,
  runMethod,
  Shopper,
  scaled,
  startPair,
} from './support/proof.js';

const faults = faultPlan();
/**
 * The backend's client timeout, and an upload slower than it; the timeout scales with the
 * machine's load (a busy machine's ordinary answer can take a second).
 */
const GATEWAY_TIMEOUT_MS = scaled(1_000);
const SLOWER_THAN_THE_TIMEOUT_MS = GATEWAY_TIMEOUT_MS + 600;

describe('a 3DS upload whose answer was lost', () => {
  let pair: Pair;
  before(async () => {
    pair = await startPair(
      {},
      {
        gatewayTimeoutMs: GATEWAY_TIMEOUT_MS,
        gatewayFetch: faults.fetch,
      },
    );
  });
  afterEach(() => {
    faults.clear();
  });
  after(async () => {
    await pair.close();
  });

  async function orderOf(clientOrderId: string) {
    const order = await pair.store.orders.getByClientOrderId(clientOrderId);
    assert.ok(order);
    return order;
  }

  /** Pays with the card and runs its 3DS Method; answers the method step's order. */
  async function toMethod(scenario: string) {
    const session = await createSession(pair.be.url);
    const shopper = new Shopper(pair.be.url, session.token);
    const first = await shopper.until(await shopper.pay(card(scenario)));
    assert.equal(first.action, 'method');
    if (first.action === 'method' && first.methodUrl && first.methodData) {
      await runMethod(first.methodUrl, first.methodData);
    }
    return { session, shopper };
  }

  /** The shopper's browser in the challenge: the ACS page, the code, the post to our page. */
  async function challenge(action: NextAction) {
    assert.ok(action.action === 'challenge' || action.action === '3ds1', JSON.stringify(action));
    const fields: Record<string, string> =
      action.action === 'challenge'
        ? { creq: action.creq }
        : { PaReq: action.paReq, MD: action.md, TermUrl: action.termUrl };
    const page = await postForm(action.acsUrl, fields);
    const otpForm = parseForm(page.html, action.acsUrl);
    assert.ok(otpForm, page.html.slice(0, 300));
    const otp =
      action.action === 'challenge' ? card('3ds2-challenge').otp : (card('3ds1').otp ?? '');
    const done = await postForm(otpForm.action, {
      ...otpForm.fields,
      otp: otp ?? '',
      action: 'submit',
    });
    const back = parseForm(done.html, otpForm.action);
    assert.ok(back, done.html.slice(0, 300));
    return postForm(back.action, back.fields);
  }

  it('the widget reaches the challenge, then the final status, without the reconciler', async () => {
    const { session, shopper } = await toMethod('3ds2-challenge');
    faults.inject('upload-method-url-result', 'drop');
    const lost = await shopper.call('POST', '/method-result', {
      threeDSCompInd: 'Y',
      browser: BROWSER,
    });
    assert.equal(lost.status, 200, `method-result: ${lost.status} ${JSON.stringify(lost.body)}`);
    const action = await shopper.until(lost.body, 5_000);
    assert.equal(action.action, 'challenge', `stuck on ${action.action}`);

    faults.inject('upload-cres-result', 'drop');
    const ours = await challenge(action);
    assert.equal(ours.status, 200, ours.html.slice(0, 300));
    assert.match(ours.headers.get('content-type') ?? '', /text\/html/);
    assert.deepEqual(returnMessage(ours.html).message, {
      source: 'pay-checkout',
      type: 'challenge-complete',
      orderId: session.orderId,
    });
    const final = await shopper.until(await shopper.next(2), 5_000);
    assert.equal(final.action, 'final');
    assert.equal(final.order.status, 'approved');

    const charge = await exactlyOneCharge(pair.sb, session.orderId);
    assert.equal(charge.status, 'approved');
    const order = await orderOf(session.orderId);
    // The status showed both uploads arrived: neither was sent again.
    assert.equal(await historyCount(pair.be, order.id, 'upload-method-url-result'), 1);
    assert.equal(await historyCount(pair.be, order.id, 'upload-cres-result'), 1);
    assert.equal(await historyCount(pair.be, order.id, 'sale'), 1);
  });

  it('a retried method result after a lost answer is answered with where the order stands', async () => {
    const { session, shopper } = await toMethod('3ds2-challenge');
    faults.inject('upload-method-url-result', 'drop');
    const lost = await shopper.call('POST', '/method-result', {
      threeDSCompInd: 'Y',
      browser: BROWSER,
    });
    assert.equal(lost.status, 200, JSON.stringify(lost.body));
    // The widget lost that answer too and retries: nothing is uploaded again.
    const retry = await shopper.call('POST', '/method-result', {
      threeDSCompInd: 'Y',
      browser: BROWSER,
    });
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    const action = await shopper.until(retry.body, 5_000);
    assert.equal(action.action, 'challenge');
    const again = await shopper.call('POST', '/method-result', {
      threeDSCompInd: 'Y',
      browser: BROWSER,
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.action, 'challenge');
    // A different result is not a retry: it contradicts the first.
    const other = await shopper.call('POST', '/method-result', {
      threeDSCompInd: 'N',
      browser: BROWSER,
    });
    assert.equal(other.status, 409, JSON.stringify(other.body));
    const order = await orderOf(session.orderId);
    assert.equal(await historyCount(pair.be, order.id, 'upload-method-url-result'), 1);

    const ours = await challenge(action);
    assert.equal(returnMessage(ours.html).message.type, 'challenge-complete');
    const final = await shopper.until(await shopper.next(2), 5_000);
    assert.equal(final.action === 'final' && final.order.status, 'approved');
    await exactlyOneCharge(pair.sb, session.orderId);
  });

  it('a method result the gateway never got (5xx) is sent again once its status shows it', async () => {
    const { session, shopper } = await toMethod('3ds2-challenge');
    faults.inject('upload-method-url-result', '5xx');
    const lost = await shopper.call('POST', '/method-result', {
      threeDSCompInd: 'Y',
      browser: BROWSER,
    });
    assert.equal(lost.status, 200, JSON.stringify(lost.body));
    assert.equal(lost.body.action, 'wait');
    const action = await shopper.until(lost.body, 8_000);
    assert.equal(action.action, 'challenge', JSON.stringify(action));
    const order = await orderOf(session.orderId);
    assert.equal(await historyCount(pair.be, order.id, 'upload-method-url-result'), 2);

    const ours = await challenge(action);
    assert.equal(returnMessage(ours.html).message.type, 'challenge-complete');
    const final = await shopper.until(await shopper.next(2), 5_000);
    assert.equal(final.action === 'final' && final.order.status, 'approved');
    await exactlyOneCharge(pair.sb, session.orderId);
  });

  // One scenario, the fault on the CRes upload changed: late (the gateway got it; its status says
  // so before any resend is due, so it is uploaded once) or refused (never got it: sent again).
  for (const c of [
    {
      name: 'a CRes upload slower than the client timeout: the page answers, status finds the end',
      fault: `latency=${SLOWER_THAN_THE_TIMEOUT_MS}`,
      uploads: 1,
    },
    {
      name: 'a CRes the gateway never got (5xx) is sent again; the page still answers',
      fault: '5xx',
      uploads: 2,
    },
  ]) {
    it(c.name, async () => {
      const { session, shopper } = await toMethod('3ds2-challenge');
      const action = await shopper.until(await shopper.methodResult('Y'));
      faults.inject('upload-cres-result', c.fault);
      const ours = await challenge(action);
      assert.equal(ours.status, 200, ours.html.slice(0, 300));
      assert.equal(returnMessage(ours.html).message.type, 'challenge-complete');
      const final = await shopper.until(await shopper.next(2), 8_000);
      assert.equal(final.action === 'final' && final.order.status, 'approved');
      await exactlyOneCharge(pair.sb, session.orderId);
      const order = await orderOf(session.orderId);
      assert.equal(await historyCount(pair.be, order.id, 'upload-cres-result'), c.uploads);
    });
  }

  it('3DS 1.0.2: a dropped PaRes upload ends right, uploaded once', async () => {
    const session = await createSession(pair.be.url);
    const shopper = new Shopper(pair.be.url, session.token);
    const action = await shopper.until(await shopper.pay(card('3ds1')));
    assert.equal(action.action, '3ds1');
    faults.inject('upload-pares-result', 'drop');
    const ours = await challenge(action);
    assert.equal(ours.status, 200, ours.html.slice(0, 300));
    assert.equal(returnMessage(ours.html).message.type, 'challenge-complete');
    const final = await shopper.until(await shopper.next(2), 5_000);
    assert.equal(final.action === 'final' && final.order.status, 'approved');
    await exactlyOneCharge(pair.sb, session.orderId);
    const order = await orderOf(session.orderId);
    assert.equal(await historyCount(pair.be, order.id, 'upload-pares-result'), 1);
  });

  it('a method result the gateway refuses is still a 502, and the step is the browser’s again', async () => {
    const { session, shopper } = await toMethod('3ds2-challenge');
    // The card has a method URL, so the gateway refuses U (400 validation error): a real
    // refusal. The backend itself refuses a U from the browser for such an order, so the U is
    // written into the upload on its way out.
    faults.rewrite('upload-method-url-result', 'threeDSCompInd=N', 'threeDSCompInd=U');
    const refused = await shopper.call('POST', '/method-result', {
      threeDSCompInd: 'N',
      browser: BROWSER,
    });
    assert.equal(refused.status, 502, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'gateway');
    // Refused for the U, not for anything the rewrite broke (the control does not cover it).
    const uploads = (
      await pair.be.store.history.forOrder((await orderOf(session.orderId)).id)
    ).filter((e) => e.operation === 'upload-method-url-result');
    assert.deepEqual(
      uploads.map((e) => [e.httpStatus, /threeDSCompInd: is U/.test(JSON.stringify(e.response))]),
      [[400, true]],
    );
    assert.equal((await shopper.next(0)).action, 'method');
    const final = await shopper.complete(card('3ds2-challenge'), await shopper.methodResult('Y'));
    assert.equal(final.action === 'final' && final.order.status, 'approved');
    await exactlyOneCharge(pair.sb, session.orderId);
  });

  it('a CRes the gateway refuses still gets the return page, and the used challenge is never offered again', async () => {
    const { session, shopper } = await toMethod('3ds2-challenge');
    const action = await shopper.until(await shopper.methodResult('Y'));
    assert.equal(action.action, 'challenge');
    const order = await orderOf(session.orderId);
    const ours = await postForm(`${pair.be.url}/return/${order.returnRef}`, { cres: 'x' });
    assert.equal(ours.status, 200, ours.html.slice(0, 300));
    assert.match(ours.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(returnMessage(ours.html).message.type, 'challenge-complete');
    // A real ACS refuses a second CReq: the order waits and the gateway's status decides
    // (test/proof/refused-challenge.test.ts follows it further).
    const next = await shopper.next(0);
    assert.equal(next.action, 'wait');
    assert.equal(next.order.status, 'processing');
  });

  it('the return page answers its page, never JSON, to unknown refs and unreadable bodies', async () => {
    const unknown = await postForm(`${pair.be.url}/return/${'A'.repeat(43)}`, { cres: 'x' });
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(returnMessage(unknown.html).origin, null);

    const session = await createSession(pair.be.url);
    const shopper = new Shopper(pair.be.url, session.token);
    await shopper.until(await shopper.pay(card('3ds2-challenge')));
    const order = await orderOf(session.orderId);
    const url = `${pair.be.url}/return/${order.returnRef}`;
    const tooLarge = await postForm(url, { cres: 'x'.repeat(70_000) });
    assert.equal(tooLarge.status, 413);
    assert.match(tooLarge.headers.get('content-type') ?? '', /text\/html/);
    const data = returnMessage(tooLarge.html);
    assert.equal(data.origin, null);
    const charset = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=koi8-r' },
      body: 'cres=x',
    });
    assert.ok(charset.status >= 400 && charset.status < 500, String(charset.status));
    assert.match(charset.headers.get('content-type') ?? '', /text\/html/);
    returnMessage(await charset.text());
  });
});
