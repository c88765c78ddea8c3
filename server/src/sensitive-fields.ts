/**
 * What counts as card data or a secret, for everything that scrubs: the gateway client's exchange
 * records, the store's writers and the logger. One list, so the three cannot drift apart. A leaf
 * module (imports nothing) so the gateway can use it without reaching into the store or checkout.
 */

/** Names compared after lower-casing and removing `-`, `_` and spaces. */
const SENSITIVE_NAMES = new Set([
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
  'cardprintedname',
  'cardholder',
  'cardholdername',
  'ssn',
  'control',
  'merchantcontrol',
  'oauthsignature',
  'signature',
  'authorization',
  'track1',
  'track2',
]);

/** Substrings that mark a secret wherever they appear in a name (`merchant_control_key`...). */
const SENSITIVE_PARTS = ['key', 'secret', 'password', 'passwd', 'token'];

/**
 * Endings that mark card data under a prefix (`destination_card_number`, `dest_cvv2`, the
 * gateway's `card-exp-month` / `card-exp-year`); `pan` only as a whole word, so `japan` or
 * `timespan` stay.
 */
const SENSITIVE_ENDINGS =
  /(cardnumber|cardno|cvv2?|cvc2?|exp(ire)?(month|year)|expiry(date)?)$|(^|[-_\s])pan$/;

function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

export function isSensitiveFieldName(name: string): boolean {
  const n = normalise(name);
  return (
    SENSITIVE_NAMES.has(n) ||
    SENSITIVE_PARTS.some((part) => n.includes(part)) ||
    SENSITIVE_ENDINGS.test(name.toLowerCase()) ||
    SENSITIVE_ENDINGS.test(n)
  );
}

/**
 * 12 to 19 digits (the lengths the widget and the merchant API accept as a card number),
 * optionally split by single spaces or dashes: anything that may be a card number. Bounded by "no
 * digit" rather than `\b`, so a PAN glued to letters or `_` (`card_4000000000000002`) is still
 * found, while a longer digit run is not cut into one.
 */
const PAN_LIKE = /(?<!\d)\d(?:[ -]?\d){11,18}(?!\d)/;

/**
 * A UUID (our order, operation and request ids) is matched first and left whole: about one in
 * thirty holds 12 or more dashed digits in a row (`d13479af-5533-4311-9065-9c77…`), which would
 * otherwise be cut out of every log line and record that names it. 32 hex digits are never a
 * card number.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const UUID_OR_PAN_LIKE = new RegExp(`(${UUID.source})|${PAN_LIKE.source}`, 'gi');

/** `text` with every card-number-like run replaced by `replace(run)`; UUIDs stay as they are. */
export function replacePanLike(text: string, replace: (run: string) => string): string {
  return text.replace(UUID_OR_PAN_LIKE, (run, uuid: string | undefined) =>
    uuid ? run : replace(run),
  );
}
