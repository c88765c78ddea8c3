/**
 * What may be kept of a card: its brand, last four digits and a masked number (at most the first
 * six and last four, fewer leading digits for a short number: `maskPan`). The full number, CVV
 * and expiry exist only in the request that carries them.
 */
import { brandOf, maskPan } from '../../card-number.js';

export interface CardSummary {
  brand: string;
  last4: string;
  masked: string;
}

/** A brand as the gateway names it (`card-type`), made safe to show; `UNKNOWN` for none. */
export function gatewayBrand(type: string | undefined): string {
  const brand = (type ?? '')
    .toUpperCase()
    .replace(/[^A-Z0-9 ]/g, '')
    .slice(0, 30);
  return brand || 'UNKNOWN';
}

/**
 * The card as the gateway names it (`card-type`, `last-four-digits`), for a card the backend never
 * saw whole: one typed on the gateway's own page (a hosted form), or a saved card. Only the last
 * four are shown: the gateway does not say how long the number is.
 */
export function cardFromGateway(
  card: { type?: string | undefined; lastFour?: string | undefined | null } | undefined,
): CardSummary | undefined {
  const last4 = card?.lastFour ?? '';
  if (!/^\d{4}$/.test(last4)) return undefined;
  return { brand: gatewayBrand(card?.type), last4, masked: `**** ${last4}` };
}

export function summarizeCard(pan: string): CardSummary {
  return {
    brand: brandOf(pan),
    last4: pan.slice(-4),
    masked: maskPan(pan),
  };
}
