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
  | 'store-card-ref-not-held' // a session offers a card reference the store does not hold
  | 'store-client-orderid-taken' // a gateway client_orderid is held already (client-order-ids.ts)
  | 'store-unique' // a write would repeat a value the database keeps unique
  | 'store-move'; // a state move that is not in the table of moves (state-moves.ts)

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

/**
 * A write would repeat a value a unique key of the database keeps unique (PostgreSQL's 23505):
 * nothing was written. The store translates the engine's error into this one, so no caller reads
 * database codes; `constraint` names the key when the engine said (the engine's error is `cause`).
 */
export class UniqueViolationError extends StoreError {
  readonly constraint: string | null;

  constructor(constraint: string | null, options?: { cause?: unknown }) {
    super(
      'store-unique',
      `A unique value is taken${constraint ? ` (${constraint})` : ''}`,
      options,
    );
    this.constraint = constraint;
  }
}

/** PostgreSQL's code for a unique violation, on both engines (`pg` and PGlite answer it alike). */
const UNIQUE_VIOLATION = '23505';

/** `error` as the store reports it: a unique violation becomes UniqueViolationError, else as is. */
export function storeErrorOf(error: unknown): unknown {
  if ((error as { code?: unknown } | null)?.code !== UNIQUE_VIOLATION) return error;
  const constraint = (error as { constraint?: unknown }).constraint;
  return new UniqueViolationError(typeof constraint === 'string' ? constraint : null, {
    cause: error,
  });
}
