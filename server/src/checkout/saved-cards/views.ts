/**
 * What the widget and the merchant see of a card reference. The widget never sees the reference:
 * a handle of its session stands for it. Expiry and holder come from the gateway as it answers
 * now (card-details.ts), never from the store, which does not have them.
 */
import type { SavedCardView } from '../../../../contract/api-types.js';
import { brandNamed } from '../../card-number.js';
import type { OfferedCard, StoredCardRef } from '../../store/index.js';
import { gatewayBrand } from '../payments/card.js';
import { type CardDetails, isExpired } from './card-details.js';

/**
 * A saved card as the element shows it; undefined when the gateway did not give its expiry (the
 * shopper could not tell the card from another, nor the element whether it may be chosen).
 */
export function savedCardView(
  offer: OfferedCard,
  details: CardDetails,
  now = new Date(),
): SavedCardView | undefined {
  const { expMonth, expYear } = details;
  const last4 = details.last4 ?? offer.cardRef.last4;
  if (!expMonth || !expYear || !last4) return undefined;
  const brand = details.brand ? gatewayBrand(details.brand) : offer.cardRef.brand;
  const ours = brandNamed(brand);
  return {
    handle: offer.handle,
    brand,
    ...(ours ? { brandId: ours.id } : {}),
    last4,
    expMonth,
    expYear,
    holder: details.holder ?? '',
    expired: isExpired(details, now),
  };
}

/**
 * A card reference as every stored answer may hold it (events, lists, answers kept under an
 * Idempotency-Key): never its expiry or holder. `orderId`: the merchant's id of its order.
 */
export function cardRefSummary(ref: StoredCardRef, orderId: string) {
  return {
    id: ref.id,
    orderId,
    brand: ref.brand,
    last4: ref.last4,
    createdAt: ref.createdAt.toISOString(),
    forgotten: ref.forgottenAt !== null,
  };
}

export type CardRefSummary = ReturnType<typeof cardRefSummary>;

/** The summary and the card's expiry and holder as the gateway reports them now (null: unknown). */
export function cardRefView(ref: StoredCardRef, orderId: string, details: CardDetails | null) {
  return {
    ...cardRefSummary(ref, orderId),
    expMonth: details?.expMonth ?? null,
    expYear: details?.expYear ?? null,
    holder: details?.holder ?? null,
  };
}
