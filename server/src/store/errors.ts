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
  | 'store-invariant'; // a state the store's own rules make impossible

export class StoreError extends PayCheckoutError {
  declare readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
