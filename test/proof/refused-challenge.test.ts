/**
 * A CRes the gateway refuses (here: an ACS, or anyone holding the return page's address, posts a
 * CRes the gateway does not recognise). A real ACS refuses a second CReq, so the backend must never
 * put the same challenge back for the widget to post again: the order waits, and the gateway's
 * status decides where it goes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createSession,
  historyCount,
  type Pair,
  postForm,
  returnMessage,
  Shopper,
  startPair,
  waitFor,
} from './support/proof.js';

describe('a refused challenge result', () => {
  let pair: Pair;
  before(async () => {
    pair = await startPair();
  });
  after(async () => {
    await pair.close();
  });

  it('never shows the used CReq again; the order follows the gateway status', async () => {
    const session = await createSession(pair.be.url);
    const shopper = new Shopper(pair.be.url, session.token);
    const method = await shopper.until(await shopper.pay({ pan: '4000000000000051' }));
    assert.equal(method.action, 'method');
    const challenge = await shopper.until(await shopper.methodResult('U'));
    assert.equal(challenge.action, 'challenge');
    const order = await pair.store.orders.getByClientOrderId(session.orderId);
    assert.ok(order);

    const fake = Buffer.from(JSON.stringify({ messageType: 'CRes', transStatus: 'Y' })).toString(
      'base64url',
    );
    const page = await postForm(`${pair.be.url}/return/${order.returnRef}`, { cres: fake });
    assert.equal(page.status, 200);
    assert.equal(returnMessage(page.html).message.type, 'challenge-complete');
    assert.match(page.html, /not accepted/);
    assert.equal(await historyCount(pair.be, order.id, 'upload-cres-result'), 1);

    // The widget follows the order: never the same challenge again, and the backend keeps asking
    // the gateway (the sandbox still waits for a CRes, so the status says processing).
    const statusBefore = await historyCount(pair.be, order.id, 'status');
    for (let i = 0; i < 3; i++) {
      const next = await shopper.next(1);
      assert.equal(next.action, 'wait', JSON.stringify(next));
      assert.equal(next.order.status, 'processing');
    }
    await waitFor('a status request after the refusal', async () =>
      (await historyCount(pair.be, order.id, 'status')) > statusBefore ? true : undefined,
    );
    // The same post again is a replay: nothing is uploaded twice.
    const again = await postForm(`${pair.be.url}/return/${order.returnRef}`, { cres: fake });
    assert.match(again.html, /already received/);
    assert.equal(await historyCount(pair.be, order.id, 'upload-cres-result'), 1);
  });
});
