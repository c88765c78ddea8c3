import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  buildAuthorizationHeader,
  MalformedAuthorizationHeader,
  parseAuthorizationHeader,
} from '../../../server/src/signing/index.js';

describe('Authorization header', () => {
  test('each value percent-encoded and quoted, realm first when given', () => {
    const header = buildAuthorizationHeader(
      {
        oauth_consumer_key: 'merchantlogin',
        oauth_nonce: 'EqINVv5rkhx',
        oauth_signature: '9bSeUoR5yJSSJ4KPhotT+ofEHSQ=',
      },
      '',
    );
    assert.equal(
      header,
      'OAuth realm="", oauth_consumer_key="merchantlogin", oauth_nonce="EqINVv5rkhx", oauth_signature="9bSeUoR5yJSSJ4KPhotT%2BofEHSQ%3D"',
    );
  });

  test('parses the gateway docs example, spaces optional, values decoded', () => {
    const parsed = parseAuthorizationHeader(
      'OAuth realm="", oauth_version="1.0",oauth_signature_method="HMAC-SHA1", oauth_consumer_key="merchantlogin", oauth_timestamp="1513785920", oauth_nonce="EqINVv5rkhx", oauth_signature="9bSeUoR5yJSSJ4KPhotT%2BofEHSQ%3D"',
    );
    assert.equal(parsed.get('oauth_signature'), '9bSeUoR5yJSSJ4KPhotT+ofEHSQ=');
    assert.equal(parsed.get('oauth_timestamp'), '1513785920');
    assert.equal(parsed.get('realm'), '');
    assert.equal(parsed.size, 7);
  });

  test('round trip of awkward values', () => {
    const values = { oauth_nonce: 'a b+c/d=e&f"g', oauth_consumer_key: 'логин' };
    const parsed = parseAuthorizationHeader(buildAuthorizationHeader(values));
    assert.deepEqual(Object.fromEntries(parsed), values);
  });

  const malformed = [
    'Basic dXNlcjpwYXNz',
    'OAuth',
    'OAuth oauth_nonce=abc',
    'OAuth oauth_nonce="abc", oauth_nonce="def"',
    'OAuth oauth_nonce="%E0%A4%A"',
    'OAuth oauth_nonce="abc",,',
  ];
  for (const header of malformed) {
    test(`refuses ${JSON.stringify(header)}`, () => {
      assert.throws(() => parseAuthorizationHeader(header), MalformedAuthorizationHeader);
    });
  }
});
