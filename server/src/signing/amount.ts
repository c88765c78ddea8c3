/**
 * Money as exact decimal strings and integer minor units. JavaScript floats cannot do this
 * (`19.99 * 100` is 1998.9999999999998), so every conversion is string arithmetic.
 */
import { currencyExponent } from './currencies.js';
import { SigningError } from './errors.js';

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

function exponentOf(currency: string): number {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) {
    throw new SigningError('unknown-currency', `currency "${currency}" is not an ISO 4217 code`);
  }
  return exponent;
}

/**
 * "10.42" EUR -> 1042; "500" JPY -> 500; "1.5" KWD -> 1500. Refuses negatives, signs, exponent
 * notation, spaces, a bare "." and more decimals than the currency has.
 */
export function toMinorUnits(amount: string, currency: string): number {
  const exponent = exponentOf(currency);
  const match = DECIMAL.exec(amount);
  if (!match) {
    throw new SigningError('invalid-amount', `amount "${amount}" is not a plain decimal number`);
  }
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) {
    throw new SigningError(
      'invalid-amount',
      `amount "${amount}" has ${fraction.length} decimals; ${currency} has ${exponent}`,
    );
  }
  const minor = Number(whole + fraction.padEnd(exponent, '0'));
  if (!Number.isSafeInteger(minor)) {
    throw new SigningError('invalid-amount', `amount "${amount}" is too large`);
  }
  return minor;
}

/**
 * The amount as a control value carries it (scheme A rule 3, "10.00 becomes 1000"): the decimal
 * amount × 100, whatever the currency, as the spec says "cents" and the gateway family's libraries
 * multiply by 100 (docs/gateway.md#amounts). "10.00" -> "1000", JPY "500" -> "50000", KWD "1.500"
 * -> "150". An amount that is not a whole number of cents (KWD "1.234" would be 123.4) has no
 * control value and is refused, never rounded (docs/gateway.md#amounts).
 */
export function toControlCents(amount: string): string {
  const match = DECIMAL.exec(amount);
  if (!match) {
    throw new SigningError('invalid-amount', `amount "${amount}" is not a plain decimal number`);
  }
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (/[^0]/.test(fraction.slice(2))) {
    throw new SigningError(
      'invalid-amount',
      `amount "${amount}" is not a whole number of cents (a control carries the amount × 100)`,
    );
  }
  const cents = (whole + fraction.slice(0, 2).padEnd(2, '0')).replace(/^0+(?=\d)/, '');
  if (!Number.isSafeInteger(Number(cents))) {
    throw new SigningError('invalid-amount', `amount "${amount}" is too large`);
  }
  return cents;
}

/** 1042 EUR -> "10.42"; 5 EUR -> "0.05"; 500 JPY -> "500". */
export function fromMinorUnits(minor: number, currency: string): string {
  const exponent = exponentOf(currency);
  if (!Number.isSafeInteger(minor) || minor < 0) {
    throw new SigningError('invalid-amount', `minor units ${minor} are not a whole number >= 0`);
  }
  if (exponent === 0) return String(minor);
  const digits = String(minor).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
