/** Card references, card info and rebills. `login` is added by the client where the control names it. */
import type { CurrencyCode, DecimalAmount, RequestBase } from './common.js';

/** Tokenises the card of a completed transaction. */
export interface CreateCardRefRequest extends RequestBase {
  client_orderid: string;
  orderid: string;
}

/** Same semantics as v2, signed with RSA-SHA256 (no control). */
export type CreateCardRefV4Request = CreateCardRefRequest;

export interface GetCardInfoRequest extends RequestBase {
  cardrefid: string;
}

export interface MakeRebillRequest extends RequestBase {
  client_orderid: string;
  cardrefid: string;
  amount: DecimalAmount;
  currency: CurrencyCode;
  /** php-lib MakeRebillQuery marks both mandatory. */
  order_desc: string;
  /**
   * The shopper's IP when they pay with a saved card; with the cardholder absent, the merchant
   * call's address (docs/merchant-api.md).
   */
  ipaddress: string;
  /** The shopper pays in person (a saved card): the security code they typed, for the gateway only. */
  cvv2?: string;
  server_callback_url?: string;
  /** Where 3-D Secure brings a shopper paying in person back to, as a sale's `redirect_url`. */
  redirect_url?: string;
  comment?: string;
}
