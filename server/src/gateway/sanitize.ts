/**
 * Keeps secrets and card data out of anything the client hands back for logging: the request
 * fields given to `onExchange`, and the gateway texts copied into errors and exchange records
 * (a gateway may echo a field in an error message).
 */
import { maskPan } from '../card-number.js';
import { isSensitiveFieldName, replacePanLike } from '../sensitive-fields.js';
import type { Param } from '../signing/index.js';

/**
 * Field names whose values never leave the client: card data, the control value, OAuth signature
 * and anything named like a key or secret (the one list shared with the store and the logger).
 */
export const isSensitiveField = isSensitiveFieldName;

/**
 * Request fields without the sensitive ones, every card-number-like run masked as a card number
 * is shown (maskPan: at most the first six and last four digits, at least six hidden). A phone
 * number is such a run too: kept as `+44******7890`, enough to tell two customers apart, never
 * whole and never gone.
 */
export function sanitizeFields(
  fields: readonly Param[] | Readonly<Record<string, string>>,
): Record<string, string> {
  const entries: readonly Param[] = Array.isArray(fields)
    ? (fields as readonly Param[])
    : Object.entries(fields);
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (isSensitiveField(name)) continue;
    out[name] = replacePanLike(value, (run) => maskPan(run.replace(/[ -]/g, '')));
  }
  return out;
}

/**
 * Removes every PAN-like digit run and every given secret value (card number, CVV, control key,
 * control value...) from a text that came from outside, such as a gateway error message.
 * Short secrets (a CVV) are removed only as whole words, so error codes are not mangled.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = replacePanLike(text, () => '[redacted]');
  for (const secret of secrets) {
    if (!secret) continue;
    if (secret.length >= 6) {
      out = out.replaceAll(secret, '[redacted]');
    } else {
      out = out.replace(
        new RegExp(`(?<![0-9A-Za-z])${escapeRegExp(secret)}(?![0-9A-Za-z])`, 'g'),
        '[redacted]',
      );
    }
  }
  return out;
}

/**
 * Sensitive fields whose values are distinctive enough to scrub from free text. Expiry month and
 * year are left out: "12" or "2030" in a message is not worth mangling every number for.
 */
const SCRUBBED_VALUE_NAME = /(card_number|card_no|(^|_)pan|cvv2?|cvc2?|control|oauth_signature)$/;

/** The values of a request's secret fields, to be scrubbed from the gateway's answer. */
export function sensitiveValues(fields: readonly Param[]): string[] {
  return fields
    .filter(([name]) => SCRUBBED_VALUE_NAME.test(name.toLowerCase().replaceAll('-', '_')))
    .map(([, value]) => value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
