/**
 * Keeping a card the shopper agreed to save (or that a session saving always took): only once its
 * attempt is approved and kept, never for a declined, failed or reversed one. At once, in the
 * background of the request that saw the approval, and again by the reconciler for what that
 * missed (an instance that died, a lost create-card-ref answer, a gateway that names the
 * reference later). keep-card-ref.ts makes sure that however often it runs, one reference is made.
 */
import type { Order } from '../../store/index.js';
import type { Context } from '../context.js';
import { keepCardRef } from './keep-card-ref.js';

function logFailure(ctx: Context, order: Order, error: unknown): void {
  ctx.logger.warn(
    { err: error, orderId: order.id },
    'saving the card failed; the reconciler tries again',
  );
}

/** Keeps the card of `order`, just kept by its session, in the background. */
export function saveCardSoon(ctx: Context, order: Order): void {
  if (!order.saveCard) return;
  void ctx.track(keepCardRef(ctx, order).catch((error: unknown) => logFailure(ctx, order, error)));
}

/** One pass over approved attempts whose card is still to keep; answers how many it looked at. */
export async function saveDueCards(ctx: Context, olderThanSeconds: number): Promise<number> {
  const due = await ctx.store.cardRefs.dueToSave({ olderThanSeconds });
  for (const order of due) {
    if (ctx.closing()) break;
    // One status poll is enough here: the next pass asks again.
    await keepCardRef(ctx, order, 0).catch((error: unknown) => logFailure(ctx, order, error));
  }
  return due.length;
}
