import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  normalizeParameters,
  normalizeUrl,
  type Param,
  percentEncode,
  signatureBaseString,
} from '../../../server/src/signing/index.js';

describe('percentEncode (RFC 3986)', () => {
  test("encodes reserved characters including !'()* and space as %20", () => {
    assert.equal(percentEncode("!'()*"), '%21%27%28%29%2A');
    assert.equal(percentEncode('a b+c'), 'a%20b%2Bc');
    assert.equal(
      percentEncode('Hello Ladies + Gentlemen, a signed OAuth request!'),
      'Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21',
    );
  });
  test('leaves unreserved characters and encodes UTF-8 bytes', () => {
    assert.equal(percentEncode('AZaz09-._~'), 'AZaz09-._~');
    assert.equal(percentEncode('é☃'), '%C3%A9%E2%98%83');
  });
});

describe('normalizeUrl', () => {
  const cases: [string, string][] = [
    ['HTTP://Example.COM:80/r%20v/X?id=123', 'http://example.com/r%20v/X'],
    ['https://www.example.net:8080/?q=1', 'https://www.example.net:8080/'],
    [
      'https://gate.example:443/paynet/api/v2/payout/1',
      'https://gate.example/paynet/api/v2/payout/1',
    ],
    [
      'http://127.0.0.1:4000/paynet/api/v4/payout/1111#frag',
      'http://127.0.0.1:4000/paynet/api/v4/payout/1111',
    ],
  ];
  for (const [input, output] of cases) {
    test(input, () => assert.equal(normalizeUrl(input), output));
  }
});

describe('RFC 5849 section 3.4.1.1 example', () => {
  const url = 'http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b';
  const params: Param[] = [
    ['c2', ''],
    ['a3', '2 q'],
    ['oauth_consumer_key', '9djdj82h48djs9d2'],
    ['oauth_token', 'kkk9d7dh3k39sjv7'],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', '137131201'],
    ['oauth_nonce', '7d8f3e4a'],
  ];

  test('normalized parameters, duplicates kept and sorted by value', () => {
    const query: Param[] = [
      ['b5', '=%3D'],
      ['a3', 'a'],
      ['c@', ''],
      ['a2', 'r b'],
    ];
    assert.equal(
      normalizeParameters([...query, ...params]),
      'a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9djdj82h48djs9d2&oauth_nonce=7d8f3e4a&oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201&oauth_token=kkk9d7dh3k39sjv7',
    );
  });

  test('base string', () => {
    assert.equal(
      signatureBaseString('post', url, params),
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
    );
  });
});
