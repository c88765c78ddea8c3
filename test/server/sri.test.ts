import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sri } from '../../server/src/sri.js';

test('sri: sha384 in base64, as a browser checks `integrity`', () => {
  // The SHA-384 of "abc" (FIPS 180-4's known answer), base64.
  assert.equal(
    sri('abc'),
    'sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn',
  );
  assert.equal(sri(new TextEncoder().encode('abc')), sri('abc'));
});
