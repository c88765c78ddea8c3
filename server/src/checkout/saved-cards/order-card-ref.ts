/**
 * The card reference made from an order, as the merchant API shows it with the order: the summary
 * wherever the answer may be kept (a list, an answer under an Idempotency-Key, an event), and
 * with the card's expiry and holder, asked of the gateway, on a read of that one order.
 */
import type { Order } from '../../store/index.js';
import type { Context } from '../context.js';
import { cardDetailsOrNull } from './card-details.js';
import { type CardRefSummary, cardRefSummary, cardRefView } from './views.js';

/** `order`: the attempt the merchant's order speaks for (the kept one). */
export async function cardRefSummaryOf(ctx: Context, order: Order): Promise<CardRefSummary | null> {
  const ref = await ctx.store.cardRefs.ofOrder(order.id);
  return ref ? cardRefSummary(ref, order.merchantOrderId) : null;
}

/** As cardRefSummaryOf, with the card's expiry and holder (null when the gateway cannot tell). */
export async function cardRefViewOf(ctx: Context, order: Order) {
  const ref = await ctx.store.cardRefs.ofOrder(order.id);
  if (!ref) return null;
  return cardRefView(ref, order.merchantOrderId, await cardDetailsOrNull(ctx, ref.id));
}
