/**
 * Following an order to its final status. The widget long-polls; we re-read the order from the
 * store on every turn (a callback or a 3DS return may have landed on another instance) and ask
 * the gateway only when nothing else told us, on the schedule of poll-schedule.ts (at once, a
 * short second poll, then growing pauses), never more often than it allows per order. Whatever
 * comes first answers the long poll at once: a callback (order-news.ts) or our own poll. While
 * the next step is the browser's (3DS Method, challenge, 1.0.2 page) or the gateway's own page,
 * the gateway is still asked, at the slow browserStepPollMs: if the return message is lost or the
 * ACS ends the challenge on its own, the order still ends within seconds of the gateway knowing.
 * Polling only reads: nothing is ever sent again from here except through applyStatus's rules
 * for a lost upload.
 */
import type { NextAction } from '../../../../contract/api-types.js';
import type { StatusResponse } from '../../gateway/index.js';
import { type Order, PENDING_ORDER_STATUSES } from '../../store/index.js';
import { type Context, inScope, instanceMap } from '../context.js';
import { applyStatus } from './apply-status.js';
import { readFlow } from './flow-state.js';
import { isGatewayPage, waitsOnBrowser } from './next-action.js';
import { listenForNews } from './order-news.js';
import { forgetPolls, notePollAnswered, notePollStarted, untilNextPoll } from './poll-schedule.js';

export function isPending(order: Order): boolean {
  return PENDING_ORDER_STATUSES.includes(order.status);
}

/** Drops the order's poll record once it is final: nothing will ask about it again. */
function forgetIfFinal(ctx: Context, order: Order): Order {
  if (!isPending(order)) forgetPolls(ctx, order.id);
  return order;
}

/** The next step is the shopper's browser (3DS Method, challenge, 1.0.2 page). */
function onBrowserStep(order: Order): boolean {
  return order.status === 'processing' && waitsOnBrowser(readFlow(order).next);
}

/**
 * The shopper is on a page we do not see: a browser step, or the gateway's own 3DS page. The
 * gateway is asked at the slow pace only; what ends the page usually reaches us another way.
 */
function shopperBusy(order: Order): boolean {
  return (
    onBrowserStep(order) || (order.status === 'processing' && isGatewayPage(readFlow(order).next))
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

/** The status poll in flight per order on this instance, for others to share. */
const flightsOf = instanceMap<Promise<Order>>();

async function askAndApply(ctx: Context, order: Order): Promise<Order> {
  notePollStarted(ctx, order);
  try {
    const after = await applyStatus(ctx, order, await askOrderStatus(ctx, order));
    notePollAnswered(ctx, order, after);
    return forgetIfFinal(ctx, after);
  } catch (error) {
    // A failed poll changes nothing: the next turn (or the reconciler) asks again.
    ctx.logger.warn({ err: error, orderId: order.id }, 'status poll failed');
    return order;
  }
}

/**
 * Asks the gateway once and folds the answer in; a failed poll changes nothing. A poll of the same
 * order already in flight on this instance is shared rather than sent twice (a callback landing
 * while the widget's long poll asks, say): its answer is taken when final, or with `anyAnswer`;
 * otherwise this asks again, since that poll may have left before the news that brought us here.
 */
export async function pollOnce(
  ctx: Context,
  order: Order,
  options: { anyAnswer?: boolean } = {},
): Promise<Order> {
  const flights = flightsOf(ctx);
  let current = order;
  let anyAnswer = options.anyAnswer === true;
  for (;;) {
    if (!isPending(current)) return current;
    const running = flights.get(current.id);
    if (!running) break;
    current = await running;
    if (anyAnswer) return current;
    // A poll that starts from here on leaves after our news: any answer of it will do.
    anyAnswer = true;
  }
  const flight = askAndApply(ctx, current);
  flights.set(current.id, flight);
  const id = current.id;
  return flight.finally(() => {
    if (flights.get(id) === flight) flights.delete(id);
  });
}

/**
 * Answers the order as soon as it changed (a new status or a new next action) or `waitMs` passed.
 * With `waitMs` 0 it still asks the gateway once, unless it was asked a moment ago. `order` is the
 * caller's fresh copy (it has just read or written it); later turns re-read the store.
 *
 * A browser step is answered at once (a reloaded page resumes it), unless the widget says it is
 * `showing` that step: then this holds while the step is open, and answers as soon as it is not
 * (the gateway ended it, or the return page moved the order on while its message was lost). A
 * gateway page is held like a wait: it ends at the gateway, which this asks.
 */
export async function followOrder(
  ctx: Context,
  order: Order,
  waitMs: number,
  showing?: NextAction['action'],
): Promise<Order> {
  const deadline = Date.now() + waitMs;
  const startVersion = order.version;
  const answerNow = (o: Order) =>
    !isPending(o) ||
    o.version !== startVersion ||
    (showing === undefined ? onBrowserStep(o) : readFlow(o).next.action !== showing);
  const news = listenForNews(ctx, order.id);
  let current = order;
  try {
    for (;;) {
      // `new`: the sale is still being sent by whoever claimed the session; do not race it.
      if (current.status !== 'new' && untilNextPoll(ctx, current, shopperBusy(current)) === 0) {
        current = await pollOnce(ctx, current, { anyAnswer: true });
      }
      if (answerNow(current)) return forgetIfFinal(ctx, current);
      const remaining = deadline - Date.now();
      if (remaining <= 0 || ctx.closing()) return current;
      // Until news, or until the next poll is due (whoever sent the last one); while the sale is
      // still being sent (`new`), look again after pollMinMs.
      const due = untilNextPoll(ctx, current, shopperBusy(current));
      await news.wait(Math.min(due > 0 ? due : ctx.timing.pollMinMs, remaining));
      current = (await ctx.store.orders.get(current.id)) ?? current;
      if (answerNow(current)) return forgetIfFinal(ctx, current);
    }
  } finally {
    news.close();
  }
}
