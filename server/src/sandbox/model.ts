/**
 * The sandbox's records. A transaction is stored whole as JSON (the sandbox's own shape, free to
 * grow); the columns beside it in `sandbox_transactions` exist only for look-ups.
 */

export type TxStatus = 'approved' | 'declined' | 'error' | 'filtered' | 'processing' | 'unknown';

export type TxKind =
  | 'sale'
  | 'preauth'
  | 'account-verification'
  | 'rebill'
  | 'recurring'
  | 'payout'
  | 'transfer';

/**
 * Where a transaction is in its life. `processing` phases wait on a scheduled job; `awaiting-*`
 * phases wait on the merchant or the shopper's browser.
 */
export type Phase =
  | 'authorizing'
  | 'awaiting-form'
  /** Hosted form: the shopper is on the sandbox's own 3DS page (gateway-driven 3DS). */
  | 'form-challenge'
  | 'awaiting-method-result'
  | 'authenticating'
  | 'awaiting-challenge'
  | 'awaiting-pares'
  | 'completing'
  | 'unknown'
  | 'operation'
  | 'registered'
  | 'paying'
  | 'done';

export interface CardInfo {
  bin: string;
  lastFour: string;
  brand: string;
  holder: string;
  expMonth: string;
  expYear: string;
}

export interface ThreeDsState {
  version: '2' | '1';
  serverTransId: string;
  acsTransId: string;
  /** The ACS has a 3DS Method (the status response carries `three-ds-method-url`). */
  hasMethod: boolean;
  challengeWindowSize?: string;
  /** The ACS outcome, recorded when the shopper finishes the challenge; uploads must match it. */
  acsResult?: 'Y' | 'N';
  md?: string;
  /** Bumped on each phase change, so a stale expiry job can tell it is stale. */
  step: number;
}

/** A settled or pending management operation (capture, void, return, payout-pay). */
export interface Operation {
  type: string;
  amountMinor: number;
  status: TxStatus;
  at: number;
}

export interface Transaction {
  orderid: string;
  endpointId: string;
  clientOrderId: string;
  kind: TxKind;
  /** The status of the latest operation, as `status` reports it. */
  status: TxStatus;
  /** The latest operation: `sale`, `preauth`, `capture`, `void`, `return`, `payout`, ... */
  transactionType: string;
  phase: Phase;
  scenario: string;
  amountMinor: number;
  currency: string;
  /** Preauth: `held` until capture, void or return; `none` for everything else. */
  hold: 'none' | 'held' | 'captured' | 'released';
  /** Money settled (sale amount or captured amount) and returned so far, minor units. */
  settledMinor: number;
  returnedMinor: number;
  pending?: { type: 'capture' | 'void' | 'return' | 'payout'; amountMinor: number };
  operations: Operation[];
  card?: CardInfo;
  email?: string;
  /** The payer's contact and address fields the payment request carried, e-mail aside (`phone`,
   * `address1`, `city`, `zip_code`, `state`, `country`, `first_name`, `last_name`): what a test
   * reads back at `GET /sandbox/payer/{orderid}` (dev mode). */
  payer?: Record<string, string>;
  redirectUrl?: string;
  callbackUrl?: string;
  orderDesc?: string;
  threeDs?: ThreeDsState;
  errorMessage?: string;
  errorCode?: string;
  /** Hosted form: the opaque token of its page. */
  formToken?: string;
  /** Request fingerprint for the duplicate-client_orderid policy. */
  fingerprint: string;
  /** Payout destination kind, transfer destination, recurring payment id: small extras. */
  extra?: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

/**
 * `extra` key of a rebill paid by the shopper in person (make-rebill with `cvv2` and a
 * `redirect_url` to come back to): its scenario may ask for 3-D Secure, as a sale's does.
 */
export const SHOPPER_PRESENT = 'shopperPresent';
