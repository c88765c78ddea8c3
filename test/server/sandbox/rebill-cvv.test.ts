/**
 * make-rebill with the shopper present: `cvv2` is checked by the sandbox's CVV rules (123 and
 * 1234 approve, 116 is insufficient funds, 321 a challenge with code `hint`, anything else a
 * decline), and only then does the card reference decide, where the test card
 * `saved-card-challenge` asks for a 3DS 2 challenge. Without `cvv2` the cardholder is absent: the
 * reference's own scenario, never 3-D Secure. 3DS needs `redirect_url`: without it, none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEST_CARDS } from '../../../server/src/sandbox/index.js';
import {
  BROWSER,
  type Harness,
  orderId,
  REDIRECT,
  saleRequest,
  startSandbox,
  waitForStatus,
} from './helpers.js';

let h: Harness;
before(async () => {
  h = await startSandbox();
});
after(async () => {
  await h.close();
});

const pan = (scenario: string) => TEST_CARDS.find((c) => c.scenario === scenario)!.pan;
/** A Luhn-valid card outside the test-card table: its sale follows the CVV rules. */
const OTHER_CARD = '4111111111111111';

/** The card reference of an approved sale of `number`. */
async function cardRefOf(number: string): Promise<string> {
  const request = saleRequest(number);
  const ack = await h.client.sale(request);
  const sale = await waitForStatus(h, request.client_orderid, ack.orderId!);
  assert.equal(sale.status, 'approved');
  const ref = await h.client.createCardRef({
    client_orderid: request.client_orderid,
    orderid: ack.orderId!,
  });
  assert.ok(ref.cardRefId);
  return ref.cardRefId;
}

/** A rebill of `cardrefid`; the status once final, or once the shopper's browser is asked for. */
async function rebill(cardrefid: string, extra: Record<string, string> = {}) {
  const request = {
    client_orderid: orderId('rebill'),
    cardrefid,
    amount: '4.20',
    currency: 'EUR',
    order_desc: 'Saved card',
    ipaddress: '203.0.113.7',
    ...extra,
  };
  const ack = await h.client.makeRebill(request);
  const status = await waitForStatus(
    h,
    request.client_orderid,
    ack.orderId!,
    (r) => r.status !== 'processing' || r.raw['three-ds-server-trans-id'] !== undefined,
  );
  return { request, orderid: ack.orderId!, status };
}

describe('make-rebill with the shopper present', () => {
  test('cvv2 by the CVV rules: 123 and 1234 approve, 116 and a wrong code decline, 217 stays unknown', async () => {
    const ref = await cardRefOf(OTHER_CARD);
    const outcomes: Record<string, [string, string | undefined]> = {};
    for (const cvv2 of ['123', '1234', '116', '999', '217']) {
      const { status } = await rebill(ref, { cvv2, redirect_url: REDIRECT });
      outcomes[cvv2] = [status.status, status.errorCode];
    }
    assert.deepEqual(outcomes, {
      '123': ['approved', undefined],
      '1234': ['approved', undefined],
      '116': ['declined', '51'],
      '999': ['declined', '05'],
      '217': ['unknown', undefined],
    });
  });

  test('a test card ignores its code in a sale, but not in a rebill: a wrong code declines', async () => {
    const ref = await cardRefOf(pan('approved'));
    assert.equal(
      (await rebill(ref, { cvv2: '123', redirect_url: REDIRECT })).status.status,
      'approved',
    );
    const wrong = await rebill(ref, { cvv2: '000', redirect_url: REDIRECT });
    assert.deepEqual([wrong.status.status, wrong.status.errorCode], ['declined', '05']);
  });

  test('saved-card-challenge: its sale needs no 3DS, its rebill with cvv2 asks for a challenge (no method URL)', async () => {
    const ref = await cardRefOf(pan('saved-card-challenge'));
    const { request, orderid, status } = await rebill(ref, { cvv2: '123', redirect_url: REDIRECT });
    assert.equal(status.status, 'processing');
    assert.equal(status.raw['transaction-type'], 'rebill');
    assert.equal(status.raw['three-ds-method-url'], undefined);
    await h.client.uploadMethodUrlResult({
      orderid,
      'client-order-id': request.client_orderid,
      threeDSServerTransID: status.raw['three-ds-server-trans-id']!,
      ...BROWSER,
      threeDSCompInd: 'U',
    });
    const challenge = await waitForStatus(h, request.client_orderid, orderid, (r) =>
      Boolean(r.raw['acs-url']),
    );
    assert.equal(challenge.status, 'processing');
    assert.ok(challenge.raw.creq);
  });

  test('cvv2 321 asks for a challenge whatever the card', async () => {
    const ref = await cardRefOf(OTHER_CARD);
    const { status } = await rebill(ref, { cvv2: '321', redirect_url: REDIRECT });
    assert.equal(status.status, 'processing');
    assert.ok(status.raw['three-ds-server-trans-id']);
  });

  test('without cvv2 (cardholder absent), or without redirect_url, no 3-D Secure', async () => {
    const ref = await cardRefOf(pan('saved-card-challenge'));
    assert.equal((await rebill(ref)).status.status, 'approved');
    assert.equal((await rebill(ref, { cvv2: '123' })).status.status, 'approved');
    const other = await cardRefOf(OTHER_CARD);
    assert.equal((await rebill(other, { cvv2: '321' })).status.status, 'approved');
  });

  test('a reference of a card whose sale asked for a challenge is charged without one', async () => {
    const ref = await cardRefOfScenario('3ds2-challenge');
    const { status } = await rebill(ref, { cvv2: '123', redirect_url: REDIRECT });
    assert.equal(status.status, 'approved');
  });
});

/**
 * A card reference whose scenario is `scenario`, as one made from a sale of that test card once
 * its shopper passed 3-D Secure (set in the sandbox's store: no browser here).
 */
async function cardRefOfScenario(scenario: string): Promise<string> {
  const ref = await cardRefOf(OTHER_CARD);
  await h.sandbox.store.db.query(
    `update sandbox_card_refs set data = jsonb_set(data, '{scenario}', to_jsonb($2::text))
      where id = $1`,
    [ref, scenario],
  );
  return ref;
}
