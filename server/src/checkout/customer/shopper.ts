/**
 * What the shopper typed in the element (contract ShopperDetails) and the customer an attempt
 * carries: the session's customer, the groups a saved card's first payment gave (when the card is
 * paid with), then what the shopper typed, each group whole. The shopper types exactly the groups
 * the session asks for and the card does not know: a missing one is a 400 naming it, and so is
 * one it does not ask for (the browser cannot override what the merchant sent). All of it is
 * checked before anything is claimed or sent, so a 400 changes nothing.
 */
import { z } from 'zod';
import type { CollectGroup } from '../../../../contract/api-types.js';
import type { CheckoutSession, JsonObject } from '../../store/index.js';
import { badRequest } from '../errors.js';
import {
  ADDRESS_LINE,
  addressIssues,
  CITY,
  Country,
  Email,
  normalisedPhone,
  PhoneText,
  State,
  TYPED_ZIP_CODE,
  zipCodeForm,
} from './fields.js';
import {
  ADDRESS_FIELDS,
  COLLECT_GROUPS,
  collectGroups,
  groupFields,
  knownGroups,
} from './groups.js';
import { stateCode } from './state-names.js';

export const BillingAddressSchema = z
  .object({
    country: Country,
    address1: ADDRESS_LINE,
    city: CITY,
    // '' where the country has no postal codes (the element shows no field there).
    zipCode: TYPED_ZIP_CODE.default(''),
    state: State.optional(),
  })
  .strict();

export const ShopperSchema = z
  .object({
    email: Email.optional(),
    phone: PhoneText.optional(),
    billingAddress: BillingAddressSchema.optional(),
  })
  .strict();

export type Shopper = z.output<typeof ShopperSchema>;

/** The groups the shopper must type in `session` paying with a card that kept `kept`. */
export function groupsToType(
  session: Pick<CheckoutSession, 'collect' | 'customer'>,
  kept: JsonObject | null = null,
): { asked: CollectGroup[]; known: CollectGroup[] } {
  const all = collectGroups(session.collect, session.customer);
  const known = knownGroups(all, kept);
  return { asked: all.filter((group) => !known.includes(group)), known };
}

const fail = (path: string, message: string) => badRequest(path, `${path}: ${message}`);

/**
 * The customer the attempt carries, or a 400 `validation` naming the field (`shopper.email`,
 * `shopper.billingAddress.zipCode`). `kept`: the customer of the saved card paid with, if any.
 */
export function customerForPayment(
  session: Pick<CheckoutSession, 'collect' | 'customer'>,
  shopper: Shopper | undefined,
  kept: JsonObject | null = null,
): JsonObject {
  const { asked, known } = groupsToType(session, kept);
  const typed: Shopper = shopper ?? {};
  for (const group of COLLECT_GROUPS) {
    const given = typed[group] !== undefined;
    if (given && !asked.includes(group)) {
      const why = known.includes(group)
        ? 'the saved card already gave it'
        : 'this checkout session does not ask for it (the merchant sent it)';
      throw fail(`shopper.${group}`, `must not be sent: ${why}`);
    }
    if (!given && asked.includes(group))
      throw fail(`shopper.${group}`, 'is required: this checkout session asks for it');
  }
  const customer: JsonObject = { ...session.customer };
  const replace = (group: CollectGroup, fields: JsonObject) => {
    for (const field of group === 'billingAddress' ? ADDRESS_FIELDS : [group])
      delete customer[field];
    Object.assign(customer, fields);
  };
  for (const group of known) replace(group, groupFields(group, kept ?? {}));
  const address = typed.billingAddress;
  if (address) {
    const issue = addressIssues(address, true)[0];
    if (issue) throw fail(`shopper.billingAddress.${issue.field}`, issue.message);
    replace('billingAddress', {
      ...groupFields('billingAddress', {
        ...address,
        zipCode: undefined,
        state: address.state && stateCode(address.country, address.state),
      }),
      ...(address.zipCode ? { zipCode: zipCodeForm(address.zipCode) } : {}),
    });
  }
  if (typed.email !== undefined) replace('email', { email: typed.email });
  if (typed.phone !== undefined) {
    const country = typeof customer.country === 'string' ? customer.country : undefined;
    const phone = normalisedPhone(typed.phone, country);
    if ('issue' in phone) throw fail('shopper.phone', phone.issue.message);
    replace('phone', { phone: phone.phone });
  }
  return customer;
}
