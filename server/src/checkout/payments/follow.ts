/**
 * Following an order to its final status. The widget long-polls; we re-read the order from the
 * store on every turn (a callback or a 3DS return may have landed on another instance) and ask
 * the gateway only when nothing else told us, with a growing pause, never more often than the
 * pause allows per order, and never while the next step is the browser's.
 */
import { once } from 'node:events';
import type { StatusResponse } from '../../gateway/index.js';
import { type Order, PENDING_ORDER_STATUSES } from '../../store/index.js';
import { type Context, inScope } from '../context.js';
import { applyStatus } from './apply-status.js';
import { readFlow } from './flow-state.js';
import { waitsOnBrowser } from './next-action.js';

/**
 * When this instance last asked the gateway about an order (ms since epoch). An entry goes when
 * its order settles; one older than pollMaxMs means no more than no entry (no pause is longer), so
 * those are swept too once the map grows: orders a shopper stopped following do not pile up.
 */
const lastPolled = new WeakMap<Context, Map<string, number>>();
const SWEEP_ABOVE = 1_000;

function pollTimes(ctx: Context): Map<string, number> {
  let map = lastPolled.get(ctx);
  if (!map) {
    map = new Map();
    lastPolled.set(ctx, map);
  }
  return map;
}

function notePoll(ctx: Context, orderId: string): void {
  const times = pollTimes(ctx);
  const now = Date.now();
  if (times.size >= SWEEP_ABOVE) {
    for (const [id, at] of times) if (now - at > ctx.timing.pollMaxMs) times.delete(id);
  }
  times.set(orderId, now);
}

/** Drops the order's poll time once it is final: nothing will ask about it again. */
function forgetIfFinal(ctx: Context, order: Order): Order {
  if (!isPending(order)) lastPolled.get(ctx)?.delete(order.id);
  return order;
}

export function isPending(order: Order): boolean {
  return PENDING_ORDER_STATUSES.includes(order.status);
}

/** Nothing for the gateway to tell us: final, or waiting on the shopper's browser. */
function settledForNow(order: Order): boolean {
  return (
    !isPending(order) || (order.status === 'processing' && waitsOnBrowser(readFlow(order).next))
  );
}

/** The gateway's status of an order, by orderid, or by client_orderid while we have none. */
export function askOrderStatus(ctx: Context, order: Order): Promise<StatusResponse> {
  return inScope(ctx, { orderId: order.id }, () =>
    ctx.gateway.status({
      client_orderid: order.clientOrderId,
      ...(order.gatewayOrderId ? { orderid: order.gatewayOrderId } : {}),
    }),
  );
}

/** Asks the gateway once and folds the answer in; a failed poll changes nothing. */
export async function pollOnce(ctx: Context, order: Order): Promise<Order> {
  if (!isPending(order)) return order;
  notePoll(ctx, order.id);
  try {
    return forgetIfFinal(ctx, await applyStatus(ctx, order, await askOrderStatus(ctx, order)));
  } catch (error) {
    // A failed poll changes nothing: the next turn (or the reconciler) asks again.
    ctx.logger.warn({ err: error, orderId: order.id }, 'status poll failed');
    return order;
  }
}

function sleepUntilNews(ctx: Context, orderId: string, ms: number): Promise<unknown> {
  if (ms <= 0) return Promise.resolve();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  return once(ctx.events, `order:${orderId}`, { signal: abort.signal })
    .catch(() => undefined)
    .finally(() => clearTimeout(timer));
}

/**
 * Answers the order as soon as it changed (a new status or a new next action) or `waitMs` passed.
 * With `waitMs` 0 it still asks the gateway once, unless it was asked a moment ago. `order` is the
 * caller's fresh copy (it has just read or written it); later turns re-read the store.
 */
export async function followOrder(ctx: Context, order: Order, waitMs: number): Promise<Order> {
  const deadline = Date.now() + waitMs;
  if (settledForNow(order)) return forgetIfFinal(ctx, order);
  const startVersion = order.version;
  const changed = (o: Order) => settledForNow(o) || o.version !== startVersion;
  let pause = ctx.timing.pollMinMs;
  let current = order;
  for (;;) {
    // `new`: the sale is still being sent by whoever claimed the session; do not race it.
    const last = pollTimes(ctx).get(current.id) ?? 0;
    if (current.status !== 'new' && Date.now() - last >= pause) {
      current = await pollOnce(ctx, current);
    }
    if (changed(current)) return forgetIfFinal(ctx, current);
    const remaining = deadline - Date.now();
    if (remaining <= 0 || ctx.closing()) return current;
    await sleepUntilNews(ctx, current.id, Math.min(pause, remaining));
    pause = Math.min(Math.round(pause * 1.5), ctx.timing.pollMaxMs);
    current = (await ctx.store.orders.get(current.id)) ?? current;
    if (changed(current)) return forgetIfFinal(ctx, current);
  }
}
