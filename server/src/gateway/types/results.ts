/**
 * Normalised gateway responses. Every id is a string (the gateway sends some as numbers), every
 * `_`/`-` spelling is folded into one name, and `raw` keeps what arrived (trimmed strings).
 */

/**
 * What the browser must do next in 3DS (status response; docs/gateway.md#merchant-side-3ds,
 * docs/gateway.md#gateway-driven-3ds).
 */
export interface ThreeDSInstructions {
  serverTransId?: string;
  methodUrl?: string;
  acsUrl?: string;
  creq?: string;
  pareq?: string;
  md?: string;
  challengeWindowSize?: string;
  /** Gateway-driven 3DS: a page to show. */
  html?: string;
  /** Gateway-driven 3DS: where to send the browser. */
  redirectTo?: string;
}

/** Card facts the gateway returns (never a full number). */
export interface CardSummary {
  bin?: string;
  lastFour?: string;
  /** Brand, e.g. VISA. */
  type?: string;
  expMonth?: string;
  expYear?: string;
  holder?: string;
  hashId?: string;
}

export interface GatewayResult {
  /** `async-response`, `status-response`, `async-form-response`, ... */
  type: string;
  /** approved, declined, error, filtered (final); processing, unknown. */
  status?: string;
  /** The gateway's transaction id (`paynet-order-id`/`orderid`). */
  orderId?: string;
  /** The merchant's id (`merchant-order-id`/`client_orderid`/`merchant_order`). */
  clientOrderId?: string;
  serialNumber?: string;
  endpointId?: string;
  errorCode?: string;
  errorMessage?: string;
  redirectUrl?: string;
  cardRefId?: string;
  recurringPaymentId?: string;
  transactionId?: string;
  payoutId?: string;
  transactionType?: string;
  approvalCode?: string;
  amount?: string;
  currency?: string;
  threeDS?: ThreeDSInstructions;
  card?: CardSummary;
  /** The id sent as `X-Request-Id` with this call. */
  requestId: string;
  raw: Record<string, string>;
}

/** Acknowledgement of an asynchronous operation; the outcome comes by status or callback. */
export type AsyncResponse = GatewayResult;

/** Hosted forms: the address to send the customer to. */
export interface FormRedirectResponse extends GatewayResult {
  redirectUrl: string;
}

export interface StatusResponse extends GatewayResult {
  status: string;
}

export type CardRefResponse = GatewayResult;
export type CardInfoResponse = GatewayResult;
export type RecurringPaymentResponse = GatewayResult;
export type TransferResponse = GatewayResult;
export type PayoutResponse = GatewayResult;
