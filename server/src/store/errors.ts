import { PayCheckoutError } from '../errors.js';

/** What the store refuses or finds broken; a caller's mistake or a broken invariant, never data. */
export type StoreErrorCode =
  | 'store-insert' // an insert returned no row
  | 'store-callback' // a duplicate callback vanished between two reads
  | 'store-config' // a schema name or database option is malformed
  | 'store-cursor' // a list cursor did not come from a previous page
  | 'store-field' // a patch names a field the table does not have
  | 'store-integer' // a column holds a number JavaScript cannot hold exactly
  | 'store-amount' // money not in non-negative integer minor units
  | 'store-invariant' // a state the store's own rules make impossible
  | 'store-card-ref-not-held'; // a session offers a card reference the store does not hold

export class StoreError extends PayCheckoutError {
  declare readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * A checkout session was to offer a card reference this backend did not make, or one the merchant
 * forgot: nothing was written. `cardRefId` names the first such one.
 */
export class CardRefNotHeldError extends StoreError {
  readonly cardRefId: string;

  constructor(cardRefId: string) {
    super('store-card-ref-not-held', `Card reference ${cardRefId} is not held`);
    this.cardRefId = cardRefId;
  }
}
