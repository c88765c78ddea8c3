/** Display formatting of card fields. Pure string functions, no DOM. */
import { type Brand, detectBrand, maxDigits } from '../../../contract/card/brands.js';

export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * Groups digits as printed on the card ("4242 4242 4242 4242", "3782 822463 10005"), cutting at
 * the brand's longest length so a pasted value with extra characters still fits.
 */
export function formatCardNumber(
  value: string,
  brand: Brand | undefined = detectBrand(digitsOnly(value)),
): string {
  const digits = digitsOnly(value).slice(0, maxDigits(brand));
  const gaps = brand?.gaps ?? [4, 8, 12, 16];
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && gaps.includes(i)) out += ' ';
    out += digits[i];
  }
  return out;
}

/** Where the caret goes after reformatting: just after the same count of digits as before. */
export function caretAfterDigits(formatted: string, digitCount: number): number {
  if (digitCount <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/\d/.test(formatted[i]!)) seen++;
    if (seen === digitCount) return i + 1;
  }
  return formatted.length;
}

/**
 * Formats expiry input as MM/YY. A leading 2-9 can only be a month, so it becomes "0N/". Pasted
 * "12/2030" or "12-30" keep their month and take the last two digits of the year. When the shopper
 * is deleting we do not re-add the slash, or backspace could never get past it.
 */
export function formatExpiry(value: string, deleting = false): string {
  const pasted = /^\s*(\d{1,2})\s*[/\-.]\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (pasted) return `${pasted[1]!.padStart(2, '0')}/${pasted[2]!.slice(-2)}`;
  let digits = digitsOnly(value);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return deleting ? digits : `${digits}/`;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}
