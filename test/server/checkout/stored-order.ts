/**
 * An order as applyStatus leaves it: `next` stored in its flow and moved to `status`, without a
 * payment behind it. For tests of the pages that serve a stored step (gateway page, launcher).
 */
import assert from 'node:assert/strict';
import { writeFlow } from '../../../server/src/checkout/following/flow-state.js';
import type { StoredAction } from '../../../server/src/checkout/following/next-action.js';
import type { CheckoutStore, Order, OrderState } from '../../../server/src/store/index.js';
import { type Backend, withSandboxAndBackend } from '../../support/loopback-stack.js';
import { uniqueOrderId } from '../../support/widget-api-client.js';

export async function storedOrder(
  store: CheckoutStore,
  next: StoredAction,
  status: OrderState = 'processing',
): Promise<Order> {
  const order = await store.orders.create({
    clientOrderId: uniqueOrderId('stored'),
    intent: 'sale',
    amountMinor: 1042,
    currency: 'EUR',
    nextAction: writeFlow({ next, answered: [] }),
  });
  const moved = await store.orders.transition(order.id, { from: ['new'], to: status });
  assert.ok(moved.won && moved.order);
  return moved.order;
}

/**
 * A sandbox and a backend for the enclosing suite (started before its tests, closed after), and
 * `orderWith`, a stored order on that backend.
 */
export function storedOrderBackend(): {
  readonly be: Backend;
  orderWith(next: StoredAction, status?: OrderState): Promise<Order>;
} {
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ be } = started);
  });
  return {
    get be() {
      return be;
    },
    orderWith: (next, status) => storedOrder(be.store, next, status),
  };
}
