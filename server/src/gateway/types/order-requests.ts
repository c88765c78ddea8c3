/** Operations on an existing transaction: capture, void, return, status. */
import type { CurrencyCode, DecimalAmount, RequestBase } from './common.js';

/** `login` is added by the client (it is the configured merchant login). */
interface ByOrder extends RequestBase {
  client_orderid: string;
  /** The gateway's id of the transaction (its `paynet-order-id`). */
  orderid: string;
  comment?: string;
}

/** Omit amount and currency to capture the full amount. */
export interface CaptureRequest extends ByOrder {
  amount?: DecimalAmount;
  /** Required with `amount`. */
  currency?: CurrencyCode;
}

/** Void never takes an amount (spec rule 4). */
export type VoidRequest = ByOrder;

/** Omit amount and currency for a full reversal (spec rule 5). */
export interface ReturnRequest extends ByOrder {
  amount?: DecimalAmount;
  currency?: CurrencyCode;
}

export interface StatusRequest extends RequestBase {
  client_orderid: string;
  /** Omit when not known yet; the control then uses an empty string. */
  orderid?: string;
  /** The status as of one request (its serial number). */
  'by-request-sn'?: string;
}
