/**
 * Removes card data and secrets from gateway fields before anything is stored. The history and
 * callback writers call it themselves, so a caller cannot forget to.
 *
 * Two layers: fields are dropped by name (card number, CVV, expiry, holder name, signatures,
 * anything named like a key, secret or password, in any spelling: `cvv2`, `credit-card-number`,
 * `CardNumber`...; the one list in server/src/sensitive-fields.ts), and any remaining value holding a 12-19 digit run (spaced or dashed too) that passes Luhn is masked
 * to at most first six / last four, in case a PAN hides in a field we did not foresee.
 */
import { luhnValid } from '../../../contract/card/luhn.js';
import { isCardLikeId, maskPan } from '../card-number.js';
import { isSensitiveFieldName, replacePanLike } from '../sensitive-fields.js';

export { isSensitiveFieldName };

/**
 * Masks every Luhn-valid card-number-like run in `text` (separators dropped) as `maskPan` does:
 * at most first six + stars + last four.
 */
export function maskCardNumbers(text: string): string {
  return replacePanLike(text, (run) => {
    const digits = run.replace(/[ -]/g, '');
    return luhnValid(digits) ? maskPan(digits) : run;
  });
}

/**
 * A customer's phone (`customer.phone`), which the backend made E.164 from a valid number
 * (checkout/customer/phone.ts): one of 12 to 15 digits passes the Luhn check one time in ten, and
 * masked as a card number the gateway and the merchant would get a broken one. Only there: a
 * `phone` in free metadata is masked like any other text (the gateway history masks phones anyway,
 * gateway/sanitize.ts).
 */
function isCustomerPhone(parent: string | undefined, name: string, value: unknown): boolean {
  return (
    parent === 'customer' &&
    name === 'phone' &&
    typeof value === 'string' &&
    /^\+[1-9]\d{6,14}$/.test(value)
  );
}

/**
 * An order id the API took (`orderId`, the gateway's `client_orderid`): refused there when it is
 * card-like (`isCardLikeId`, merchant-api/schemas.ts), so a Luhn-valid run inside one
 * (`ord-1732844000122`, a millisecond timestamp) is no card. Masked, it would only break the id
 * the gateway knows the order by: a late approval's reversal was then refused ("client_orderid:
 * does not match order") and both approvals stayed charged.
 */
function isOrderId(name: string, value: unknown): boolean {
  return (
    (name === 'orderId' || name === 'client_orderid') &&
    typeof value === 'string' &&
    !isCardLikeId(value)
  );
}

/**
 * A copy of `fields` without sensitive names, recursively through objects and arrays, with card
 * numbers masked in every remaining string but a customer's phone and an order id. Non-JSON values (functions, symbols) are dropped.
 */
export function sanitizeFields(fields: unknown, parent?: string): unknown {
  if (typeof fields === 'string') return maskCardNumbers(fields);
  if (typeof fields === 'number' || typeof fields === 'boolean' || fields === null) return fields;
  if (typeof fields === 'bigint') return maskCardNumbers(fields.toString());
  if (Array.isArray(fields)) return fields.map((item) => sanitizeFields(item));
  if (fields instanceof URLSearchParams) return sanitizeFields(Object.fromEntries(fields));
  if (fields instanceof Date) return fields.toISOString();
  if (typeof fields === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(fields)) {
      if (isSensitiveFieldName(name) || value === undefined) continue;
      out[name] =
        isCustomerPhone(parent, name, value) || isOrderId(name, value)
          ? value
          : sanitizeFields(value, name);
    }
    return out;
  }
  return undefined;
}

/** `sanitizeFields` for a record of fields, typed as one. */
export function sanitizeRecord(
  fields: Record<string, unknown> | URLSearchParams,
): Record<string, unknown> {
  return sanitizeFields(fields) as Record<string, unknown>;
}

/** A customer (the merchant's, or one an attempt carried) as `sanitizeRecord` keeps it. */
export function sanitizeCustomer(customer: Record<string, unknown>): Record<string, unknown> {
  return (sanitizeFields({ customer }) as { customer: Record<string, unknown> }).customer;
}
