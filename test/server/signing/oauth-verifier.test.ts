import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  createOAuthSigner,
  loadRsaPublicKey,
  type OAuthVerifyInput,
  type Param,
  verifyOAuthRequest,
} from '../../../server/src/signing/index.js';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const NOW = 1_700_000_000;
const URL_V2 = 'http://127.0.0.1:4000/paynet/api/v2/payout/1111';
const URL_V4 = 'http://127.0.0.1:4000/paynet/api/v4/payout/1111';
const publicKey = loadRsaPublicKey(fixture('test-rsa-2048.pub.pem'));
const lookup = (login: string) =>
  login === 'merchant' ? { controlKey: 'control-key', publicKey } : undefined;

const hmac = createOAuthSigner({
  method: 'HMAC-SHA1',
  consumerKey: 'merchant',
  controlKey: 'control-key',
  clock: () => NOW,
  nonce: () => 'n-1',
});
const rsa = createOAuthSigner({
  method: 'RSA-SHA256',
  consumerKey: 'merchant',
  privateKeyPem: fixture('test-rsa-2048.pkcs1.pem'),
  clock: () => NOW,
  nonce: () => 'n-2',
});

const params: Param[] = [
  ['client-order-id', 'inv-1'],
  ['amount', '10.42'],
  ['note', "spaces & symbols !'()* é"],
];

function hmacRequest(): OAuthVerifyInput {
  const signed = hmac.sign({ url: URL_V2, params });
  return { method: 'POST', url: URL_V2, authorization: signed.authorization, body: signed.body };
}

function rsaRequest(): OAuthVerifyInput {
  const signed = rsa.sign({ url: URL_V4, params });
  return { method: 'POST', url: URL_V4, authorization: signed.authorization, body: signed.body };
}

const verify = (input: OAuthVerifyInput, method: 'HMAC-SHA1' | 'RSA-SHA256', now = NOW) =>
  verifyOAuthRequest(input, { expectedMethod: method, lookup, now });

describe('verifyOAuthRequest', () => {
  test('accepts what the signer produced, both methods', () => {
    assert.deepEqual(verify(hmacRequest(), 'HMAC-SHA1'), {
      ok: true,
      consumerKey: 'merchant',
      nonce: 'n-1',
      timestamp: NOW,
    });
    assert.deepEqual(verify(rsaRequest(), 'RSA-SHA256'), {
      ok: true,
      consumerKey: 'merchant',
      nonce: 'n-2',
      timestamp: NOW,
    });
  });

  test('accepts HMAC with oauth_* in the header only', () => {
    const input = hmacRequest();
    const body = input.body.filter(([name]) => !name.startsWith('oauth_'));
    assert.equal(verify({ ...input, body }, 'HMAC-SHA1').ok, true);
  });

  const refusals: [string, () => OAuthVerifyInput, 'HMAC-SHA1' | 'RSA-SHA256', string, number?][] =
    [
      [
        'no header',
        () => ({ ...hmacRequest(), authorization: undefined }),
        'HMAC-SHA1',
        'missing-header',
      ],
      [
        'another scheme',
        () => ({ ...hmacRequest(), authorization: 'Bearer x' }),
        'HMAC-SHA1',
        'malformed-header',
      ],
      [
        'a tampered amount',
        () => {
          const input = hmacRequest();
          return {
            ...input,
            body: input.body.map(([n, v]): Param => [n, n === 'amount' ? '99.00' : v]),
          };
        },
        'HMAC-SHA1',
        'bad-signature',
      ],
      [
        'an added body field',
        () => {
          const input = rsaRequest();
          return { ...input, body: [...input.body, ['extra', '1']] };
        },
        'RSA-SHA256',
        'bad-signature',
      ],
      [
        'another URL',
        () => ({ ...rsaRequest(), url: URL_V4.replace('1111', '2222') }),
        'RSA-SHA256',
        'bad-signature',
      ],
      [
        'the wrong method for the operation',
        () => hmacRequest(),
        'RSA-SHA256',
        'wrong-signature-method',
      ],
      ['a timestamp 301 s old', () => hmacRequest(), 'HMAC-SHA1', 'stale-timestamp', NOW + 301],
      ['a timestamp 301 s ahead', () => hmacRequest(), 'HMAC-SHA1', 'stale-timestamp', NOW - 301],
      [
        'an unknown login',
        () => {
          const input = hmacRequest();
          return {
            ...input,
            authorization: input.authorization?.replace('"merchant"', '"nobody"'),
          };
        },
        'HMAC-SHA1',
        'unknown-consumer',
      ],
      [
        'a body oauth_nonce that differs from the header',
        () => {
          const input = hmacRequest();
          return {
            ...input,
            body: input.body.map(([n, v]): Param => [n, n === 'oauth_nonce' ? 'other' : v]),
          };
        },
        'HMAC-SHA1',
        'body-mismatch',
      ],
      [
        'a missing oauth_timestamp',
        () => {
          const input = rsaRequest();
          return {
            ...input,
            authorization: input.authorization?.replace(/oauth_timestamp="\d+", /, ''),
          };
        },
        'RSA-SHA256',
        'missing-parameter',
      ],
    ];
  for (const [name, make, method, reason, now] of refusals) {
    test(`refuses ${name} with ${reason}`, () => {
      const result = verify(make(), method, now);
      assert.equal(result.ok, false);
      assert.equal(result.ok ? '' : result.reason, reason);
    });
  }

  test('a timestamp exactly 300 s away is still accepted', () => {
    assert.equal(verify(hmacRequest(), 'HMAC-SHA1', NOW + 300).ok, true);
  });
});
