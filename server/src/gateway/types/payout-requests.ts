/**
 * Recurring payments, payouts, transfers and PAN eligibility. The spec shows few fields for
 * these; the named ones are typed, the rest go through `extra`.
 */
import type { CurrencyCode, DecimalAmount, RequestBase, WireValue } from './common.js';

/** Field names follow the gateway family's hyphenated recurring-payment fields. */
export interface CreateRecurringPaymentRequest extends RequestBase {
  'card-ref-id': string;
  /** e.g. day, week, month. */
  period: string;
  interval: WireValue;
  amount: DecimalAmount;
  currency: CurrencyCode;
  'start-date'?: string;
  'max-repeats-number'?: WireValue;
  'first-name'?: string;
  'last-name'?: string;
  email: string;
  phone?: string;
  comment?: string;
  /** Where each charge's callback goes; optional while callers pass it through `extra`. */
  server_callback_url?: string;
}

/** v2 payout, HMAC-SHA1 signed. */
export interface PayoutRequest extends RequestBase {
  client_orderid: string;
  amount: DecimalAmount;
  currency: CurrencyCode;
  order_desc?: string;
  ipaddress?: string;
  card_printed_name?: string;
  credit_card_number?: string;
  expire_month?: string;
  expire_year?: string;
  account_number?: string;
  bank_name?: string;
  phone?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  server_callback_url?: string;
}

/** Hosted payout form. `email` is part of the control value chosen for it (see operations.ts). */
export interface PayoutFormRequest extends RequestBase {
  client_orderid: string;
  amount: DecimalAmount;
  currency: CurrencyCode;
  email: string;
  redirect_url: string;
  order_desc?: string;
  server_callback_url?: string;
}

/** v4 payout family (RSA): the integration examples name the merchant id `client-order-id`. */
export interface PayoutV4Request extends RequestBase {
  'client-order-id': string;
  amount: DecimalAmount;
  currency: CurrencyCode;
  order_desc: string;
  account_number?: string;
  bank_name?: string;
  'destination-card-no'?: string;
  phone?: string;
  server_callback_url?: string;
}

/** First step of a two-step payout: validate and register, no funds released. */
export type PayoutCheckRequest = PayoutV4Request;

/** Second step: executes the payout registered by payout-check. */
export interface PayoutPayRequest extends RequestBase {
  'client-order-id': string;
  /** The gateway's id of the registered payout, when known. */
  orderid?: string;
  amount?: DecimalAmount;
  currency?: CurrencyCode;
}

export interface PanEligibilitySendRequest extends RequestBase {
  'client-order-id': string;
  'sending-card-ref-id': string;
}

/** Card-to-card transfer (fields as in the spec's transfer example). */
export interface TransferRequest extends RequestBase {
  client_orderid: string;
  amount: DecimalAmount;
  currency: CurrencyCode;
  order_desc: string;
  card_printed_name?: string;
  credit_card_number?: string;
  cvv2?: string;
  expire_month?: string;
  expire_year?: string;
  ipaddress?: string;
  redirect_url?: string;
  deposit2card?: boolean | 'true' | 'false';
  'destination-card-no'?: string;
  card_recurring_payment_id?: string;
  destination_card_recurring_payment_id?: string;
}

export interface TransferByRefRequest extends RequestBase {
  'client-order-id': string;
  amount: DecimalAmount;
  currency: CurrencyCode;
  order_desc: string;
  'destination-card-no': string;
  /** The source card reference; optional while callers pass it through `extra`. */
  cardrefid?: string;
}
