/**
 * A phone number as the backend keeps and sends it: E.164 (`+4915112345678`), parsed with
 * libphonenumber-js (its `max` metadata: the `min` build checks only a number's length, and takes
 * `12345` for a German number). A number typed without its country code is read in the billing
 * country (`0151 12345678` in DE), else in the customer's country.
 */

import type { CountryCode } from 'libphonenumber-js/max';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** E.164, or null when `text` is no valid number (in `region` when it has no country code). */
export function e164(text: string, region?: string): string | null {
  const parsed = parsePhoneNumberFromString(text, {
    ...(region ? { defaultCountry: region as CountryCode } : {}),
    extract: false,
  });
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * The gateway's `phone`, a "full international phone number" of at most 15 characters
 * (notes/gateway-facts.md 1.3): E.164 with its `+` where that fits; E.164's longest numbers
 * (15 digits, 16 characters with the `+`) go as their 15 digits, still the whole international
 * number (docs/gateway.md#request-fields).
 */
export function gatewayPhone(phone: string): string {
  return phone.length > 15 && phone.startsWith('+') ? phone.slice(1) : phone;
}
