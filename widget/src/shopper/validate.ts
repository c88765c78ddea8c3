/**
 * The shopper's contact and billing address as the element asks for them: which fields each
 * group of `SessionView.collect` shows, each field's problem, what the pay request carries, and
 * which input a backend's `shopper.…` field names. Pure: the rules are contract/address.ts's,
 * the backend checks again with the same table.
 */

import { NO_POSTAL_CODE, postalCodeFits, STATE_COUNTRIES } from '../../../contract/address.js';
import type {
  BillingAddress,
  CollectGroup,
  SavedCardView,
  ShopperDetails,
} from '../../../contract/api-types.js';
import { COUNTRIES } from './countries.js';

export type ShopperField =
  | 'email'
  | 'phone'
  | 'country'
  | 'address1'
  | 'city'
  | 'zipCode'
  | 'state';

/** The fields in the order they show (and focus visits them); ShopperValues' keys. */
export const SHOPPER_FIELDS: readonly ShopperField[] = [
  'email',
  'phone',
  'country',
  'address1',
  'city',
  'zipCode',
  'state',
];

export type ShopperValues = Record<ShopperField, string>;

/** `required` or `invalid` (the street and the city are kept to the gateway's 50 characters by
 * their inputs' maxlength). */
export type ShopperProblem = 'required' | 'invalid';

/** The groups to ask: the session's, less those the chosen saved card already gave. */
export const askedGroups = (
  collect: readonly CollectGroup[] | undefined,
  saved: SavedCardView | undefined,
): CollectGroup[] => (collect ?? []).filter((g) => !saved?.knows?.includes(g));

/** The fields shown for `groups`: the postal code where the country has one, the state where it
 * needs one. */
export function shownFields(groups: readonly CollectGroup[], country: string): ShopperField[] {
  return SHOPPER_FIELDS.filter((f) =>
    f === 'email' || f === 'phone'
      ? groups.includes(f)
      : groups.includes('billingAddress') &&
        (f === 'zipCode'
          ? !NO_POSTAL_CODE.includes(country)
          : f !== 'state' || STATE_COUNTRIES.includes(country)),
  );
}

/** One field's problem, undefined when it may be sent. */
export function shopperProblem(field: ShopperField, v: ShopperValues): ShopperProblem | undefined {
  const value = v[field].trim();
  if (!value) return 'required';
  const fits =
    field === 'email'
      ? value.length <= 50 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
      : // What a phone may be typed with; the backend parses it (E.164 holds at most 15 digits).
        field === 'phone'
        ? /^\+?[\d\s().-]{6,20}$/.test(value) && value.replace(/\D/g, '').length <= 15
        : field === 'country'
          ? COUNTRIES.includes(value)
          : field === 'zipCode'
            ? postalCodeFits(v.country, value)
            : // Two letters; in the US and Canada a name too ("California", as autofill may
              // write it), which the backend reads (server/src/checkout/customer/state-names.ts).
              field !== 'state' ||
              /^[a-z]{2}$/i.test(value) ||
              (/^(US|CA)$/.test(v.country) && value.length > 2 && value.length <= 40);
  return fits ? undefined : 'invalid';
}

/** What the pay request carries for `groups`: each group whole, trimmed, codes in capitals. */
export function shopperDetails(groups: readonly CollectGroup[], v: ShopperValues): ShopperDetails {
  const t = (f: ShopperField) => v[f].trim();
  const out: ShopperDetails = {};
  if (groups.includes('email')) out.email = t('email');
  if (groups.includes('phone')) out.phone = t('phone');
  if (groups.includes('billingAddress')) {
    const shown = shownFields(groups, v.country);
    const address: BillingAddress = {
      country: v.country,
      address1: t('address1'),
      city: t('city'),
      zipCode: shown.includes('zipCode') ? t('zipCode').toUpperCase() : '',
    };
    if (shown.includes('state')) address.state = t('state').toUpperCase();
    out.billingAddress = address;
  }
  return out;
}

/**
 * The input a backend's `error.field` names (`shopper.email`, `shopper.billingAddress.zipCode`);
 * the whole address (`shopper.billingAddress`) is its first field, the country.
 */
export function fieldOfShopperPath(path: string): ShopperField | undefined {
  return path.startsWith('shopper.')
    ? (SHOPPER_FIELDS.find((f) => path.endsWith(`.${f}`)) ?? 'country')
    : undefined;
}
