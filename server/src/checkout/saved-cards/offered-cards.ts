/**
 * The saved cards a session offers, as the element shows them: most recent first, each with the
 * card's details as the gateway gives them (card-details.ts). A card the gateway cannot describe
 * now is left out of the list (it is still the session's to pay with, should the element know it),
 * and so is one it describes without an expiry or last four: logged, since the merchant offered it.
 */
import type { SavedCardView } from '../../../../contract/api-types.js';
import type { Context } from '../context.js';
import { cardDetailsOrNull, cardRefTag } from './card-details.js';
import { savedCardView } from './views.js';

export async function offeredCards(
  ctx: Context,
  session: { id: string; offersSavedCards: boolean },
): Promise<SavedCardView[]> {
  if (!session.offersSavedCards) return [];
  const offers = await ctx.store.sessionCards.offered(session.id);
  if (offers.length === 0) return [];
  const details = await Promise.all(offers.map((o) => cardDetailsOrNull(ctx, o.cardRef.id)));
  const now = new Date();
  return offers.flatMap((offer, i) => {
    const known = details[i];
    if (!known) return []; // cardDetailsOrNull logged why
    const view = savedCardView(offer, known, now);
    if (view) return [view];
    ctx.logger.warn(
      { sessionId: session.id, cardRef: cardRefTag(ctx, offer.cardRef.id) },
      'saved card not shown: the gateway gave no expiry or last four',
    );
    return [];
  });
}
