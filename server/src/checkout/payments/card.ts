/**
 * What may be kept of a card: its brand, last four digits and a masked number (first six, last
 * four). The full number, CVV and expiry exist only in the request that carries them.
 */
export interface CardSummary {
  brand: string;
  last4: string;
  masked: string;
}

export function brandOf(pan: string): string {
  if (/^4/.test(pan)) return 'VISA';
  if (/^220[0-4]/.test(pan)) return 'MIR';
  if (/^(5[1-5]|2[2-7])/.test(pan)) return 'MASTERCARD';
  if (/^3[47]/.test(pan)) return 'AMEX';
  if (/^(6011|65)/.test(pan)) return 'DISCOVER';
  if (/^35/.test(pan)) return 'JCB';
  return 'UNKNOWN';
}

export function summarizeCard(pan: string): CardSummary {
  return {
    brand: brandOf(pan),
    last4: pan.slice(-4),
    masked: `${pan.slice(0, 6)}${'*'.repeat(Math.max(pan.length - 10, 0))}${pan.slice(-4)}`,
  };
}
