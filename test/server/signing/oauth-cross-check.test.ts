/**
 * Our signer against an independent OAuth 1.0a implementation (the `oauth-1.0a` package) on
 * randomized parameter sets: unicode, reserved characters, empty values, repeated names.
 * A bug shared by our signer and our verifier (the sandbox) would be invisible to round trips;
 * it is not invisible here.
 */
import assert from 'node:assert/strict';
import { createHmac, createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import OAuth from 'oauth-1.0a';
import {
  createOAuthSigner,
  type Param,
  parseAuthorizationHeader,
  percentEncode,
} from '../../../server/src/signing/index.js';

const PRIVATE_KEY = readFileSync(
  new URL('./fixtures/test-rsa-2048.pkcs8.pem', import.meta.url),
  'utf8',
);

/** mulberry32: a small seeded PRNG, so a failure is reproducible from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  ...'abcXYZ019-._~',
  ...':/?#[]@!$&\'()*+,;= %"<>\\^`{|}',
  'é',
  'ß',
  'Ж',
  '☃',
  '日本',
  '😀',
];

function randomString(rand: () => number, max: number): string {
  const length = Math.floor(rand() * (max + 1));
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[Math.floor(rand() * ALPHABET.length)];
  return s;
}

function randomParams(rand: () => number): Param[] {
  const names = Array.from(
    { length: 1 + Math.floor(rand() * 4) },
    () => `p${randomString(rand, 5)}`,
  );
  const params: Param[] = [];
  const count = 1 + Math.floor(rand() * 8);
  for (let i = 0; i < count; i++) {
    // Reusing a name now and then gives repeated names; empty values come from length 0.
    const name = names[Math.floor(rand() * names.length)] ?? 'p';
    params.push([name, randomString(rand, 12)]);
  }
  return params;
}

/** The same parameters in oauth-1.0a's shape: repeated names become arrays. */
function asData(params: Param[]): Record<string, string | string[]> {
  const data: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    const existing = data[name];
    if (existing === undefined) data[name] = value;
    else data[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return data;
}

function reference(method: 'HMAC-SHA1' | 'RSA-SHA256', secret: string) {
  const oauth = new OAuth({
    consumer: { key: 'merchant-login', secret },
    signature_method: method,
    hash_function: (base: string, key: string) =>
      method === 'HMAC-SHA1'
        ? createHmac('sha1', key).update(base).digest('base64')
        : createSign('RSA-SHA256').update(base).sign(PRIVATE_KEY, 'base64'),
  });
  return oauth;
}

const SEEDS = Array.from({ length: 150 }, (_, i) => 1000 + i);

for (const method of ['HMAC-SHA1', 'RSA-SHA256'] as const) {
  describe(`${method} agrees with oauth-1.0a`, () => {
    test(`${SEEDS.length} randomized parameter sets`, () => {
      for (const seed of SEEDS) {
        const rand = prng(seed);
        const params = randomParams(rand);
        const controlKey = `key-${randomString(rand, 6)}`;
        const withQuery = rand() < 0.3;
        const query = withQuery ? `?q${seed}=${percentEncode(randomString(rand, 6))}` : '';
        const url = `https://gate.example.com:8443/paynet/api/v2/payout/${seed}${query}`;
        const nonce = `nonce${seed}`;
        const timestamp = 1_700_000_000 + seed;

        const ours = createOAuthSigner(
          method === 'HMAC-SHA1'
            ? {
                method,
                consumerKey: 'merchant-login',
                controlKey,
                clock: () => timestamp,
                nonce: () => nonce,
              }
            : {
                method,
                consumerKey: 'merchant-login',
                privateKeyPem: PRIVATE_KEY,
                clock: () => timestamp,
                nonce: () => nonce,
              },
        ).sign({ url, params });

        const oauth = reference(method, controlKey);
        oauth.getNonce = () => nonce;
        oauth.getTimeStamp = () => timestamp;
        const theirs = oauth.authorize({ url, method: 'POST', data: asData(params) });

        const ourSignature = parseAuthorizationHeader(ours.authorization).get('oauth_signature');
        assert.equal(
          ourSignature,
          theirs.oauth_signature,
          `seed ${seed}: ${JSON.stringify(params)}`,
        );
      }
    });
  });
}
