/**
 * What counts as a shopper's personal data in the backend's logs (a contact and a billing
 * address: the merchant's customer, what the shopper typed), and how a log line shows it: masked,
 * as the gateway history masks a phone (`+44******7890`: at most the first six and last four
 * digits, at least six hidden; gateway/sanitize.ts), enough to tell two shoppers apart. A leaf
 * module, like sensitive-fields.ts.
 */
import { maskPan } from './card-number.js';

/** Names compared after lower-casing and removing `-`, `_` and spaces. */
const PERSONAL_NAMES = new Set([
  'email',
  'phone',
  'cellphone',
  'address1',
  'address2',
  'city',
  'zipcode',
  'postalcode',
  'firstname',
  'lastname',
]);

export function isPersonalFieldName(name: string): boolean {
  return PERSONAL_NAMES.has(name.toLowerCase().replace(/[-_\s]/g, ''));
}

/**
 * `value` of field `name` as a log shows it: a phone's digits as maskPan shows a card's (its `+`
 * kept), an e-mail's first letter and domain (`j***@example.com`), any other text its first
 * character.
 */
export function maskPersonal(name: string, value: string): string {
  const field = name.toLowerCase().replace(/[-_\s]/g, '');
  if (field === 'phone' || field === 'cellphone') {
    const digits = value.replace(/\D/g, '');
    return `${value.trim().startsWith('+') ? '+' : ''}${maskPan(digits)}`;
  }
  const at = value.lastIndexOf('@');
  if (field === 'email' && at > 0) return `${value.slice(0, 1)}***${value.slice(at)}`;
  return value ? `${value.slice(0, 1)}***` : value;
}
