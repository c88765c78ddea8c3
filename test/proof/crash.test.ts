/**
 * Crash proofs. The real process (`main.ts start` through test/e2e/support/stack.ts) is killed
 * with SIGKILL in the middle of a sale and of a challenge and restarted on the same data folder:
 * the order is reconciled through status, nothing lost, nothing doubled. In-process variants
 * kill only the companion backend (its gateway call never returns, its server vanishes) while the
 * sandbox keeps running, and a new instance on the same store finishes the work.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NextAction } from '../../contract/api-types.js';
import { type Stack, startStack } from '../e2e/support/stack.js';
import {
  type Backend,
  BROWSER,
  CUSTOMER,
  card,
  closeServer,
  createSession,
  exactlyOneCharge,
  merchant,
  type Pair,
  parseForm,
  payBody,
  postForm,
  returnMessage,
  runMethod,
  Shopper,
  sandboxTransactions,
  startBackend,
  startPair,
  waitFor,
} from './support/proof.js';

const PAY = (pan: string) => payBody(pan);

/** Runs the ACS challenge page and posts its answer to our return page. */
async function answerChallenge(acsUrl: string, creq: string) {
  const page = await postForm(acsUrl, { creq });
  const otpForm = parseForm(page.html, acsUrl);
  assert.ok(otpForm, page.html.slice(0, 200));
  const done = await postForm(otpForm.action, {
    ...otpForm.fields,
    otp: card('3ds2-challenge').otp ?? '',
    action: 'submit',
  });
  const back = parseForm(done.html, otpForm.action);
  assert.ok(back, done.html.slice(0, 200));
  return postForm(back.action, back.fields);
}

describe('crash proofs: SIGKILL of the real process, restart on the same data', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.stop();
  });

  const widget = async (token: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${stack.shopUrl}/widget${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        Origin: stack.shopUrl,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as NextAction };
  };
  const session = async (orderId: string) => {
    const res = await stack.merchantApi('POST', '/v1/checkout-sessions', {
      amount: '12.34',
      currency: 'EUR',
      orderId,
      intent: 'sale',
      description: 'crash proof',
      customer: CUSTOMER,
      returnUrl: `${stack.shopUrl}/thank-you`,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return (res.body as { token: string }).token;
  };
  const follow = async (token: string, until: (a: NextAction) => boolean, ms = 15_000) =>
    waitFor(
      'the order to move on',
      async () => {
        const next = await widget(token, 'GET', '/next?wait=2');
        assert.equal(next.status, 200, JSON.stringify(next.body));
        return until(next.body) ? next.body : undefined;
      },
      { timeoutMs: ms, everyMs: 0 },
    );

  it('killed between the gateway committing a sale and the backend hearing of it', async () => {
    const orderId = `crash-sale-${Date.now().toString(36)}`;
    const token = await session(orderId);
    // The sandbox commits every call and drops its answer; the backend is killed right after.
    const faults = await fetch(`${stack.sandboxUrl}/sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ endpointId: '*', dropRate: 1, latencyMs: 300 }),
    });
    assert.equal(faults.status, 200);
    const paying = widget(token, 'POST', '/pay', PAY(card('approved').pan)).catch(() => null);
    // The sale is committed and its answer lost: the backend holds the order as unknown. (Not a
    // fixed sleep, which a busy machine can overrun before the sale even leaves.)
    await waitFor('the sale committed, its answer lost', async () => {
      const order = await stack.merchantApi('GET', `/v1/orders/${orderId}`);
      return (order.body as { status?: string }).status === 'unknown' ? true : undefined;
    });
    stack.kill();
    await paying;
    await stack.restart();
    // Faults are switches of the running sandbox; the restarted one has none.
    const final = await follow(token, (a) => a.action === 'final');
    assert.equal(final.action === 'final' && final.order.status, 'approved');
    const order = await stack.merchantApi('GET', `/v1/orders/${orderId}`);
    assert.equal((order.body as { status: string }).status, 'approved');
    assert.equal((order.body as { amount: string }).amount, '12.34');
    // A second pay on the finished session gets the same order back, never a second sale.
    const again = await widget(token, 'POST', '/pay', PAY(card('approved').pan));
    assert.equal(again.status, 200);
    assert.equal(again.body.action === 'final' && again.body.order.status, 'approved');
  });

  it('killed while the shopper is in the challenge: the challenge finishes after the restart', async () => {
    const orderId = `crash-3ds-${Date.now().toString(36)}`;
    const token = await session(orderId);
    let action = (await widget(token, 'POST', '/pay', PAY(card('3ds2-challenge').pan))).body;
    action = await follow(token, (a) => a.action !== 'wait');
    assert.equal(action.action, 'method');
    if (action.action === 'method' && action.methodUrl && action.methodData) {
      const page = await postForm(action.methodUrl, { threeDSMethodData: action.methodData });
      const form = parseForm(page.html, action.methodUrl);
      if (form) await postForm(form.action, form.fields);
    }
    const method = await widget(token, 'POST', '/method-result', {
      threeDSCompInd: 'Y',
      browser: BROWSER,
    });
    assert.equal(method.status, 200, JSON.stringify(method.body));
    action = await follow(token, (a) => a.action !== 'wait');
    assert.equal(action.action, 'challenge', JSON.stringify(action));
    if (action.action !== 'challenge') return;

    stack.kill();
    await stack.restart();

    // The session still knows where it stands, and the ACS and return page still work.
    const resumed = await widget(token, 'GET', '/next?wait=0');
    assert.equal(resumed.body.action, 'challenge');
    const ours = await answerChallenge(action.acsUrl, action.creq);
    assert.equal(ours.status, 200, ours.html.slice(0, 300));
    assert.equal(returnMessage(ours.html).message.type, 'challenge-complete');
    const final = await follow(token, (a) => a.action === 'final');
    assert.equal(final.action === 'final' && final.order.status, 'approved');
    const order = await stack.merchantApi('GET', `/v1/orders/${orderId}`);
    assert.equal((order.body as { status: string }).status, 'approved');
  });
});

describe('crash proofs in process: the backend dies, the sandbox lives on', () => {
  let pair: Pair;
  /** Gateway paths the dying instance sends and then never hears back from (or never sends). */
  let blackHole: { path: string; forward: boolean } | undefined;

  before(async () => {
    pair = await startPair();
  });
  after(async () => {
    await pair.close();
  });

  /** A backend whose gateway calls matching `blackHole` never return: a process frozen mid-call. */
  const doomedBackend = (port?: number) =>
    startBackend(pair.sb, {
      store: pair.store,
      ...(port ? { port } : {}),
      gatewayFetch: (url, init) => {
        if (blackHole && url.includes(blackHole.path)) {
          if (blackHole.forward)
            void fetch(url, init)
              .then((r) => r.text())
              .catch(() => {});
          return new Promise(() => {});
        }
        return fetch(url, init);
      },
    });

  /** Kills `dead` (its server vanishes; its frozen calls never finish) and starts a successor. */
  async function successor(dead: Backend): Promise<Backend> {
    const port = Number(new URL(dead.url).port);
    await closeServer(dead.server);
    blackHole = undefined;
    return startBackend(pair.sb, { store: pair.store, port });
  }

  it('died after the sale left: the successor reconciles it through status, one charge', async () => {
    const dying = await doomedBackend();
    const s = await createSession(dying.url);
    blackHole = { path: '/api/v2/sale/', forward: true };
    void new Shopper(dying.url, s.token)
      .call('POST', '/pay', PAY(card('approved').pan))
      .catch(() => {});
    await waitFor('the sale to reach the sandbox', async () =>
      (await sandboxTransactions(pair.sb, s.orderId)).length > 0 ? true : undefined,
    );
    const next = await successor(dying);
    const stuck = await pair.store.orders.getByClientOrderId(s.orderId);
    assert.equal(stuck?.status, 'new');
    await next.checkout.reconcile(0);
    const order = await merchant(next.url, 'GET', `/v1/orders/${s.orderId}`);
    assert.equal(order.body.status, 'approved');
    const final = await new Shopper(next.url, s.token).next(0);
    assert.equal(final.action, 'final');
    await exactlyOneCharge(pair.sb, s.orderId);
    const again = await new Shopper(next.url, s.token).call(
      'POST',
      '/pay',
      PAY(card('approved').pan),
    );
    assert.equal(again.body.order.status, 'approved');
    await exactlyOneCharge(pair.sb, s.orderId);
    await next.close();
  });

  it('died before the sale left: the successor closes the order as error, nothing charged', async () => {
    const dying = await doomedBackend();
    const s = await createSession(dying.url);
    blackHole = { path: '/api/v2/sale/', forward: false };
    void new Shopper(dying.url, s.token)
      .call('POST', '/pay', PAY(card('approved').pan))
      .catch(() => {});
    await waitFor('the order to be claimed', async () => {
      const order = await pair.store.orders.getByClientOrderId(s.orderId);
      return order?.status === 'new' ? true : undefined;
    });
    const next = await successor(dying);
    await next.checkout.reconcile(0);
    const order = await merchant(next.url, 'GET', `/v1/orders/${s.orderId}`);
    assert.equal(order.body.status, 'error');
    assert.deepEqual(await sandboxTransactions(pair.sb, s.orderId), []);
    await next.close();
  });

  it('died mid-challenge (and mid-upload): the successor on the same URL finishes it, once', async () => {
    const dying = await doomedBackend();
    const s = await createSession(dying.url);
    const shopper = new Shopper(dying.url, s.token);
    let action = await shopper.until(await shopper.pay(card('3ds2-challenge')));
    if (action.action === 'method' && action.methodUrl && action.methodData) {
      await runMethod(action.methodUrl, action.methodData);
    }
    action = await shopper.until(await shopper.methodResult('Y'));
    assert.equal(action.action, 'challenge');
    if (action.action !== 'challenge') return;
    // The cres upload leaves, the sandbox takes it, and the instance dies before the answer.
    blackHole = { path: 'upload-cres-result', forward: true };
    const posting = answerChallenge(action.acsUrl, action.creq).catch(() => null);
    await waitFor('the upload to reach the sandbox', async () => {
      const [tx] = await sandboxTransactions(pair.sb, s.orderId);
      return tx && tx.status !== 'processing' ? true : undefined;
    });
    const next = await successor(dying);
    await posting;
    await next.checkout.reconcile(0);
    const heir = new Shopper(next.url, s.token);
    const final = await heir.until(await heir.next(2));
    assert.equal(final.action, 'final');
    assert.equal(final.order.status, 'approved');
    const charge = await exactlyOneCharge(pair.sb, s.orderId);
    assert.equal(charge.status, 'approved');
    assert.equal(charge.amountMinor, 1042);
    await next.close();
  });
});
