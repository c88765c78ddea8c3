/**
 * Every gateway response field the backend reads, in one table: our name for it, the spellings a
 * gateway of this family may use, and where we learned it. Spellings are compared after folding
 * case and `_` into `-` (`redirect_url`, `Redirect-URL` and `redirect-url` are one spelling), so
 * only genuinely different words are listed. A merchant whose gateway names a field differently
 * edits this table and nothing else.
 *
 * Sources, as docs/gateway.md#sources defines them: "spec" is the gateway's interface spec;
 * "family" the gateway family's own docs and libraries, by the section number of the team's
 * notes (given); "ours" our own reading where neither names the field
 * (docs/gateway.md#decisions-where-the-spec-is-silent).
 */
import type { CardSummary, GatewayResult, ThreeDSInstructions } from './types/results.js';

export interface FieldSpec {
  /** Accepted spellings, first match wins, each already folded (lower case, `-`). */
  spellings: readonly string[];
  source: string;
}

type TopLevel = Exclude<keyof GatewayResult, 'threeDS' | 'card' | 'requestId' | 'raw'>;

export const RESULT_FIELDS = {
  type: { spellings: ['type'], source: 'family 1.4 (php-lib responseFieldsDefinition)' },
  status: { spellings: ['status'], source: 'spec Status operation; family 1.4, 1.5' },
  orderId: {
    spellings: ['paynet-order-id', 'orderid', 'order-id', 'paynet-orderid'],
    source: 'spec "orderid"; family 1.4 (paynet-order-id, php-lib orderid|paynet-order-id)',
  },
  clientOrderId: {
    spellings: ['merchant-order-id', 'client-orderid', 'client-order-id', 'merchant-order'],
    source: 'spec client_orderid / client-order-id; family 1.4 (merchant-order-id, merchant_order)',
  },
  serialNumber: { spellings: ['serial-number'], source: 'family 1.4' },
  endpointId: { spellings: ['end-point-id', 'endpoint-id'], source: 'family 1.4 (observed)' },
  errorCode: { spellings: ['error-code'], source: 'family 1.4 (error_code|error-code)' },
  errorMessage: {
    spellings: ['error-message'],
    source: 'family 1.4 (error_message|error-message)',
  },
  redirectUrl: {
    // Folding makes the spec's `redirect_url` and the family's `redirect-url` one spelling.
    spellings: ['redirect-url'],
    source:
      'spec sale and preauth ("For 3DS the response carries redirect_url"), hosted forms (the redirect address); family 1.4 (sale-form redirect-url)',
  },
  cardRefId: { spellings: ['card-ref-id', 'cardrefid'], source: 'spec card reference' },
  recurringPaymentId: { spellings: ['recurring-payment-id'], source: 'spec recurring payment' },
  transactionId: { spellings: ['transaction-id'], source: 'spec transfer-by-ref example' },
  payoutId: { spellings: ['payout-id'], source: 'spec v4 payout example' },
  transactionType: { spellings: ['transaction-type'], source: 'family 1.4 (WooCommerce plugin)' },
  approvalCode: { spellings: ['approval-code'], source: 'family 1.4' },
  amount: { spellings: ['amount'], source: 'family 1.4 (status response)' },
  currency: { spellings: ['currency'], source: 'family 1.4 (status response)' },
} as const satisfies Record<TopLevel, FieldSpec>;

/** What steers the shopper's browser through 3-D Secure (status and sale answers). */
export const THREE_DS_FIELDS = {
  serverTransId: {
    spellings: ['three-ds-server-trans-id', 'threedsservertransid'],
    source: 'ours (family 1.6: not found publicly); EMV name threeDSServerTransID',
  },
  methodUrl: {
    spellings: ['three-ds-method-url', 'threedsmethodurl', 'method-url'],
    source: 'ours (family 1.6: not found publicly); EMV name threeDSMethodURL',
  },
  acsUrl: {
    // acs-url, acs_url; acsurl is EMV's acsURL folded.
    spellings: ['acs-url', 'acsurl'],
    source: 'ours (family 1.6: not found publicly); EMV name acsURL',
  },
  creq: { spellings: ['creq'], source: 'ours; EMV name creq (CReq folds to it)' },
  pareq: { spellings: ['pareq'], source: 'ours; 3DS 1.0.2 name PaReq (folds to it)' },
  md: { spellings: ['md'], source: 'ours; 3DS 1.0.2 name MD (folds to it)' },
  challengeWindowSize: {
    spellings: ['challenge-window-size', 'challengewindowsize'],
    source: 'ours; EMV name challengeWindowSize',
  },
  html: { spellings: ['html'], source: 'family 1.6 (gateway-driven mode: a page to show)' },
  redirectTo: {
    spellings: ['redirect-to'],
    source: 'family 1.6 (gateway-driven mode: status redirect-to; hf-ex follows it once)',
  },
} as const satisfies Record<keyof ThreeDSInstructions, FieldSpec>;

export const CARD_FIELDS = {
  bin: { spellings: ['bin'], source: 'family 1.4' },
  lastFour: { spellings: ['last-four-digits'], source: 'family 1.4' },
  type: { spellings: ['card-type'], source: 'family 1.4' },
  expMonth: {
    spellings: ['card-exp-month', 'expire-month', 'exp-month'],
    source: 'family 1.4 (status, get-card-info)',
  },
  expYear: {
    spellings: ['card-exp-year', 'expire-year', 'exp-year'],
    source: 'family 1.4 (status, get-card-info)',
  },
  holder: {
    spellings: ['cardholder-name', 'card-holder-name', 'card-printed-name'],
    source: 'family 1.4, 1.7',
  },
  hashId: { spellings: ['card-hash-id'], source: 'family 1.4' },
} as const satisfies Record<keyof CardSummary, FieldSpec>;

/** `merchant_order`, `Merchant-Order` -> `merchant-order`: the form every spelling is kept in. */
export function foldFieldName(name: string): string {
  return name.toLowerCase().replaceAll('_', '-');
}
