/**
 * The saved cards a session offers, as the element shows them: most recent first, each with the
 * card's details as the gateway gives them (card-details.ts). A card the gateway cannot describe
 * now is left out of the list (it is still the session's to pay with, should the element know it),
 * and so is one it describes without an expiry or last four: logged, since the merchant offered it.
 * `knows`: the groups of the session's `collect` the card's first payment gave (its order kept
 * them), which a payment with it takes from there.
 *
 * A card is listed once: two payments that each saved the same card made two references, which
 * the shopper could not tell apart (the same brand, last four and expiry, twice, is two identical
 * radio labels for a screen reader too). The most recent stands for them.
 */
import type { SavedCardView } from '../../../../contract/api-types.js';
import type { CheckoutSession } from '../../store/index.js';
import type { Context } from '../context.js';
import { groupsToType } from '../customer/shopper.js';
import { cardDetailsOrNull, cardRefTag } from './card-details.js';
import { savedCardView } from './views.js';

/** What the shopper tells a card by: its brand, last four and expiry. */
const shownAs = (card: SavedCardView) =>
  `${card.brand} ${card.last4} ${card.expMonth}/${card.expYear}`;

export async function offeredCards(
  ctx: Context,
  session: Pick<CheckoutSession, 'id' | 'offersSavedCards' | 'collect' | 'customer'>,
): Promise<SavedCardView[]> {
  if (!session.offersSavedCards) return [];
  const offers = await ctx.store.sessionCards.offered(session.id);
  if (offers.length === 0) return [];
  const details = await Promise.all(offers.map((o) => cardDetailsOrNull(ctx, o.cardRef.id)));
  const now = new Date();
  const listed = new Set<string>();
  return offers.flatMap((offer, i) => {
    const known = details[i];
    if (!known) return []; // cardDetailsOrNull logged why
    const view = savedCardView(offer, known, now);
    if (view) {
      if (listed.has(shownAs(view))) return [];
      listed.add(shownAs(view));
      // The session's groups the card's first payment gave: the shopper is not asked them again.
      const knows = groupsToType(session, offer.keptCustomer).known;
      return [knows.length > 0 ? { ...view, knows } : view];
    }
    ctx.logger.warn(
      { sessionId: session.id, cardRef: cardRefTag(ctx, offer.cardRef.id) },
      'saved card not shown: the gateway gave no expiry or last four',
    );
    return [];
  });
}
