/**
 * A 3-D Secure upload claimed by an instance that died before the gateway answered it (the
 * crash review's D2): the claim writes the upload ahead as sent, so the next instance to follow
 * the order (here the shopper's widget, or the return page's replay) sends it again once the
 * claimer's lease is over and the gateway's status still asks for it; once, never twice. Before,
 * the shopper's retry was answered 200 with nothing sent, and the order waited for the gateway's
 * 3DS expiry to decline it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NextAction } from '../../contract/api-types.js';
import {
  type Backend,
  card,
  closeServer,
  createSession,
  exactlyOneCharge,
  historyCount,
  type Pair,
  parseForm,
  postForm,
  runMethod,
  Shopper,
  startBackend,
  startPair,
  waitFor,
} from './support/proof.js';

/** Short, so that the successor may pick the dead instance's claim up soon. */
const TIMING = { sendLeaseMs: 400 };

describe('a 3DS upload claimed by an instance that died before sending it', () => {
  let pair: Pair;
  /** Gateway paths the dying instance never sends (it dies first). */
  let blackHole: string | undefined;
  /** Every instance started, closed after the tests even when one fails. */
  const started: Backend[] = [];
  before(async () => {
    pair = await startPair();
  });
  after(async () => {
    for (const be of started) await be.close().catch(() => {});
    await pair.close();
  });

  const doomedBackend = async () => {
    const be = await startBackend(pair.sb, {
      store: pair.store,
      timing: TIMING,
      gatewayFetch: (url, init) =>
        blackHole && url.includes(blackHole) ? new Promise(() => {}) : fetch(url, init),
    });
    started.push(be);
    return be;
  };
  /** The dead instance's server vanishes (its frozen calls never end); a new one on its port. */
  async function successor(dead: Backend): Promise<Backend> {
    const port = Number(new URL(dead.url).port);
    await closeServer(dead.server);
    blackHole = undefined;
    const be = await startBackend(pair.sb, { store: pair.store, port, timing: TIMING });
    started.push(be);
    return be;
  }

  async function toMethod(be: Backend) {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const first = await shopper.until(await shopper.pay(card('3ds2-challenge')));
    assert.equal(first.action, 'method');
    if (first.action === 'method' && first.methodUrl && first.methodData) {
      await runMethod(first.methodUrl, first.methodData);
    }
    return { session, shopper };
  }

  it('the Method result: the retry on the successor leads to the challenge, one upload', async () => {
    const dying = await doomedBackend();
    const { session, shopper } = await toMethod(dying);
    blackHole = 'upload-method-url-result';
    void shopper.methodResult('Y').catch(() => {});
    await waitClaimed(pair, session.orderId, (o) => o.threeDsCompInd !== null);
    const next = await successor(dying);
    const heir = new Shopper(next.url, session.token);
    // The widget retries the call whose answer it lost: 200, and the order goes on.
    const action = await heir.until(await onceMore(() => heir.methodResult('Y')));
    assert.equal(action.action, 'challenge', JSON.stringify(action));
    const order = await pair.store.orders.getByClientOrderId(session.orderId);
    assert.ok(order);
    assert.equal(await historyCount(next, order.id, 'upload-method-url-result'), 1);
  });

  it('the CRes: the replayed post on the successor is sent on, approved, one charge', async () => {
    const dying = await doomedBackend();
    const { session, shopper } = await toMethod(dying);
    const challenge = await shopper.until(await shopper.methodResult('Y'));
    assert.equal(challenge.action, 'challenge', JSON.stringify(challenge));
    if (challenge.action !== 'challenge') return;
    const back = await acsAnswer(challenge);
    blackHole = 'upload-cres-result';
    void postForm(back.action, back.fields).catch(() => null);
    await waitClaimed(pair, session.orderId, (o) => o.nextAction?.includes('"answered":["'));
    const next = await successor(dying);
    // The shopper reloads the return page: a replay, answered 200, and the upload goes again.
    const again = await onceMore(() => postForm(back.action, back.fields));
    assert.equal(again.status, 200, again.html.slice(0, 300));
    const heir = new Shopper(next.url, session.token);
    const final = await heir.until(await heir.next(1));
    assert.equal(final.action, 'final', JSON.stringify(final));
    assert.equal(final.action === 'final' && final.order.status, 'approved');
    const charge = await exactlyOneCharge(pair.sb, session.orderId);
    assert.equal(charge.status, 'approved');
    const order = await pair.store.orders.getByClientOrderId(session.orderId);
    assert.ok(order);
    assert.equal(await historyCount(next, order.id, 'upload-cres-result'), 1);
  });
});

/** The ACS's page, the code, and its auto-submitted form back to our return page. */
async function acsAnswer(action: Extract<NextAction, { action: 'challenge' }>) {
  const page = await postForm(action.acsUrl, { creq: action.creq });
  const otpForm = parseForm(page.html, action.acsUrl);
  assert.ok(otpForm, page.html.slice(0, 300));
  const done = await postForm(otpForm.action, {
    ...otpForm.fields,
    otp: card('3ds2-challenge').otp ?? '',
    action: 'submit',
  });
  const back = parseForm(done.html, otpForm.action);
  assert.ok(back, done.html.slice(0, 300));
  return back;
}

/** A connection pooled to the dead server fails the first call: the browser's retry. */
async function onceMore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch {
    return call();
  }
}

function waitClaimed(
  pair: Pair,
  clientOrderId: string,
  claimed: (order: { threeDsCompInd: string | null; nextAction: string }) => unknown,
) {
  return waitFor('the upload to be claimed', async () => {
    const order = await pair.store.orders.getByClientOrderId(clientOrderId);
    return order && claimed({ ...order, nextAction: JSON.stringify(order.nextAction) });
  });
}
