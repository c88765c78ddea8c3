/**
 * The shopper is back from the gateway's own page (`redirect` or `html`) at our return page: with
 * the gateway's final redirect (its control verified), or with nothing we can verify (the spec
 * says only that the shopper is sent "through a `redirect_url` and back"). That page is over. It
 * is never shown again: its key joins `answered`, so a status (or the sale answer, see
 * next-action.ts salePage) that still names it maps to a wait, and the gateway's status, asked at
 * once, decides the order.
 */
import type { Order } from '../../store/index.js';
import { type Context, notifyOrder } from '../context.js';
import { challengeKey, readFlow, WAIT, writeFlow } from './flow-state.js';
import { isPending, pollOnce } from './follow.js';
import { isGatewayPage } from './next-action.js';

/** The shopper's step is the gateway's own page. */
export function onGatewayPage(order: Order): boolean {
  return isPending(order) && isGatewayPage(readFlow(order).next);
}

export async function leaveGatewayPage(ctx: Context, order: Order): Promise<Order> {
  const flow = readFlow(order);
  const key = onGatewayPage(order) ? challengeKey(flow.next) : undefined;
  if (!key) return order;
  const write = await ctx.store.orders.update(order.id, {
    version: order.version,
    patch: { nextAction: writeFlow({ ...flow, next: WAIT, answered: [...flow.answered, key] }) },
  });
  // Lost to another writer: theirs is the newer word (a status moved the order on meanwhile).
  if (!write.won || !write.order) return write.order ?? order;
  notifyOrder(ctx, order.id);
  return write.order;
}

/**
 * A return with nothing to verify, while the shopper's step was the gateway's page: leave it and
 * ask the gateway's status once. Null when the order was not on a gateway page (then the return
 * page only reports where the order stands, and asks nothing: a reload cannot make it poll).
 */
export async function backFromGatewayPage(ctx: Context, order: Order): Promise<Order | null> {
  if (!onGatewayPage(order)) return null;
  return pollOnce(ctx, await leaveGatewayPage(ctx, order));
}
