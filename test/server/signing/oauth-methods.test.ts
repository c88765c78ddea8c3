import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  hmacSha1Signature,
  loadRsaPrivateKey,
  loadRsaPublicKey,
  type Param,
  rsaSha256Signature,
  SigningError,
  signatureBaseString,
  verifyHmacSha1,
  verifyRsaSha256,
} from '../../../server/src/signing/index.js';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const oauth = (fields: Record<string, string>): Param[] => Object.entries(fields);

describe('HMAC-SHA1 known answers (docs/gateway.md#known-answer-vectors)', () => {
  test('RFC 5849 3.4.1.1 with the erratum 2550 value', () => {
    const base = signatureBaseString(
      'POST',
      'http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b',
      oauth({
        c2: '',
        a3: '2 q',
        oauth_consumer_key: '9djdj82h48djs9d2',
        oauth_token: 'kkk9d7dh3k39sjv7',
        oauth_signature_method: 'HMAC-SHA1',
        oauth_timestamp: '137131201',
        oauth_nonce: '7d8f3e4a',
      }),
    );
    const signature = hmacSha1Signature(base, 'j49sk3j29djd', 'dh893hdasih9');
    assert.equal(signature, 'r6/TJjbCOr97/+UU0NsvSne7s5g=');
    assert.notEqual(signature, 'bYT5CMsGcbgUdFHObYMEfcx6bsw='); // the RFC's misprint
  });

  test('RFC 5849 1.2 photos request', () => {
    const base = signatureBaseString(
      'GET',
      'http://photos.example.net/photos?file=vacation.jpg&size=original',
      oauth({
        oauth_consumer_key: 'dpf43f3p2l4k3l03',
        oauth_token: 'nnch734d00sl2jdk',
        oauth_signature_method: 'HMAC-SHA1',
        oauth_timestamp: '137131202',
        oauth_nonce: 'chapoH',
      }),
    );
    assert.equal(
      hmacSha1Signature(base, 'kd94hf93k423kf44', 'pfkkdhi9sl3r4s00'),
      'MdpQcU8iPSUjWoN/UDMsK2sui9I=',
    );
  });

  test('RFC 5849 1.2 initiate: empty token secret, like the gateway', () => {
    const base = signatureBaseString(
      'POST',
      'https://photos.example.net/initiate',
      oauth({
        oauth_consumer_key: 'dpf43f3p2l4k3l03',
        oauth_signature_method: 'HMAC-SHA1',
        oauth_timestamp: '137131200',
        oauth_nonce: 'wIjqoS',
        oauth_callback: 'http://printer.example.com/ready',
      }),
    );
    assert.equal(hmacSha1Signature(base, 'kd94hf93k423kf44'), '74KNZJeDHnMBp0EMJ9ZHt/XKycU=');
  });

  const twitter = (url: string) =>
    signatureBaseString(
      'POST',
      url,
      oauth({
        status: 'Hello Ladies + Gentlemen, a signed OAuth request!',
        include_entities: 'true',
        oauth_consumer_key: 'xvz1evFS4wEEPTGEFPHBog',
        oauth_nonce: 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg',
        oauth_signature_method: 'HMAC-SHA1',
        oauth_timestamp: '1318622958',
        oauth_token: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
        oauth_version: '1.0',
      }),
    );
  const consumerSecret = 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw';
  const tokenSecret = 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE';

  test('Twitter "creating a signature", API 1 and 1.1 URLs', () => {
    assert.equal(
      hmacSha1Signature(
        twitter('https://api.twitter.com/1/statuses/update.json'),
        consumerSecret,
        tokenSecret,
      ),
      'tnnArxj06cWHq44gCs1OSKk/jLY=',
    );
    assert.equal(
      hmacSha1Signature(
        twitter('https://api.twitter.com/1.1/statuses/update.json'),
        consumerSecret,
        tokenSecret,
      ),
      'hCtSmYh+iHYCEqBWrE7C7hYmtUk=',
    );
  });

  test('verifyHmacSha1 accepts the right signature only', () => {
    const base = 'POST&x&y';
    const good = hmacSha1Signature(base, 'secret');
    assert.equal(verifyHmacSha1(base, good, 'secret'), true);
    assert.equal(verifyHmacSha1(base, good, 'secreT'), false);
    assert.equal(verifyHmacSha1(`${base}z`, good, 'secret'), false);
  });
});

describe('RSA-SHA256', () => {
  // Base string of POST http://127.0.0.1:4000/paynet/api/v4/payout/1111 with amount=10.42,
  // client-order-id=inv-1, currency=EUR; signature computed independently (openssl key,
  // node createSign over a hand-built base string). PKCS#1 v1.5 is deterministic.
  const base = signatureBaseString(
    'POST',
    'http://127.0.0.1:4000/paynet/api/v4/payout/1111',
    oauth({
      amount: '10.42',
      'client-order-id': 'inv-1',
      currency: 'EUR',
      oauth_consumer_key: 'merchant',
      oauth_nonce: 'fixed-nonce',
      oauth_signature_method: 'RSA-SHA256',
      oauth_timestamp: '1700000000',
      oauth_version: '1.0',
    }),
  );
  const expected =
    'YGaHq7TJgjw9V6f1CkoYK6WSLuRigTuT2s6It3SX0vS4aIo+bkYvPKtStp8FDSVl3OMZnMCFKnxcH9QTd699aIWNNnGiMLPWIvZY+ABpxg/4ltOEwxtp8MQzq62xFFVulg8Jr7gLXfNY11BkxmZEQdFD4RiODosoMZSqLWKwI7BcRiDZ9AZzlSF7l3qmKWvIGddEkjE30WgKHKIEbfMQEF8lmylPL95kx353Qd+M0SH7aPHisvw8sEuoFoW6I7QFk7gnNNtRlnVePZTHS9xiI16n/h88cjwPnNM99kQ5jB0AgmeIpJO8a8iwMnkDoa/u+TcJMDcHBFQ+ptcafpdYEw==';

  test('known answer with a PKCS#1 key and the same with its PKCS#8 form', () => {
    assert.equal(
      base,
      'POST&http%3A%2F%2F127.0.0.1%3A4000%2Fpaynet%2Fapi%2Fv4%2Fpayout%2F1111&amount%3D10.42%26client-order-id%3Dinv-1%26currency%3DEUR%26oauth_consumer_key%3Dmerchant%26oauth_nonce%3Dfixed-nonce%26oauth_signature_method%3DRSA-SHA256%26oauth_timestamp%3D1700000000%26oauth_version%3D1.0',
    );
    const pkcs1 = loadRsaPrivateKey(fixture('test-rsa-2048.pkcs1.pem'));
    const pkcs8 = loadRsaPrivateKey(fixture('test-rsa-2048.pkcs8.pem'));
    assert.equal(rsaSha256Signature(base, pkcs1), expected);
    assert.equal(rsaSha256Signature(base, pkcs8), expected);
  });

  test('verifies with the public key; refuses a changed base string or signature', () => {
    const publicKey = loadRsaPublicKey(fixture('test-rsa-2048.pub.pem'));
    assert.equal(verifyRsaSha256(base, expected, publicKey), true);
    assert.equal(verifyRsaSha256(base.replace('10.42', '10.43'), expected, publicKey), false);
    assert.equal(verifyRsaSha256(base, `A${expected.slice(1)}`, publicKey), false);
    assert.equal(verifyRsaSha256(base, 'not base64 at all', publicKey), false);
  });

  test('refuses keys under 2048 bits and keys that are not PEM RSA', () => {
    assert.throws(
      () => loadRsaPrivateKey(fixture('test-rsa-1024.pem')),
      (e: unknown) =>
        e instanceof SigningError && e.code === 'weak-private-key' && /1024 bits/.test(e.message),
    );
    assert.throws(
      () =>
        loadRsaPrivateKey('-----BEGIN RSA PRIVATE KEY-----\nnope\n-----END RSA PRIVATE KEY-----'),
      (e: unknown) => e instanceof SigningError && e.code === 'invalid-private-key',
    );
    assert.throws(
      () => loadRsaPrivateKey(fixture('test-rsa-2048.pub.pem')),
      (e: unknown) => e instanceof SigningError && e.code === 'invalid-private-key',
    );
  });

  test('the error for a bad key never echoes the key text', () => {
    const secretish = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC-this-is-key-material';
    try {
      loadRsaPrivateKey(`-----BEGIN PRIVATE KEY-----\n${secretish}\n-----END PRIVATE KEY-----`);
      assert.fail('expected a throw');
    } catch (error) {
      assert.ok(error instanceof SigningError);
      assert.ok(!error.message.includes(secretish));
    }
  });
});
