/**
 * The widget's session token (payments/session-token.ts): a token that verified is remembered, and that
 * memory never lets through a token that would not verify on its own.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  signSessionToken,
  verifySessionToken,
} from '../../../../server/src/checkout/payments/session-token.js';

const SECRET = 'jwt-test-secret-0123456789-0123456789-abcdef';
const OTHER = 'jwt-test-other-secret-0123456789-0123456789-x';
const EXPIRES = new Date('2030-01-02T03:04:05.000Z');

describe('session tokens', () => {
  test('a token verifies to its session and expiry, the second time too', () => {
    const token = signSessionToken(SECRET, 'session-1', EXPIRES);
    const expected = { sessionId: 'session-1', expiresAtMs: EXPIRES.getTime() };
    assert.deepEqual(verifySessionToken(SECRET, token), expected);
    assert.deepEqual(verifySessionToken(SECRET, token), expected);
  });

  test('after its genuine twin verified, a token changed in one character is still refused', () => {
    const token = signSessionToken(SECRET, 'session-2', EXPIRES);
    verifySessionToken(SECRET, token);
    // The signature's first character (its top six bits) changed.
    const at = token.lastIndexOf('.') + 1;
    const changed = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    assert.throws(() => verifySessionToken(SECRET, changed), { status: 401 });
  });

  test('a token verified under one secret is refused once the secret changed', () => {
    const token = signSessionToken(SECRET, 'session-3', EXPIRES);
    verifySessionToken(SECRET, token);
    assert.throws(() => verifySessionToken(OTHER, token), { status: 401 });
    assert.deepEqual(verifySessionToken(OTHER, signSessionToken(OTHER, 's', EXPIRES)), {
      sessionId: 's',
      expiresAtMs: EXPIRES.getTime(),
    });
    // And back: the first secret's tokens verify again (nothing of the other secret is reused).
    assert.equal(verifySessionToken(SECRET, token).sessionId, 'session-3');
  });

  test('more tokens than the memory holds: every one still verifies', () => {
    const tokens = Array.from({ length: 1_100 }, (_, i) =>
      signSessionToken(SECRET, `s-${i}`, EXPIRES),
    );
    for (const token of tokens) verifySessionToken(SECRET, token);
    assert.deepEqual(
      [tokens[0], tokens[1_099]].map((t) => verifySessionToken(SECRET, t ?? '').sessionId),
      ['s-0', 's-1099'],
    );
  });
});
