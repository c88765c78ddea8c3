/**
 * Sale, preauth, hosted forms and account verification (docs/gateway.md#request-fields). What is
 * required here is what the sandbox requires (sandbox/operations/contract.ts).
 */
import type { CurrencyCode, DecimalAmount, RequestBase } from './common.js';

export interface CustomerFields {
  first_name?: string;
  last_name?: string;
  ssn?: string;
  /** YYYYMMDD. */
  birthday?: string;
  address1: string;
  city: string;
  /** Required for US, CA and AU. */
  state?: string;
  zip_code: string;
  /** ISO 3166 alpha-2. */
  country: string;
  phone: string;
  cell_phone?: string;
  email: string;
  ipaddress: string;
  site_url?: string;
}

export interface CardFields {
  card_printed_name: string;
  credit_card_number: string;
  expire_month: string;
  expire_year: string;
  cvv2: string;
}

export interface OrderFields {
  client_orderid: string;
  order_desc: string;
  amount: DecimalAmount;
  currency: CurrencyCode;
  /** Where the payer returns after 3-D Secure (and the ACS posts cres / PaRes). */
  redirect_url: string;
  server_callback_url?: string;
  notify_url?: string;
  merchant_data?: string;
  destination?: string;
  purpose?: string;
  redirect_success_url?: string;
  redirect_fail_url?: string;
}

export interface SaleRequest extends RequestBase, OrderFields, CustomerFields, CardFields {}

/** Same fields as sale (php-lib PreauthQuery extends SaleQuery). */
export type PreauthRequest = SaleRequest;

/** Hosted form: the gateway collects the card, so card fields are not sent. */
export interface SaleFormRequest extends RequestBase, OrderFields, Partial<CustomerFields> {
  /** Part of the control value. */
  email: string;
  ipaddress: string;
}

export type PreauthFormRequest = SaleFormRequest;

/** The universal hosted form; same fields as sale-form (spec names no fields). */
export type PaymentFormRequest = SaleFormRequest;

/** A zero-amount authorisation: no amount, but the `currency` the card is checked in. */
export interface AccountVerificationRequest
  extends RequestBase,
    Omit<OrderFields, 'amount'>,
    Omit<CustomerFields, 'phone'>,
    CardFields {
  /** php-lib AccountVerificationQuery: optional here, unlike for a sale. */
  phone?: string;
}

export interface AccountVerificationFormRequest
  extends RequestBase,
    Omit<OrderFields, 'amount'>,
    Partial<CustomerFields> {
  email: string;
  ipaddress: string;
}
