/** The logger (logger.ts) censors card data and secrets in what it writes. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger } from '../../../server/src/checkout/logger.js';

/** A logger at `info` whose lines land in `lines`. */
function captureLogger() {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  });
  return { lines, logger };
}

describe('logger redaction', () => {
  it('censors card data and secrets at any depth, in messages and errors', () => {
    const { lines, logger } = captureLogger();
    logger.info(
      {
        body: { card: { number: '4111111111111111', cvc: '737' } },
        deep: { a: { cvv2: '737', note: 'pan 4111 1111 1111 1111' } },
        req: { headers: { authorization: 'Bearer sk_live_x' } },
      },
      'paying with 4111111111111111',
    );
    logger.error({ err: new Error('declined card 4111-1111-1111-1111') }, 'failed');
    logger.warn({ error: 'HTTP 503' }, 'plain value');
    // The places pino `redact` paths used to cover: the formatter alone must catch them.
    logger.info(
      {
        config: { merchantApiKey: 'mk_live_x', jwtSecret: 'jw_live_x' },
        req: { headers: { cookie: 'sid=ck_live_x' } },
        headers: { authorization: 'Bearer hd_live_x' },
        request: {
          credit_card_number: '5555555555554444',
          cvv2: '737',
          ref: 'card_4000000000000002',
        },
        short: 'a 12-digit card 500000000009',
        status: { 'card-exp-month': '12', 'card-exp-year': '2031' },
      },
      'paths',
    );
    // Without pino's millisecond timestamp: its 13 digits hold "737" or "2031" now and then.
    const text = lines.map((line) => line.replace(/"time":\d+,/, '')).join('');
    for (const secret of ['mk_live_x', 'jw_live_x', 'ck_live_x', 'hd_live_x', '5555555555554444']) {
      assert.ok(!text.includes(secret), secret);
    }
    assert.ok(!text.includes('4000000000000002'));
    assert.ok(!text.includes('4111111111111111'));
    assert.ok(!text.includes('4111 1111 1111 1111'));
    assert.ok(!text.includes('4111-1111-1111-1111'));
    assert.ok(!text.includes('737'));
    assert.ok(!text.includes('500000000009'));
    assert.ok(!text.includes('2031'));
    assert.ok(!text.includes('sk_live_x'));
    assert.ok(text.includes('HTTP 503'));
  });

  it('keeps an id that holds 12 dashed digits whole, and still censors a card number beside it', () => {
    const { lines, logger } = captureLogger();
    // 5533-4311-9065-9 is 13 digits in a row: once cut out, which order a line was about was lost.
    const id = 'd13479af-5533-4311-9065-9c77950a7b5e';
    logger.error({ orderId: id, note: `${id} paid with 4111 1111 1111 1111` }, `order ${id}`);
    const line = JSON.parse(lines.join(''));
    assert.equal(line.orderId, id);
    assert.equal(line.msg, `order ${id}`);
    assert.equal(line.note, `${id} paid with [redacted]`);
  });

  it("masks a shopper's contact and address by its key, as the gateway history masks a phone", () => {
    const { lines, logger } = captureLogger();
    logger.info(
      {
        customer: {
          email: 'jan.kowalski@example.de',
          phone: '+4915112345678',
          firstName: 'Jan',
          address1: 'Torstraße 1',
          city: 'Berlin',
          zipCode: '10119',
          country: 'DE',
        },
        request: { zip_code: '10119', first_name: 'Jan', cell_phone: '+44 20 7946 0958' },
      },
      'payment attempt sent',
    );
    const line = JSON.parse(lines.join(''));
    assert.deepEqual(line.customer, {
      email: 'j***@example.de',
      phone: '+491******5678',
      firstName: 'J***',
      address1: 'T***',
      city: 'B***',
      zipCode: '1***',
      country: 'DE',
    });
    assert.deepEqual(line.request, {
      zip_code: '1***',
      first_name: 'J***',
      cell_phone: '+44******0958',
    });
  });
});
