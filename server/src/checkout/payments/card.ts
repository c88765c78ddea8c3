/**
 * What may be kept of a card: its brand, last four digits and a masked number (first six, last
 * four). The full number, CVV and expiry exist only in the request that carries them.
 */
import { brandOf } from '../../card-number.js';

export interface CardSummary {
  brand: string;
  last4: string;
  masked: string;
}

export function summarizeCard(pan: string): CardSummary {
  return {
    brand: brandOf(pan),
    last4: pan.slice(-4),
    masked: `${pan.slice(0, 6)}${'*'.repeat(Math.max(pan.length - 10, 0))}${pan.slice(-4)}`,
  };
}
