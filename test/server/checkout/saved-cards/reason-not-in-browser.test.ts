/**
 * A card reference id never reaches the browser, nor the backend's log lines. When the gateway
 * refuses a saved-card charge its message may name the reference (the sandbox's does: "cardrefid:
 * <id> is not a card reference of this endpoint"): the widget's answers (the /widget/pay answer,
 * /widget/next, the session read) show the attempt without that text, so the element's
 * `pay-declined` (built from the order view's `reason` and `errorCode`) cannot carry it, while the
 * merchant API's order keeps the gateway's reason. Log lines name the order, or the reference's
 * keyed tag (docs/security.md), never its id.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  type Backend,
  JWT_SECRET,
  type Sandbox,
  startBackend,
  withSandboxAndBackend,
} from '../../../support/loopback-stack.js';
import { createSession, merchant, Shopper, savedCard } from '../../../support/widget-api-client.js';

describe('a card reference id is not shown to the browser or written to the logs', () => {
  let sb: Sandbox;
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ sb, be } = started);
  });

  /** The gateway no longer takes `ref` from this endpoint: it refuses it by name. */
  async function moveToAnotherEndpoint(ref: string): Promise<void> {
    await sb.sandbox.store.db.query(
      `update sandbox_card_refs set endpoint_id = 'other',
              data = jsonb_set(data, '{endpointId}', '"other"') where id = $1`,
      [ref],
    );
  }

  const names = (value: unknown, ref: string) => JSON.stringify(value).includes(ref);

  it('a refused saved-card charge: the widget answers show no gateway text naming it; the merchant API keeps it', async () => {
    const { ref } = await savedCard(be);
    const session = await createSession(be.url, { savedCards: [ref] });
    const shopper = new Shopper(be.url, session.token);
    const read = await shopper.call('GET', '/session'); // get-card-info answered: remembered
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.ok(!names(read.body, ref), 'the offered card is a handle');
    const handle = read.body.savedCards[0].handle as string;
    await moveToAnotherEndpoint(ref);

    const paid = await shopper.call('POST', '/pay', shopper.savedCardBody(handle, '123'));
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.action, 'final');
    assert.equal(paid.body.order.status, 'error');
    assert.ok(!names(paid.body, ref), `the /widget/pay answer: ${JSON.stringify(paid.body)}`);
    // What the element's pay-declined carries: no gateway text, the code that picks its message.
    assert.equal(paid.body.order.reason, undefined);
    assert.equal(paid.body.order.errorCode, 'unknown-card-ref');
    // The refusal's log line: the gateway's code and words, the reference in them by its tag.
    const tag = `ref-${createHmac('sha256', JWT_SECRET).update(`card-ref-log:${ref}`).digest('hex').slice(0, 12)}`;
    const failed = be.logs.filter((line) => line.includes('"payment request failed"'));
    assert.ok(failed.length > 0, be.logs.join('\n'));
    for (const line of failed) {
      assert.ok(!line.includes(ref), line);
      assert.ok(line.includes(`cardrefid: ${tag} is not a card reference`), line);
      assert.ok(line.includes('error-code unknown-card-ref'), line);
    }

    const next = await shopper.call('GET', '/next?wait=0');
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.order.attemptId, paid.body.order.attemptId);
    assert.ok(!names(next.body, ref), `/widget/next: ${JSON.stringify(next.body)}`);
    assert.equal(next.body.order.reason, undefined);

    const after = await shopper.call('GET', '/session');
    assert.equal(after.status, 200, JSON.stringify(after.body));
    assert.equal(after.body.order.attemptId, paid.body.order.attemptId);
    assert.ok(!names(after.body, ref), `the session read: ${JSON.stringify(after.body)}`);
    assert.equal(after.body.order.reason, undefined);

    // The merchant's view: the gateway's words as it sent them, on the order and its attempt.
    const order = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.equal(order.status, 200, JSON.stringify(order.body));
    assert.match(order.body.reason, /is not a card reference of this endpoint/);
    assert.ok(order.body.reason.includes(ref));
    assert.equal(order.body.errorCode, 'unknown-card-ref');
    assert.equal(order.body.attempts[0].reason, order.body.reason);
    assert.equal(order.body.attempts[0].paidWithCardRef, ref);
  });

  it('log lines name the order, or the reference by its keyed tag, never its id', async () => {
    const { ref, orderRowId } = await savedCard(be);
    const tag = `ref-${createHmac('sha256', JWT_SECRET).update(`card-ref-log:${ref}`).digest('hex').slice(0, 12)}`;
    const kept = be.logs.filter((line) => line.includes('"card reference kept"'));
    const ofThisOrder = kept.filter((line) => line.includes(orderRowId));
    assert.equal(ofThisOrder.length, 1, kept.join('\n'));
    assert.ok(!ofThisOrder[0]?.includes(ref), ofThisOrder[0]);

    // Another instance (nothing remembered) whose get-card-info the gateway refuses by name.
    await moveToAnotherEndpoint(ref);
    const other = await startBackend(sb, { store: be.store });
    try {
      const session = await createSession(other.url, { savedCards: [ref] });
      const shopper = new Shopper(other.url, session.token);
      const read = await shopper.call('GET', '/session');
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.ok(!names(read.body, ref), `the session read: ${JSON.stringify(read.body)}`);
      const [offer] = await be.store.sessionCards.offered(session.id);
      assert.ok(offer);
      const paid = await shopper.call('POST', '/pay', shopper.savedCardBody(offer.handle, '123'));
      assert.equal(paid.status, 502, JSON.stringify(paid.body));
      assert.ok(!names(paid.body, ref), `the /widget/pay error: ${JSON.stringify(paid.body)}`);

      const failed = other.logs.filter((line) => line.includes('get-card-info failed'));
      assert.ok(failed.length > 0, other.logs.join('\n'));
      for (const line of failed) {
        assert.ok(!line.includes(ref), line);
        assert.ok(line.includes(`"cardRef":"${tag}"`), line);
        // The gateway's message is there, the id in it replaced by the tag.
        assert.ok(line.includes(`cardrefid: ${tag} is not a card reference`), line);
      }
    } finally {
      await other.close();
    }
  });
});
