/**
 * Request types use the gateway's own wire names (`client_orderid`, `client-order-id`,
 * `threeDSCompInd`...): what you type is what is sent, with no renaming layer to get wrong.
 * Amounts are decimal strings in major units ("10.42"); the control value converts them.
 */

/** A field value; numbers and booleans are sent as their decimal / `true`/`false` text. */
export type WireValue = string | number | boolean;

export interface RequestBase {
  /** Fields the types do not name; sent as given. A typed field of the same name wins. */
  extra?: Readonly<Record<string, string>>;
}

/** A decimal amount in major units, e.g. "10.42" (never a float: 0.29 * 100 is not 29). */
export type DecimalAmount = string;

/** ISO 4217 alphabetic code. */
export type CurrencyCode = string;
