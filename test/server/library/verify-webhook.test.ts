/**
 * verifyWebhook from `pay-checkout/server`: known answers computed here with node:crypto from the
 * documented scheme (HMAC-SHA256 over `${t}.${body}`), and what the backend itself signs.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { signWebhook } from '../../../server/src/checkout/webhooks/webhook-signature.js';
import { SIGNATURE_HEADER, verifyWebhook } from '../../../server/src/index.js';

const SECRET = 'whsec-0123456789abcdef';
const T = 1_700_000_000;
const BODY = '{"id":"evt_1","type":"order.approved","data":{"order":{"orderId":"ord-1"}}}';

/** The documented scheme, by hand: `t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`. */
function header(body: string | Buffer, t: number, secret = SECRET): string {
  const mac = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), Buffer.from(body)]))
    .digest('hex');
  return `t=${t},v1=${mac}`;
}

const at = (nowSeconds: number, toleranceSeconds?: number) => ({
  nowSeconds,
  ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
});

describe('verifyWebhook', () => {
  it('the header name, and what the backend signs is the documented scheme byte for byte', () => {
    assert.equal(SIGNATURE_HEADER, 'Pay-Checkout-Signature');
    assert.equal(signWebhook(SECRET, BODY, T), header(BODY, T));
    // A fixed vector too, so the scheme cannot drift along with the helper above.
    assert.equal(
      header('{"a":1}', 1_700_000_000, 's3cret-s3cret-s3cret'),
      `t=1700000000,v1=${createHmac('sha256', 's3cret-s3cret-s3cret').update('1700000000.{"a":1}').digest('hex')}`,
    );
  });

  it('accepts the exact body as a string or as the raw bytes', () => {
    assert.equal(verifyWebhook(BODY, header(BODY, T), SECRET, at(T)), true);
    assert.equal(verifyWebhook(Buffer.from(BODY), header(BODY, T), SECRET, at(T)), true);
    assert.equal(
      verifyWebhook(new Uint8Array(Buffer.from(BODY)), header(BODY, T), SECRET, at(T)),
      true,
    );
  });

  it('checks the bytes, not a decoding of them: two invalid UTF-8 bodies are not the same body', () => {
    const signed = Buffer.from([0x7b, 0xff, 0x7d]);
    const other = Buffer.from([0x7b, 0xfe, 0x7d]); // decodes to the same "{\uFFFD}"
    assert.equal(signed.toString('utf8'), other.toString('utf8'));
    assert.equal(verifyWebhook(signed, header(signed, T), SECRET, at(T)), true);
    assert.equal(verifyWebhook(other, header(signed, T), SECRET, at(T)), false);
  });

  it('refuses an altered body, another secret, or an altered signature', () => {
    const good = header(BODY, T);
    assert.equal(verifyWebhook(BODY.replace('ord-1', 'ord-2'), good, SECRET, at(T)), false);
    assert.equal(verifyWebhook(`${BODY} `, good, SECRET, at(T)), false);
    assert.equal(verifyWebhook(BODY, good, 'whsec-another-secret-000', at(T)), false);
    const flipped = good.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    assert.equal(verifyWebhook(BODY, flipped, SECRET, at(T)), false);
    assert.equal(verifyWebhook(BODY, good.toUpperCase(), SECRET, at(T)), false);
  });

  it('refuses timestamps outside the tolerance (300 s by default), either way', () => {
    const good = header(BODY, T);
    assert.equal(verifyWebhook(BODY, good, SECRET, at(T + 300)), true);
    assert.equal(verifyWebhook(BODY, good, SECRET, at(T + 301)), false);
    assert.equal(verifyWebhook(BODY, good, SECRET, at(T - 301)), false);
    assert.equal(verifyWebhook(BODY, good, SECRET, at(T + 60, 30)), false);
    assert.equal(verifyWebhook(BODY, good, SECRET, at(T + 30, 30)), true);
    // Moving the timestamp to now breaks the signature: the time is inside the signed string.
    const replayed = good.replace(`t=${T}`, `t=${T + 3600}`);
    assert.equal(verifyWebhook(BODY, replayed, SECRET, at(T + 3600)), false);
  });

  it('uses the clock when no time is given', () => {
    const now = Math.floor(Date.now() / 1000);
    assert.equal(verifyWebhook(BODY, header(BODY, now), SECRET), true);
    assert.equal(verifyWebhook(BODY, header(BODY, now - 600), SECRET), false);
  });

  it('refuses a missing or malformed header', () => {
    for (const bad of [undefined, null, '', 'v1=abc', `t=${T}`, `t=soon,v1=abc`, 'garbage']) {
      assert.equal(verifyWebhook(BODY, bad, SECRET, at(T)), false, String(bad));
    }
  });
});
