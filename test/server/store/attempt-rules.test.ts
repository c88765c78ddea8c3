import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  attemptClientOrderId,
  exhausted,
  isRetryable,
} from '../../../server/src/store/attempt-rules.js';
import type { Order, OrderState } from '../../../server/src/store/index.js';

const attempt = (status: OrderState, n = 1, abandonedAt: Date | null = null) =>
  ({ status, attempt: n, abandonedAt }) as Order;

test('an attempt lets its session take another when it failed or its bank page was left', () => {
  assert.deepEqual(
    (['declined', 'error', 'filtered', 'approved', 'new', 'processing', 'unknown'] as const).map(
      (status) => isRetryable(attempt(status)),
    ),
    [true, true, true, false, false, false, false],
  );
  assert.equal(isRetryable(attempt('processing', 1, new Date())), true);
  assert.equal(isRetryable(attempt('approved', 1, new Date())), false);
});

test('a session is exhausted once its last allowed attempt failed', () => {
  assert.equal(exhausted({ maxAttempts: 3 }, attempt('declined', 3)), true);
  assert.equal(exhausted({ maxAttempts: 3 }, attempt('declined', 2)), false);
  assert.equal(exhausted({ maxAttempts: 1 }, attempt('processing', 1)), false);
  assert.equal(exhausted({ maxAttempts: 1 }, null), false);
});

test("attempt n's client_orderid: the order id, then -n, salted, within 128 characters", () => {
  assert.equal(attemptClientOrderId('order-7', 1), 'order-7');
  assert.equal(attemptClientOrderId('order-7', 2), 'order-7-2');
  assert.equal(attemptClientOrderId('order-7', 10, 'a1b2c3'), 'order-7-a1b2c3-10');
  const long = 'x'.repeat(128);
  assert.equal(attemptClientOrderId(long, 2), `${'x'.repeat(126)}-2`);
  assert.equal(attemptClientOrderId(long, 2, 'a1b2c3').length, 128);
  assert.equal(attemptClientOrderId(long, 1), long);
});
