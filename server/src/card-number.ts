/**
 * Facts of a card number, shared by the backend, the store and the sandbox: its brand from the
 * leading digits, as the gateway names brands (`VISA`, ...), its Luhn check digit, and what of it
 * may be shown.
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

/** The Luhn checksum of a string of digits (length is the caller's rule). */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The card number as it may be shown: PCI DSS allows at most the first six and last four digits.
 * We also keep at least six digits hidden, so a short number shows fewer leading digits (15: 5 + 4,
 * 13: 3 + 4, 12: 2 + 4). Six unknown digits with the Luhn check still fit 100,000 numbers; a
 * 12-digit number shown as six + four would leave about ten candidates.
 */
export function maskPan(digits: string): string {
  const lead = Math.max(0, Math.min(6, digits.length - 4 - 6));
  return `${digits.slice(0, lead)}${'*'.repeat(digits.length - lead - 4)}${digits.slice(-4)}`;
}

/**
 * Whether free text a person wrote holds a card number: a run of 12 to 19 digits that passes
 * Luhn, however a person might group them (spaces, dashes, dots, slashes, line breaks). Stricter
 * than the scrubbers' pattern (sensitive-fields.ts), which masks, where this refuses.
 */
export function holdsCardNumber(text: string): boolean {
  for (const run of text.match(/\d(?:[ .\-/\t\r\n]*\d)*/g) ?? []) {
    const digits = run.replace(/\D/g, '');
    if (digits.length >= 12 && digits.length <= 19 && luhnValid(digits)) return true;
  }
  return false;
}
