/**
 * A card's brand from its number's leading digits, as the gateway names brands (`VISA`, ...).
 * Shared by the backend (what it may keep of a card) and the sandbox (what its status reports).
 */
const BRANDS: readonly [brand: string, prefix: RegExp][] = [
  ['VISA', /^4/],
  ['MIR', /^220[0-4]/],
  ['MASTERCARD', /^(5[1-5]|2[2-7])/],
  ['AMEX', /^3[47]/],
  ['DISCOVER', /^(6011|65)/],
  ['JCB', /^35/],
];

export function brandOf(pan: string): string {
  return BRANDS.find(([, prefix]) => prefix.test(pan))?.[0] ?? 'UNKNOWN';
}
