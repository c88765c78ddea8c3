/** Requests signed by an independent OAuth 1.0a implementation (oauth-1.0a) are accepted; tampered ones refused. */
import assert from 'node:assert/strict';
import { createHmac, createSign } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import OAuth from 'oauth-1.0a';
import { TEST_CARDS } from '../../../server/src/sandbox/index.js';
import { type Harness, orderId, postForm, startSandbox } from './helpers.js';

let h: Harness;
before(async () => {
  h = await startSandbox();
});
after(() => h.close());

function hmacOAuth() {
  return new OAuth({
    consumer: { key: h.login, secret: h.controlKey },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
}

function rsaOAuth() {
  return new OAuth({
    consumer: { key: h.login, secret: '' },
    signature_method: 'RSA-SHA256',
    hash_function: (base) => createSign('RSA-SHA256').update(base).sign(h.privateKeyPem, 'base64'),
  });
}

async function send(
  oauth: OAuth,
  path: string,
  data: Record<string, string>,
  opts: {
    repeatInBody?: boolean;
    tamper?: Record<string, string>;
    reuse?: OAuth.Authorization;
  } = {},
) {
  const url = `${h.base}${path}/${h.endpointId}`;
  const auth = opts.reuse ?? oauth.authorize({ url, method: 'POST', data });
  const header = oauth.toHeader(auth);
  const body: Record<string, string> = { ...data, ...opts.tamper };
  if (opts.repeatInBody) {
    for (const [k, v] of Object.entries(auth)) if (k !== 'oauth_signature') body[k] = String(v);
  }
  return { response: await postForm(url, body, { Authorization: header.Authorization }), auth };
}

const payout = () => ({
  client_orderid: orderId('po'),
  amount: '25.00',
  currency: 'EUR',
  credit_card_number: TEST_CARDS[0]!.pan,
  card_printed_name: 'Grace Hopper',
});

describe('HMAC-SHA1 (v2 payout)', () => {
  test('accepted, with and without the oauth_* values repeated in the body', async () => {
    for (const repeatInBody of [false, true]) {
      const { response } = await send(hmacOAuth(), '/api/v2/payout', payout(), { repeatInBody });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.equal(response.body.type, 'async-response');
      assert.ok(response.body['payout-id']);
    }
  });

  test('tampered body: 403', async () => {
    const { response } = await send(hmacOAuth(), '/api/v2/payout', payout(), {
      tamper: { amount: '2500.00' },
    });
    assert.equal(response.status, 403);
    assert.match(response.body['error-message']!, /oauth_signature/);
  });

  test('a replayed nonce: 403', async () => {
    const oauth = hmacOAuth();
    const data = payout();
    const first = await send(oauth, '/api/v2/payout', data);
    assert.equal(first.response.status, 200);
    const again = await send(oauth, '/api/v2/payout', data, { reuse: first.auth });
    assert.equal(again.response.status, 403);
    assert.match(again.response.body['error-message']!, /nonce/);
  });

  test('a stale timestamp, a wrong key, a missing header: 403', async () => {
    const oauth = hmacOAuth();
    const data = payout();
    const url = `${h.base}/api/v2/payout/${h.endpointId}`;
    const stale = oauth.authorize({ url, method: 'POST', data });
    stale.oauth_timestamp = Math.floor(Date.now() / 1000) - 301;
    stale.oauth_signature = oauth.getSignature({ url, method: 'POST', data }, '', stale);
    assert.equal(
      (await send(oauth, '/api/v2/payout', data, { reuse: stale })).response.status,
      403,
    );
    const wrong = new OAuth({
      consumer: { key: h.login, secret: 'not-the-key' },
      signature_method: 'HMAC-SHA1',
      hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
    });
    assert.equal((await send(wrong, '/api/v2/payout', payout())).response.status, 403);
    assert.equal((await postForm(url, payout())).status, 403);
  });

  test('an RSA signature where HMAC is required: 403', async () => {
    const { response } = await send(rsaOAuth(), '/api/v2/payout', payout());
    assert.equal(response.status, 403);
  });
});

describe('RSA-SHA256 (v4)', () => {
  const v4Payout = () => ({
    'client-order-id': orderId('v4'),
    amount: '12.00',
    currency: 'EUR',
    order_desc: 'Refund to bank',
    account_number: 'GB29NWBK60161331926819',
    bank_name: 'Example Bank',
  });

  test('v4 payout accepted: payout-id', async () => {
    const { response } = await send(rsaOAuth(), '/api/v4/payout', v4Payout());
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.match(response.body['payout-id']!, /^\d+$/);
  });

  test('tampered: 403; signed by HMAC: 403', async () => {
    assert.equal(
      (
        await send(rsaOAuth(), '/api/v4/payout', v4Payout(), {
          tamper: { bank_name: 'Mallory Bank' },
        })
      ).response.status,
      403,
    );
    assert.equal((await send(hmacOAuth(), '/api/v4/payout', v4Payout())).response.status, 403);
  });
});
