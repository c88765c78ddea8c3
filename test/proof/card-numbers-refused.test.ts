/**
 * What the merchant sends that is stored and sent on as it is (a session's description, its
 * return URL, a metadata key) never holds a card number: a 400 names the field and never echoes
 * the number, and nothing is stored. Text that is not well-formed (half a surrogate pair), which
 * the database refuses, is a 400 too, never a 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { merchant, type Pair, startPair } from './support/proof.js';

const PAN = '4111111111111111';

describe('card numbers and ill-formed text in what the merchant sends', () => {
  let pair: Pair;
  before(async () => {
    pair = await startPair();
  });
  after(async () => {
    await pair.close();
  });

  const attempt = async (overrides: Record<string, unknown>) => {
    const orderId = `cn-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const res = await merchant(pair.be.url, 'POST', '/v1/checkout-sessions', {
      amount: '10.00',
      currency: 'EUR',
      orderId,
      description: 'Two books',
      customer: {
        email: 'jo@example.com',
        address1: '1 Main St',
        city: 'London',
        zipCode: 'N1 9GU',
        country: 'GB',
        phone: '+441234567890',
      },
      ...overrides,
    });
    const stored = await pair.store.sessions.getByClientOrderId(orderId);
    return { res, stored, text: JSON.stringify(res.body) };
  };

  for (const [what, overrides, field] of [
    ['description', { description: `Card 4111 1111 1111 1111 please` }, 'description'],
    ['return URL', { returnUrl: `https://shop.example/thanks?card=${PAN}` }, 'returnUrl'],
    ['metadata key', { metadata: { [PAN]: 'x' } }, 'metadata.(a key)'],
    ['unknown key', { [PAN]: 'x' }, 'body'],
  ] as const) {
    it(`a card number in a ${what}: 400 naming ${field}, not echoed, nothing stored`, async () => {
      const { res, stored, text } = await attempt(overrides);
      assert.equal(res.status, 400, text);
      assert.equal(res.body.error.field, field);
      assert.ok(!text.includes(PAN) && !text.includes('4111 1111'), text);
      assert.equal(stored, null);
    });
  }

  it('a metadata value or customer field with half a surrogate pair: 400 naming it, not a 500', async () => {
    for (const [overrides, field] of [
      [{ metadata: { cart: 'a\ud800b' } }, 'metadata.cart'],
      [
        {
          customer: {
            email: 'jo@example.com',
            address1: '1 Main St',
            city: 'Lon\udc00don',
            zipCode: 'N1 9GU',
            country: 'GB',
            phone: '+441234567890',
          },
        },
        'customer.city',
      ],
    ] as const) {
      const { res, stored } = await attempt(overrides);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.field, field);
      assert.match(res.body.error.message, /well-formed text/);
      assert.equal(stored, null);
    }
  });

  it('ordinary text with digits, a timestamp in a URL and whole emoji passes', async () => {
    const { res } = await attempt({
      description: 'Order 2024-11-25, 3 × 🐈 socks',
      metadata: { ref: '12345' },
      // Luhn-valid, 13 digits: a millisecond timestamp, which no card brand starts with.
      returnUrl: 'https://shop.example/thanks/1795647359532',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  });
});
