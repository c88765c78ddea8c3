/**
 * The rules of a shopper's contact and billing address, one set for the merchant API's `customer`
 * and the widget API's `shopper` (contract ShopperDetails): each field's format as zod schemas,
 * and the checks that look at several fields at once (a postal code fits its country, a state
 * where the country needs one and of that country, a phone read in the billing country). Country data comes from
 * contract/address.ts, which the element checks with too.
 */
import { z } from 'zod';
import {
  isCountryCode,
  NO_POSTAL_CODE,
  postalCodeFits,
  STATE_COUNTRIES,
} from '../../../../contract/address.js';
import { holdsCardNumber } from '../../card-number.js';
import {
  isOneLine,
  NON_BLANK_LINE_PATTERN,
  ONE_LINE,
  ONE_LINE_PATTERN,
} from '../control-characters.js';
import { e164 } from './phone.js';
import { stateCode } from './state-names.js';

/**
 * One line of text (a name, an address line): the gateway refuses any control character in it.
 * `min` 0 takes '' (a postal code where the country has none).
 */
export const oneLineText = (max: number, min = 1) =>
  z
    .string()
    .trim()
    .min(min, 'is required')
    .max(max, `must be at most ${max} characters`)
    .refine(isOneLine, ONE_LINE)
    // What the refine says, for the OpenAPI documents (a refine has no JSON Schema form).
    .meta({ pattern: min > 0 ? NON_BLANK_LINE_PATTERN : ONE_LINE_PATTERN });

/** Personal text kept with the order and sent on: a card number in it is refused, never kept. */
const personalText = (max: number, min = 1) =>
  oneLineText(max, min).refine((text) => !holdsCardNumber(text), 'must not hold a card number');

export const Email = z
  .string()
  .trim()
  .pipe(z.email('must be an e-mail address').max(50, 'must be at most 50 characters'))
  .refine((text) => !holdsCardNumber(text), 'must not hold a card number');

/** As typed (`0151 12345678`, `+44 20 7946 0958`): made E.164 with its country (normalised). */
export const PhoneText = oneLineText(30);

export const Country = z
  .string()
  .refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 code in capitals, e.g. "DE"');

/** Two letters, or in the US and Canada the name too (state-names.ts; addressIssues checks it). */
export const State = personalText(40);

export const ADDRESS_LINE = personalText(50);
export const CITY = personalText(50);
export const ZIP_CODE = personalText(10);
/** A typed postal code, '' where the country has none (addressIssues says where one is needed). */
export const TYPED_ZIP_CODE = personalText(10, 0);
export const NAME = personalText(50);

/** The fields of a billing address, as both APIs name them. */
export interface AddressFields {
  country?: string | undefined;
  address1?: string | undefined;
  city?: string | undefined;
  zipCode?: string | undefined;
  state?: string | undefined;
}

export interface FieldIssue {
  /** The field's name in the object checked (`zipCode`, `phone`). */
  field: string;
  message: string;
}

/**
 * The issues of an address's fields taken together. `whole`: the address must be complete (the
 * shopper's, or the merchant's when the element will not ask): country, street, city, a postal
 * code where the country has them, a state where it needs one.
 */
export function addressIssues(address: AddressFields, whole: boolean): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const { country, zipCode } = address;
  if (whole) {
    for (const field of ['country', 'address1', 'city'] as const) {
      if (!address[field]) issues.push({ field, message: 'is required' });
    }
    if (country && !zipCode && !NO_POSTAL_CODE.includes(country))
      issues.push({ field: 'zipCode', message: `is required in ${country}` });
    if (country && !address.state && STATE_COUNTRIES.includes(country))
      issues.push({ field: 'state', message: `is required in ${country}` });
  }
  if (address.state && !stateCode(country, address.state)) {
    issues.push({
      field: 'state',
      message:
        country === 'US' || country === 'CA'
          ? `is no state or province of ${country} (its two-letter code or its name)`
          : 'must be two letters',
    });
  }
  if (zipCode && !postalCodeFits(country ?? '', zipCode)) {
    issues.push({
      field: 'zipCode',
      message: country ? `is not a postal code of ${country}` : 'is not a postal code',
    });
  }
  return issues;
}

/**
 * `phone` made E.164 (read in `region` when typed without its country code), or an issue when it
 * is no valid number there.
 */
export function normalisedPhone(
  phone: string,
  region: string | undefined,
): { phone: string } | { issue: FieldIssue } {
  const number = e164(phone, region);
  return number
    ? { phone: number }
    : { issue: { field: 'phone', message: 'is not a valid phone number' } };
}

/** A postal code as it is kept and sent: in capitals, single spaces (`n1  9gu` is `N1 9GU`). */
export const zipCodeForm = (zipCode: string) => zipCode.toUpperCase().replace(/\s+/g, ' ');
