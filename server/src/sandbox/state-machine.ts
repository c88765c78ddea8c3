/**
 * The spec's transition rules, as pure checks over a transaction. Each returns the amount the
 * operation moves, or throws a 400 that says which rule refused it; the caller changes nothing
 * when it throws.
 *
 * 1. A preauth holds funds until capture (settlement) or void/return (release).
 * 2. Return on a preauth releases the hold; on a sale or capture it refunds.
 * 3. Return only from a final successful status.
 * 4. Void only while authorized and unsettled; never with an amount.
 * 5. Capture and return take amount + currency for a partial operation (return: none = full).
 * 6. A sale's outcome comes through status and callbacks.
 * 7. 3DS 2.x: method result, then CRes; 3DS 1.0.2: PaRes (three-ds.ts enforces the order).
 */
import { refused } from './http/errors.js';
import type { Transaction } from './model.js';

/** The partial amount of a capture or return, when one was sent. */
export interface PartialAmount {
  amountMinor: number;
  currency: string;
}

function requireIdle(tx: Transaction, operation: string): void {
  if (tx.pending) {
    throw refused(
      'operation-in-progress',
      `cannot ${operation} order ${tx.orderid}: a ${tx.pending.type} is still processing`,
    );
  }
  if (tx.phase !== 'done') {
    throw refused(
      'not-final',
      `cannot ${operation} order ${tx.orderid}: it is ${tx.status}, not in a final status yet`,
    );
  }
}

function requireCurrency(tx: Transaction, partial: PartialAmount | undefined): void {
  if (partial && partial.currency !== tx.currency) {
    throw refused(
      'currency-mismatch',
      `currency ${partial.currency} does not match the order's currency ${tx.currency}`,
      'currency',
    );
  }
}

/** Capture settles a preauth hold, in full or in part; what is not captured is released. */
export function checkCapture(tx: Transaction, partial: PartialAmount | undefined): number {
  if (tx.kind !== 'preauth') {
    throw refused(
      'not-a-preauth',
      `order ${tx.orderid} is a ${tx.kind}; only a preauth is captured`,
    );
  }
  requireIdle(tx, 'capture');
  if (tx.status !== 'approved' || tx.hold !== 'held') {
    const why =
      tx.hold === 'captured'
        ? 'it was already captured'
        : tx.hold === 'released'
          ? 'its hold was released (void or return)'
          : `it is ${tx.status}`;
    throw refused('no-hold', `cannot capture order ${tx.orderid}: ${why}`);
  }
  requireCurrency(tx, partial);
  const amount = partial?.amountMinor ?? tx.amountMinor;
  if (amount > tx.amountMinor) {
    throw refused(
      'amount-exceeds-hold',
      `capture amount exceeds the amount held (${tx.amountMinor} minor units)`,
      'amount',
    );
  }
  return amount;
}

/** Void cancels an authorized, unsettled transaction: a preauth still holding funds. */
export function checkVoid(tx: Transaction): number {
  requireIdle(tx, 'void');
  if (tx.status !== 'approved') {
    throw refused('not-authorized', `cannot void order ${tx.orderid}: it is ${tx.status}`);
  }
  if (tx.hold !== 'held') {
    const why =
      tx.hold === 'released'
        ? 'it was already voided or released'
        : 'it is settled; use return for a refund';
    throw refused('settled', `cannot void order ${tx.orderid}: ${why}`);
  }
  return tx.amountMinor;
}

/**
 * Return releases a held preauth (in full only) or refunds settled money, in parts that never
 * exceed what was settled.
 */
export function checkReturn(tx: Transaction, partial: PartialAmount | undefined): number {
  requireIdle(tx, 'return');
  if (tx.status !== 'approved') {
    throw refused(
      'not-successful',
      `cannot return order ${tx.orderid}: it is ${tx.status}, not a final successful status`,
    );
  }
  if (!['sale', 'preauth', 'rebill', 'recurring'].includes(tx.kind)) {
    throw refused('not-returnable', `a ${tx.kind} cannot be returned`);
  }
  requireCurrency(tx, partial);
  if (tx.hold === 'held') {
    if (partial && partial.amountMinor !== tx.amountMinor) {
      throw refused(
        'partial-release',
        'a return on a preauth releases the whole hold; send no amount (or the full amount)',
        'amount',
      );
    }
    return tx.amountMinor;
  }
  if (tx.hold === 'released') {
    throw refused('released', `cannot return order ${tx.orderid}: its hold was already released`);
  }
  const remaining = tx.settledMinor - tx.returnedMinor;
  if (remaining <= 0) {
    throw refused('fully-returned', `order ${tx.orderid} has already been returned in full`);
  }
  const amount = partial?.amountMinor ?? remaining;
  if (amount > remaining) {
    throw refused(
      'amount-exceeds-settled',
      `return amount exceeds what remains settled (${remaining} minor units)`,
      'amount',
    );
  }
  return amount;
}

/** Applies a completed management operation (after its processing delay). */
export function applyOperation(tx: Transaction): void {
  const op = tx.pending;
  if (!op) return;
  if (op.type === 'capture') {
    tx.hold = 'captured';
    tx.settledMinor = op.amountMinor;
  } else if (op.type === 'void') {
    tx.hold = 'released';
  } else if (op.type === 'return') {
    if (tx.hold === 'held') tx.hold = 'released';
    else tx.returnedMinor += op.amountMinor;
  } else if (op.type === 'payout') {
    tx.settledMinor = op.amountMinor;
  }
  tx.transactionType = op.type;
  tx.status = 'approved';
  tx.phase = 'done';
  delete tx.errorCode;
  delete tx.errorMessage;
  delete tx.pending;
}
