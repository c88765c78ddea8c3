/**
 * The merchant API's side of the shopper's data (issue 35): a session's `customer` fields, each
 * optional, checked by the rules the widget API's `shopper` is checked by (checkout/customer/),
 * its `collect` setting, and the check that a group the element will never ask for is whole.
 * Kept beside schemas.ts so that its named schemas (`Customer`, `CreateSessionBody`) stay short.
 */
import { z } from 'zod';
import type { CollectGroup } from '../../../../../contract/api-types.js';
import {
  ADDRESS_LINE,
  type AddressFields,
  addressIssues,
  CITY,
  Country,
  Email,
  NAME,
  normalisedPhone,
  PhoneText,
  State,
  ZIP_CODE,
  zipCodeForm,
} from '../../customer/fields.js';
import { COLLECT_GROUPS, missingFields } from '../../customer/groups.js';
import { stateCode } from '../../customer/state-names.js';

/** Every field of a customer, each optional. */
export const CUSTOMER_FIELDS = {
  email: Email.optional(),
  firstName: NAME.optional(),
  lastName: NAME.optional(),
  address1: ADDRESS_LINE.optional(),
  city: CITY.optional(),
  state: State.optional().meta({
    description:
      'Required where the country needs one (US, CA, AU). Two letters; in the US and Canada one of their codes or its name (`California`, `Québec`), kept and sent as the code (`CA`, `QC`).',
  }),
  zipCode: ZIP_CODE.optional().meta({
    description:
      "The postal code, in the country's format where it has a common one; none in countries without postal codes.",
  }),
  country: Country.optional().meta({ description: 'ISO 3166-1 alpha-2, e.g. "DE".' }),
  phone: PhoneText.optional().meta({
    description:
      'Any common writing (`+49 151 12345678`, or `0151 12345678` with `country`): kept and sent as E.164.',
  }),
};

type CustomerInput = AddressFields & { phone?: string | undefined };

/**
 * A customer's fields taken together: the postal code fits the country (kept in capitals), the
 * state is one of the country's (kept as its code), the phone is a valid number (read in the country when typed without its code; kept as E.164).
 */
export function normaliseCustomer<T extends CustomerInput>(customer: T, ctx: z.RefinementCtx): T {
  for (const issue of addressIssues(customer, false))
    ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
  const out = { ...customer };
  if (customer.zipCode) out.zipCode = zipCodeForm(customer.zipCode);
  if (customer.state) out.state = stateCode(customer.country, customer.state) ?? customer.state;
  if (customer.phone !== undefined) {
    const phone = normalisedPhone(customer.phone, customer.country);
    if ('issue' in phone)
      ctx.addIssue({ code: 'custom', path: ['phone'], message: phone.issue.message });
    else out.phone = phone.phone;
  }
  return out;
}

const Mode = z.enum(['auto', 'always', 'never']).default('auto');

export const Collect = z
  .object({ email: Mode, phone: Mode, billingAddress: Mode })
  .strict()
  .default({ email: 'auto', phone: 'auto', billingAddress: 'auto' })
  .meta({
    description:
      'What the element asks the shopper, per group of the data every sale carries: `auto` (the default: ask when `customer` lacks what the gateway needs of the group), `always` (ask, prefilled with what you sent), `never` (you guarantee it: a `customer` lacking a field of the group is a 400 naming it). The gateway needs `email`; `phone`; and of `billingAddress` `country`, `address1`, `city`, `zipCode` (unless the country has no postal codes) and `state` (US, CA, AU).',
  });

export const CountryHint = Country.meta({
  description:
    "The country the element's billing-address part starts on when `customer` names none (ISO 3166-1 alpha-2); without it, the browser's region.",
});

/**
 * Adds an issue on `customer.<field>` for the first field a `never` group lacks: the element will
 * not ask for it, so the session could not be paid.
 */
export function neverGroupsWhole(
  value: {
    customer?: Record<string, unknown> | undefined;
    collect: Record<CollectGroup, 'auto' | 'always' | 'never'>;
  },
  ctx: z.RefinementCtx,
) {
  for (const group of COLLECT_GROUPS) {
    if (value.collect[group] !== 'never') continue;
    const missing = missingFields(group, value.customer ?? {})[0];
    if (missing === undefined) continue;
    ctx.addIssue({
      code: 'custom',
      path: ['customer', missing],
      message: `is required: collect.${group} is never, so the element will not ask for it`,
    });
    return;
  }
}
