/**
 * Tolerant response parsing: JSON (the `application/vnd.pay+json` answer) or the legacy
 * form-encoded body with a newline after each value; string or number ids; `_` or `-` names.
 */
import type { CardSummary, GatewayResult, ThreeDSInstructions } from './types/results.js';

/**
 * The body as trimmed string fields, or undefined when it is neither a JSON object nor a form
 * body. Nested JSON values are kept as their JSON text; nulls are dropped.
 */
export function parseBody(text: string): Record<string, string> | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return parseJson(trimmed);
  if (/^[^=&\s<>]+=/.test(trimmed)) return parseForm(trimmed);
  return undefined;
}

function parseJson(text: string): Record<string, string> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [name, field] of Object.entries(value)) {
    if (field === null || field === undefined) continue;
    out[name] = typeof field === 'object' ? JSON.stringify(field) : String(field).trim();
  }
  return out;
}

function parseForm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  // URLSearchParams splits on `&` and decodes; the trailing newline of each value is trimmed
  // (php-lib does the same), and a key never starts with the previous line's newline.
  for (const [name, value] of new URLSearchParams(text)) {
    const key = name.trim();
    if (key) out[key] = value.trim();
  }
  return out;
}

/** `merchant_order`, `Merchant-Order` -> `merchant-order`. */
function canonical(name: string): string {
  return name.toLowerCase().replaceAll('_', '-');
}

/** Normalised name -> accepted spellings (after canonical()), first match wins. */
const ALIASES = {
  type: ['type'],
  status: ['status'],
  orderId: ['paynet-order-id', 'orderid', 'order-id', 'paynet-orderid'],
  clientOrderId: ['merchant-order-id', 'client-orderid', 'client-order-id', 'merchant-order'],
  serialNumber: ['serial-number'],
  endpointId: ['end-point-id', 'endpoint-id'],
  errorCode: ['error-code'],
  errorMessage: ['error-message'],
  redirectUrl: ['redirect-url'],
  cardRefId: ['card-ref-id', 'cardrefid'],
  recurringPaymentId: ['recurring-payment-id'],
  transactionId: ['transaction-id'],
  payoutId: ['payout-id'],
  transactionType: ['transaction-type'],
  approvalCode: ['approval-code'],
  amount: ['amount'],
  currency: ['currency'],
} as const;

/** Status response fields of merchant-side 3DS, as fixed in DESIGN.md. */
const THREE_DS = {
  serverTransId: ['three-ds-server-trans-id'],
  methodUrl: ['three-ds-method-url'],
  acsUrl: ['acs-url'],
  creq: ['creq'],
  pareq: ['pareq'],
  md: ['md'],
  challengeWindowSize: ['challenge-window-size'],
  html: ['html'],
  redirectTo: ['redirect-to'],
} as const satisfies Record<keyof ThreeDSInstructions, readonly string[]>;

const CARD = {
  bin: ['bin'],
  lastFour: ['last-four-digits'],
  type: ['card-type'],
  expMonth: ['card-exp-month', 'expire-month', 'exp-month'],
  expYear: ['card-exp-year', 'expire-year', 'exp-year'],
  holder: ['cardholder-name', 'card-holder-name', 'card-printed-name'],
  hashId: ['card-hash-id'],
} as const satisfies Record<keyof CardSummary, readonly string[]>;

/** The gateway writes `error_message=null` literally when there is none. */
const ABSENT = new Set(['', 'null']);

function pick<K extends string>(
  fields: ReadonlyMap<string, string>,
  aliases: Readonly<Record<K, readonly string[]>>,
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of Object.keys(aliases) as K[]) {
    for (const spelling of aliases[key]) {
      const value = fields.get(spelling);
      if (value !== undefined && !ABSENT.has(value)) {
        out[key] = value;
        break;
      }
    }
  }
  return out;
}

/** Raw fields -> the normalised result. `type` is '' when the body has none. */
export function normalizeResult(raw: Record<string, string>, requestId: string): GatewayResult {
  const fields = new Map<string, string>();
  for (const [name, value] of Object.entries(raw)) {
    const key = canonical(name);
    if (!fields.has(key)) fields.set(key, value);
  }
  const { type = '', ...top } = pick(fields, ALIASES);
  const result: GatewayResult = { type, ...top, requestId, raw };
  const threeDS = pick(fields, THREE_DS);
  if (Object.keys(threeDS).length > 0) result.threeDS = threeDS;
  const card = pick(fields, CARD);
  if (Object.keys(card).length > 0) result.card = card;
  return result;
}
