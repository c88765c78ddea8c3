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

export function summarizeCard(pan: string): CardSummary {
  return {
    brand: brandOf(pan),
    last4: pan.slice(-4),
    masked: maskPan(pan),
  };
}
