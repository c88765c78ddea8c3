/**
 * Removes card data and secrets from gateway fields before anything is stored. The history and
 * callback writers call it themselves, so a caller cannot forget to.
 *
 * Two layers: fields are dropped by name (card number, CVV, expiry, holder name, signatures,
 * anything named like a key, secret or password, in any spelling: `cvv2`, `credit-card-number`,
 * `CardNumber`...), and any remaining value holding a 13-19 digit run that passes Luhn is masked
 * to first six / last four, in case a PAN hides in a field we did not foresee.
 */
import { luhnValid } from '../card-number.js';

/** Names compared after lower-casing and removing `-`, `_` and spaces. */
const DROPPED_NAMES = new Set([
  'creditcardnumber',
  'cardnumber',
  'cardno',
  'destinationcardno',
  'pan',
  'cvv',
  'cvv2',
  'cvc',
  'cvc2',
  'securitycode',
  'expiremonth',
  'expireyear',
  'expmonth',
  'expyear',
  'expiry',
  'expirydate',
  'cardprintedname',
  'cardholder',
  'cardholdername',
  'control',
  'oauthsignature',
  'signature',
  'authorization',
  'track1',
  'track2',
]);

/** Substrings that mark a secret wherever they appear in a name. */
const DROPPED_PARTS = ['key', 'secret', 'password', 'passwd', 'token'];

function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

export function isSensitiveFieldName(name: string): boolean {
  const n = normalise(name);
  return DROPPED_NAMES.has(n) || DROPPED_PARTS.some((part) => n.includes(part));
}

/** Masks every Luhn-valid 13-19 digit run in `text` to first six + stars + last four. */
export function maskCardNumbers(text: string): string {
  return text.replace(/(?<![0-9])[0-9]{13,19}(?![0-9])/g, (run) =>
    luhnValid(run) ? `${run.slice(0, 6)}${'*'.repeat(run.length - 10)}${run.slice(-4)}` : run,
  );
}

/**
 * A copy of `fields` without sensitive names, recursively through objects and arrays, with card
 * numbers masked in every remaining string. Non-JSON values (functions, symbols) are dropped.
 */
export function sanitizeFields(fields: unknown): unknown {
  if (typeof fields === 'string') return maskCardNumbers(fields);
  if (typeof fields === 'number' || typeof fields === 'boolean' || fields === null) return fields;
  if (typeof fields === 'bigint') return maskCardNumbers(fields.toString());
  if (Array.isArray(fields)) return fields.map(sanitizeFields);
  if (fields instanceof URLSearchParams) return sanitizeFields(Object.fromEntries(fields));
  if (fields instanceof Date) return fields.toISOString();
  if (typeof fields === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(fields)) {
      if (isSensitiveFieldName(name) || value === undefined) continue;
      out[name] = sanitizeFields(value);
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
