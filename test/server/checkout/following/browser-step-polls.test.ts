/**
 * While the shopper's browser holds the step (here a 3DS 2 challenge), the backend keeps asking
 * the gateway at the slow browserStepPollMs, so a lost return message or an ACS that ends the
 * challenge on its own still ends the flow within seconds (following/follow.ts). A page that
 * resumes gets the step at once; a widget showing it long-polls with `showing=challenge`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { NextAction } from '../../../../contract/api-types.js';
import { TEST_CARDS } from '../../../../server/src/sandbox/index.js';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../../support/loopback-stack.js';
import { createSession, runChallenge, Shopper } from '../../../support/widget-api-client.js';

const CHALLENGE = TEST_CARDS.find((c) => c.scenario === '3ds2-challenge-no-method')!;
const STEP_POLL_MS = 300;
const ACS_TIMEOUT_MS = 2_000;

let sb: Sandbox;
let be: Backend;
before(async () => {
  sb = await startSandbox({ threeDsTimeoutMs: ACS_TIMEOUT_MS });
  be = await startBackend(sb, { timing: { browserStepPollMs: STEP_POLL_MS } });
});
after(async () => {
  await be.close();
  await sb.close();
});

async function atChallenge() {
  const session = await createSession(be.url);
  const shopper = new Shopper(be.url, session.token);
  const method = await shopper.until(await shopper.pay(CHALLENGE));
  assert.equal(method.action, 'method');
  const challenge = await shopper.until(await shopper.methodResult('U'));
  assert.equal(challenge.action, 'challenge');
  assert.ok(challenge.action === 'challenge');
  const order = await be.store.orders.getByClientOrderId(session.orderId);
  assert.ok(order);
  const calls = async (operation: string) =>
    (await be.store.history.forOrder(order.id)).filter((h) => h.operation === operation).length;
  return { shopper, challenge, calls };
}

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  const value = await work;
  return { value, ms: Date.now() - start };
}

describe('a browser step open', () => {
  test('a resuming page gets the challenge at once, even with a long wait', async () => {
    const { shopper, challenge } = await atChallenge();
    const { value, ms } = await timed(shopper.next(20));
    assert.deepEqual(value, challenge);
    assert.ok(ms < 1_000, `answered after ${ms} ms`);
  });

  test('showing the challenge: the ACS times out, the answer is the gateway decline within seconds, asked slowly, nothing sent again', async () => {
    const { shopper, calls } = await atChallenge();
    const before = await calls('status');
    const { value, ms } = await timed(shopper.call('GET', '/next?wait=10&showing=challenge'));
    assert.equal(value.status, 200);
    const answer = value.body as NextAction;
    assert.deepEqual(
      [answer.action, answer.order.status, answer.order.errorCode],
      ['final', 'declined', '3DS-TIMEOUT'],
    );
    assert.ok(ms < ACS_TIMEOUT_MS + 3 * STEP_POLL_MS + 500, `answered after ${ms} ms`);
    const asked = (await calls('status')) - before;
    assert.ok(asked >= 1 && asked <= Math.ceil(ms / STEP_POLL_MS) + 1, `${asked} status calls`);
    // Only the method result was ever uploaded: no CRes, nothing resent.
    assert.equal(await calls('upload-cres-result'), 0);
    assert.equal(await calls('upload-method-url-result'), 1);
  });

  test('showing the challenge: the return message is lost, the long poll ends as the CRes reaches the return page', async () => {
    const { shopper, challenge } = await atChallenge();
    assert.ok(challenge.action === 'challenge');
    const poll = timed(shopper.call('GET', '/next?wait=10&showing=challenge'));
    // The ACS posts the CRes to our return page; its message to the widget is lost.
    await runChallenge(challenge.acsUrl, { creq: challenge.creq }, CHALLENGE.otp ?? '');
    const { value, ms } = await poll;
    const answer = value.body as NextAction;
    assert.notEqual(answer.action, 'challenge');
    assert.ok(ms < 3_000, `answered after ${ms} ms`);
    const last = await shopper.until(answer);
    assert.deepEqual([last.action, last.order.status], ['final', 'approved']);
  });

  test('showing the gateway page: the long poll holds, asking the gateway slowly, until the shopper is back', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const card = TEST_CARDS.find((c) => c.scenario === 'gateway-3ds-redirect')!;
    const page = await shopper.pay(card);
    assert.ok(page.action === 'redirect');
    const order = await be.store.orders.getByClientOrderId(session.orderId);
    assert.ok(order);
    const statusCalls = async () =>
      (await be.store.history.forOrder(order.id)).filter((h) => h.operation === 'status').length;
    const before = await statusCalls();
    const { value, ms } = await timed(shopper.call('GET', '/next?wait=2&showing=redirect'));
    assert.deepEqual(value.body, page);
    assert.ok(ms >= 1_900, `held ${ms} ms`);
    const asked = (await statusCalls()) - before;
    assert.ok(asked >= 1 && asked <= Math.ceil(ms / STEP_POLL_MS) + 1, `${asked} status calls`);
  });

  test('showing names a step: anything else is a 400 naming the field', async () => {
    const { shopper } = await atChallenge();
    const res = await shopper.call('GET', '/next?wait=1&showing=bogus');
    assert.equal(res.status, 400);
    assert.equal(res.body.error.field, 'showing');
  });
});
