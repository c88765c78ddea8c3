/**
 * The merchant forgets a card reference on their side: no session offers it from then on, and no
 * rebill, recurring payment or transfer charges it through this backend (charge-guard.ts; the
 * gateway keeps its token: the spec has no call to delete one). Refused while a session that may
 * still be paid offers it, since its shopper may be choosing it now; the reference's row is
 * locked meanwhile, so a session being created with it either finishes first (and this refuses)
 * or waits and then finds it forgotten (and refuses itself). Refused for now, too, while a charge
 * of it is reserved and not yet answered: that charge was asked first and its request may be on
 * its way, so the forget waits for its answer rather than commit before it is sent (the same row
 * lock orders the two; charge-guard.ts says how they cross).
 */
import type { StoredCardRef } from '../../store/index.js';
import type { Context } from '../context.js';
import { conflictForNow, notFound } from '../errors.js';
import { forgetCardDetails } from './card-details.js';

export async function forgetCardRef(ctx: Context, cardRefId: string): Promise<StoredCardRef> {
  const forgotten = await ctx.store.transaction(async (tx) => {
    const ref = await tx.cardRefs.lock(cardRefId);
    if (!ref) throw notFound(`Card reference ${cardRefId}`);
    if (ref.forgottenAt) return ref;
    const live = await tx.sessionCards.liveSessionsOffering(cardRefId);
    if (live.length > 0) {
      // Lifted once those sessions end: not kept under an Idempotency-Key.
      throw conflictForNow(
        `Card reference ${cardRefId} is offered by checkout session ${live.join(', ')}, which may still be paid: expire it, or forget the card once it has ended`,
      );
    }
    // A charge still `new` after reconcileAfterSeconds (longer than a request waits for the
    // gateway) was reserved by a request that never finished: it can no longer be sent.
    const sending = await tx.operations.chargesBeingSent(
      cardRefId,
      ctx.timing.reconcileAfterSeconds,
    );
    if (sending.length > 0) {
      const named = sending.map((op) => `${op.kind} ${op.clientId}`).join(', ');
      throw conflictForNow(
        `Card reference ${cardRefId} is being charged by ${named}, asked before this forget: forget the card once the gateway has answered it`,
        5,
      );
    }
    return (await tx.cardRefs.markForgotten(cardRefId)) ?? ref;
  });
  forgetCardDetails(ctx, cardRefId);
  return forgotten;
}
