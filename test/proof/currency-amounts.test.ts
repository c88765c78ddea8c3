/**
 * Amounts the currency cannot hold (more decimals than it has, or nothing at all) are 400s naming
 * `amount`, on captures, returns and new sessions alike; attacked by hand against the in-process
 * stack (sandbox and backend on loopback HTTP), each case asserting that nothing changed: the
 * order, its operations, the stored rows and the sandbox's transactions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CUSTOMER, uniqueOrderId } from './support/proof.js';
import { usePair } from './support/use-pair.js';

const { api, paidOrder, everything } = usePair();

describe('amounts the currency cannot hold', () => {
  // One scenario, the currency and its refused amount changed: a paid preauth and a paid sale,
  // a capture and a return of an amount with more decimals than the currency has.
  for (const c of [
    {
      name: 'capture 1.234 on a EUR preauth and return 1.234 on a EUR sale: 400 naming amount',
      paid: '10.00',
      currency: 'EUR',
      refused: '1.234',
      message: 'amount: amount "1.234" has 3 decimals; EUR has 2',
      /** An amount that fits, which still works on the same preauth afterwards. */
      fits: undefined,
    },
    {
      name: 'capture and return 1.5 on JPY orders: 400 naming amount, nothing moves',
      paid: '500',
      currency: 'JPY',
      refused: '1.5',
      message: 'amount: amount "1.5" has 1 decimals; JPY has 0',
      fits: '200',
    },
  ]) {
    it(c.name, async () => {
      const preauth = await paidOrder('preauth', c.paid, c.currency);
      const sale = await paidOrder('sale', c.paid, c.currency);
      const before = await everything();
      for (const [orderId, kind] of [
        [preauth, 'capture'],
        [sale, 'return'],
      ] as const) {
        const res = await api('POST', `/v1/orders/${orderId}/${kind}`, { amount: c.refused });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.code, 'validation');
        assert.equal(res.body.error.field, 'amount');
        assert.equal(res.body.error.message, c.message);
      }
      assert.deepEqual(await everything(), before);
      if (c.fits === undefined) return;
      const ok = await api('POST', `/v1/orders/${preauth}/capture`, { amount: c.fits });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.order.capturedAmount, c.fits);
    });
  }

  it('capture 1.234 on a KWD preauth (not whole cents, so no control can sign it): 400 naming amount', async () => {
    const preauth = await paidOrder('preauth', '2.000', 'KWD');
    const before = await everything();
    const res = await api('POST', `/v1/orders/${preauth}/capture`, { amount: '1.234' });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.field, 'amount');
    assert.match(res.body.error.message, /^amount: /);
    assert.deepEqual(await everything(), before);
    const ok = await api('POST', `/v1/orders/${preauth}/capture`, { amount: '1.230' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.order.capturedAmount, '1.230');
  });

  it('a checkout session of 0 or 0.00 is refused with 400 naming amount', async () => {
    const before = await everything();
    for (const amount of ['0', '0.00', '00.0']) {
      const res = await api('POST', '/v1/checkout-sessions', {
        amount,
        currency: 'EUR',
        orderId: uniqueOrderId(),
        description: 'Nothing to pay',
        customer: CUSTOMER,
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.field, 'amount');
      assert.equal(res.body.error.message, 'amount: must be more than zero');
    }
    assert.deepEqual(await everything(), before);
  });
});
