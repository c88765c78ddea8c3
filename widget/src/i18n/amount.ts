/**
 * An amount as the shopper's locale writes it: "€10.42", "10,42 €", "‏10.42 ‏€". Three things
 * Intl alone gets wrong in a checkout:
 * - Digits are Latin in every locale (`numberingSystem: 'latn'`): the card number, expiry and
 *   code the shopper types are, and ar-SA's "١٠٫٤٢" beside "4242" would mix two digit systems
 *   in one form.
 * - In a right-to-left locale the currency is isolated as a left-to-right run (U+2066 LRI …
 *   U+2069 PDI): "US$", "CA$" would show as "$US", their neutral "$" pulled to the sentence's side.
 * - A browser without Kazakh number data (Chromium's reduced ICU) writes the root pattern
 *   ("KZT 1,234.50"); Kazakhstan's Russian has Kazakh's conventions ("1 234,50 ₸").
 */
import { isRightToLeft } from '../../../contract/languages.js';

export function formatAmount(amount: string, currency: string, locale: string): string {
  try {
    const tag = /^kk\b/i.test(locale) && (0.5).toLocaleString(locale) === '0.5' ? 'ru-KZ' : locale;
    const rtl = isRightToLeft(locale);
    return new Intl.NumberFormat(tag, { style: 'currency', currency, numberingSystem: 'latn' })
      .formatToParts(+amount)
      .map((p) => (rtl && p.type === 'currency' ? `\u2066${p.value}\u2069` : p.value))
      .join('');
  } catch {
    return `${amount} ${currency}`;
  }
}
