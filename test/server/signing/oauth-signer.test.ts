import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  createOAuthSigner,
  hmacSha1Signature,
  SigningError,
  signatureBaseString,
} from '../../../server/src/signing/index.js';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const URL_PAYOUT = 'http://127.0.0.1:4000/paynet/api/v2/payout/1111';
const fixed = { clock: () => 1513785920, nonce: () => 'EqINVv5rkhx' };

describe('createOAuthSigner', () => {
  test('HMAC-SHA1: exact header, oauth_* repeated in the body, signature over both', () => {
    const signer = createOAuthSigner({
      method: 'HMAC-SHA1',
      consumerKey: 'merchantlogin',
      controlKey: 'F9F65098-1111-1111-1111-621611111111',
      ...fixed,
    });
    const signed = signer.sign({
      url: URL_PAYOUT,
      params: [
        ['client_orderid', 'inv 1'],
        ['amount', '10.42'],
      ],
    });
    const oauth: [string, string][] = [
      ['oauth_consumer_key', 'merchantlogin'],
      ['oauth_nonce', 'EqINVv5rkhx'],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_timestamp', '1513785920'],
      ['oauth_version', '1.0'],
    ];
    const base = signatureBaseString('POST', URL_PAYOUT, [
      ['amount', '10.42'],
      ['client_orderid', 'inv 1'],
      ...oauth,
    ]);
    assert.equal(signed.baseString, base);
    const signature = hmacSha1Signature(base, 'F9F65098-1111-1111-1111-621611111111');
    assert.equal(
      signed.authorization,
      `OAuth oauth_consumer_key="merchantlogin", oauth_nonce="EqINVv5rkhx", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1513785920", oauth_version="1.0", oauth_signature="${encodeURIComponent(signature)}"`,
    );
    assert.deepEqual(signed.body, [['client_orderid', 'inv 1'], ['amount', '10.42'], ...oauth]);
    assert.ok(!signed.body.some(([name]) => name === 'oauth_signature'));
  });

  test('RSA-SHA256: oauth_* only in the header, deterministic signature', () => {
    const signer = createOAuthSigner({
      method: 'RSA-SHA256',
      consumerKey: 'merchant',
      privateKeyPem: fixture('test-rsa-2048.pkcs8.pem'),
      clock: () => 1700000000,
      nonce: () => 'fixed-nonce',
    });
    const signed = signer.sign({
      url: 'http://127.0.0.1:4000/paynet/api/v4/payout/1111',
      params: [
        ['client-order-id', 'inv-1'],
        ['amount', '10.42'],
        ['currency', 'EUR'],
      ],
    });
    assert.deepEqual(signed.body, [
      ['client-order-id', 'inv-1'],
      ['amount', '10.42'],
      ['currency', 'EUR'],
    ]);
    // Same vector as oauth-methods.test.ts, percent-encoded once more in the header.
    assert.ok(
      signed.authorization.endsWith(
        'oauth_signature="YGaHq7TJgjw9V6f1CkoYK6WSLuRigTuT2s6It3SX0vS4aIo%2BbkYvPKtStp8FDSVl3OMZnMCFKnxcH9QTd699aIWNNnGiMLPWIvZY%2BABpxg%2F4ltOEwxtp8MQzq62xFFVulg8Jr7gLXfNY11BkxmZEQdFD4RiODosoMZSqLWKwI7BcRiDZ9AZzlSF7l3qmKWvIGddEkjE30WgKHKIEbfMQEF8lmylPL95kx353Qd%2BM0SH7aPHisvw8sEuoFoW6I7QFk7gnNNtRlnVePZTHS9xiI16n%2Fh88cjwPnNM99kQ5jB0AgmeIpJO8a8iwMnkDoa%2Fu%2BTcJMDcHBFQ%2BptcafpdYEw%3D%3D"',
      ),
    );
    assert.ok(signed.authorization.includes('oauth_signature_method="RSA-SHA256"'));
  });

  test('default nonces are random and unique; default clock is now', () => {
    const signer = createOAuthSigner({ method: 'HMAC-SHA1', consumerKey: 'm', controlKey: 'k' });
    const nonces = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { body } = signer.sign({ url: URL_PAYOUT, params: [] });
      nonces.add(Object.fromEntries(body).oauth_nonce ?? '');
      const ts = Number(Object.fromEntries(body).oauth_timestamp);
      assert.ok(Math.abs(ts - Date.now() / 1000) < 5);
    }
    assert.equal(nonces.size, 200);
    for (const nonce of nonces) assert.match(nonce, /^[A-Za-z0-9_-]{24}$/);
  });

  test('credentials are checked when the signer is built', () => {
    const refuses = (config: Parameters<typeof createOAuthSigner>[0], code: string) =>
      assert.throws(
        () => createOAuthSigner(config),
        (e: unknown) => e instanceof SigningError && e.code === code,
      );
    refuses({ method: 'HMAC-SHA1', consumerKey: '', controlKey: 'k' }, 'invalid-credentials');
    refuses({ method: 'HMAC-SHA1', consumerKey: 'm', controlKey: '' }, 'invalid-credentials');
    refuses(
      { method: 'RSA-SHA256', consumerKey: 'm', privateKeyPem: fixture('test-rsa-1024.pem') },
      'weak-private-key',
    );
    refuses({ method: 'RSA-SHA256', consumerKey: 'm', privateKeyPem: 'x' }, 'invalid-private-key');
  });
});
