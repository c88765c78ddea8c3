/**
 * The attempt policy of a checkout session, pure (no SQL): which attempt lets the session take
 * another, when it takes no more, and the gateway client_orderid of attempt n. sessions.ts
 * applies it inside the claim's transaction.
 */
import { FAILED_ORDER_STATUSES, type Order, PENDING_ORDER_STATUSES } from './orders.js';

/** An attempt after which the session may take another: it failed, or its bank page was left. */
export function isRetryable(order: Order): boolean {
  return (
    FAILED_ORDER_STATUSES.includes(order.status) ||
    (order.abandonedAt !== null && PENDING_ORDER_STATUSES.includes(order.status))
  );
}

/** The session's last attempt failed (or was left) and it takes no more. */
export function exhausted(session: { maxAttempts: number }, order: Order | null): boolean {
  return order !== null && isRetryable(order) && order.attempt >= session.maxAttempts;
}

/**
 * The gateway's client_orderid of attempt `n`: the merchant's order id for the first, then
 * `<order id>-<n>`, the order id shortened to keep it within the gateway's 128 characters. With
 * `salt` (the plain one is taken): `<order id>-<salt>-<n>`, shortened the same way.
 */
export function attemptClientOrderId(orderId: string, n: number, salt?: string): string {
  if (n === 1) return orderId;
  const suffix = `${salt ? `-${salt}` : ''}-${n}`;
  return `${orderId.slice(0, 128 - suffix.length)}${suffix}`;
}

/** Tries of a salted attempt id before giving up (each has 2^24 values nobody could guess). */
export const SALTED_TRIES = 3;
