/** The factory checks credentials when built; the sanitiser; the operation table. */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  createGatewayClient,
  GatewayConfigError,
  OPERATIONS,
  redactText,
  sanitizeFields,
} from '../../../server/src/gateway/index.js';
import { SigningError } from '../../../server/src/signing/index.js';
import { CREDENTIALS } from './helpers.js';

const base = { gatewayUrl: 'http://127.0.0.1:4000/paynet', ...CREDENTIALS };

describe('createGatewayClient configuration', () => {
  test('empty login, control key or URL is refused by name', () => {
    for (const [name, message] of [
      ['login', 'gateway client: login is empty'],
      ['controlKey', 'gateway client: controlKey is empty'],
      ['gatewayUrl', 'gateway client: gatewayUrl is empty'],
    ] as const) {
      assert.throws(
        () => createGatewayClient({ ...base, [name]: ' ' }),
        (error: unknown) =>
          error instanceof GatewayConfigError &&
          error.code === 'gateway-config' &&
          error.message === message,
      );
    }
  });

  test('endpoint id, URL, timeout and retries are checked', () => {
    assert.throws(
      () => createGatewayClient({ ...base, endpointId: 'abc' }),
      /endpointId must be a positive integer/,
    );
    assert.throws(
      () => createGatewayClient({ ...base, gatewayUrl: 'not a url' }),
      /gatewayUrl is not a URL/,
    );
    assert.throws(
      () => createGatewayClient({ ...base, gatewayUrl: 'ftp://x' }),
      /gatewayUrl must be http\(s\)/,
    );
    assert.throws(() => createGatewayClient({ ...base, timeoutMs: 0 }), /timeoutMs must be > 0/);
    assert.throws(
      () => createGatewayClient({ ...base, retries: -1 }),
      /retries must be a whole number/,
    );
    assert.throws(
      () => createGatewayClient({ ...base, privateKeyPem: '' }),
      /privateKeyPem is empty/,
    );
  });

  test('a weak or malformed RSA key is refused by the signer', () => {
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs1', format: 'pem' })
      .toString();
    assert.throws(
      () => createGatewayClient({ ...base, privateKeyPem: weak }),
      (error: unknown) => error instanceof SigningError && error.code === 'weak-private-key',
    );
    assert.throws(
      () => createGatewayClient({ ...base, privateKeyPem: 'not a key' }),
      (error: unknown) => error instanceof SigningError && error.code === 'invalid-private-key',
    );
  });

  test('one method per operation', () => {
    const client = createGatewayClient(base);
    assert.deepEqual(Object.keys(client).sort(), Object.keys(OPERATIONS).sort());
    assert.equal(Object.keys(OPERATIONS).length, 27);
    for (const method of Object.keys(OPERATIONS)) {
      assert.equal(typeof (client as unknown as Record<string, unknown>)[method], 'function');
    }
  });
});

describe('sanitizeFields', () => {
  test('drops card number, CVV, expiry, control, signatures and keys; redacts PAN-like values', () => {
    assert.deepEqual(
      sanitizeFields([
        ['client_orderid', 'A1'],
        ['credit_card_number', '4444444444444448'],
        ['cvv2', '123'],
        ['expire_month', '12'],
        ['expire_year', '2031'],
        ['control', 'abc'],
        ['destination-card-no', '4000000000000002'],
        ['oauth_signature', 'sig'],
        ['private_key', 'pem'],
        ['order_desc', 'card 4444 4444 4444 4448 please'],
        ['card_printed_name', 'Zoë'],
        ['amount', '10.42'],
      ]),
      {
        client_orderid: 'A1',
        order_desc: 'card 444444******4448 please',
        amount: '10.42',
      },
    );
  });

  test('accepts a record too', () => {
    assert.deepEqual(sanitizeFields({ cvv: '1', login: 'm' }), { login: 'm' });
  });

  test('redactText removes secrets, short ones only as whole words', () => {
    assert.equal(redactText('cvv 123 code 1234 x123', ['123']), 'cvv [redacted] code 1234 x123');
    assert.equal(redactText('key SECRETKEY-1 end', ['SECRETKEY-1']), 'key [redacted] end');
  });
});
