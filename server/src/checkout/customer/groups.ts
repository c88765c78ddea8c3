/**
 * What the gateway needs of each group of shopper data (every sale of this gateway family carries
 * them: notes/gateway-facts.md 1.3), and from it what the element asks: `email` needs `email`;
 * `phone` needs `phone`; `billingAddress` needs `country`, `address1`, `city`, `zipCode` (unless
 * the country has no postal codes) and `state` (where the country needs one). A customer here is
 * flat, as the merchant API names its fields and the store keeps them.
 */

import { NO_POSTAL_CODE, STATE_COUNTRIES } from '../../../../contract/address.js';
import type {
  BillingAddress,
  CollectGroup,
  ShopperDetails,
} from '../../../../contract/api-types.js';
import type { CollectSetting, JsonObject } from '../../store/index.js';

export const COLLECT_GROUPS: readonly CollectGroup[] = ['email', 'phone', 'billingAddress'];

/** The customer's fields that make a billing address, in the order a form shows them. */
export const ADDRESS_FIELDS = ['country', 'address1', 'city', 'zipCode', 'state'] as const;

const text = (customer: JsonObject, field: string): string | undefined => {
  const value = customer[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** The customer fields the gateway needs of `group`, this customer's country deciding an address's. */
export function neededFields(group: CollectGroup, customer: JsonObject): string[] {
  if (group !== 'billingAddress') return [group];
  const country = text(customer, 'country');
  return ADDRESS_FIELDS.filter(
    (field) =>
      (field !== 'zipCode' || !country || !NO_POSTAL_CODE.includes(country)) &&
      (field !== 'state' || (country !== undefined && STATE_COUNTRIES.includes(country))),
  );
}

/** The needed fields of `group` that `customer` lacks, in form order. */
export function missingFields(group: CollectGroup, customer: JsonObject): string[] {
  return neededFields(group, customer).filter((field) => text(customer, field) === undefined);
}

/**
 * The groups the element must ask for: `always`, or `auto` where the customer lacks a needed
 * field of the group (`never`: the merchant guaranteed it at the session's creation).
 */
export function collectGroups(collect: CollectSetting, customer: JsonObject): CollectGroup[] {
  return COLLECT_GROUPS.filter(
    (group) =>
      collect[group] === 'always' ||
      (collect[group] === 'auto' && missingFields(group, customer).length > 0),
  );
}

/** The groups of `asked` that `kept` (a saved card's customer) holds whole. */
export function knownGroups(
  asked: readonly CollectGroup[],
  kept: JsonObject | null,
): CollectGroup[] {
  if (!kept) return [];
  return asked.filter((group) => missingFields(group, kept).length === 0);
}

/** `customer`'s fields of `group` (an address: every address field it holds). */
export function groupFields(group: CollectGroup, customer: JsonObject): JsonObject {
  const fields = group === 'billingAddress' ? ADDRESS_FIELDS : [group];
  const out: JsonObject = {};
  for (const field of fields) {
    const value = text(customer, field);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/**
 * What the element's fields of `groups` start with: what the merchant sent of them. An address
 * the merchant sent part of is given with '' for the rest (the contract's BillingAddress names
 * every field); nothing for a group the merchant sent nothing of.
 */
export function prefillOf(groups: readonly CollectGroup[], customer: JsonObject): ShopperDetails {
  const prefill: ShopperDetails = {};
  for (const group of groups) {
    const fields = groupFields(group, customer);
    if (Object.keys(fields).length === 0) continue;
    if (group === 'billingAddress') {
      const { state, ...rest } = fields as Partial<Record<keyof BillingAddress, string>>;
      prefill.billingAddress = {
        country: rest.country ?? '',
        address1: rest.address1 ?? '',
        city: rest.city ?? '',
        zipCode: rest.zipCode ?? '',
        ...(state ? { state } : {}),
      };
    } else {
      prefill[group] = fields[group] as string;
    }
  }
  return prefill;
}
