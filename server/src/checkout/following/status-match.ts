/**
 * Does a status answer describe the transaction we sent? A callback or a final redirect only makes
 * us ask the gateway; what we then apply is the status answer, and only when its order id,
 * transaction type, amount and currency agree with what we sent
 * (docs/gateway.md#callbacks-are-hints). The spec shows no status fields, so a field the gateway
 * leaves out is not held against it; a field it sends must agree. Pure: the caller logs and
 * decides.
 */

import type { GatewayResult } from '../../gateway/index.js';
import { toMinorUnits } from '../../signing/index.js';

export interface ExpectedTransaction {
  /** The gateway's orderid we hold, or null while we have none. */
  gatewayOrderId: string | null;
  /** The transaction types this answer may carry (`sale`, `preauth`, `capture`, ...). */
  transactionTypes?: readonly string[];
  /** The amount we sent, in minor units of `currency`. */
  amountMinor?: number | null;
  currency?: string | null;
}

/** Names the first field of `result` that contradicts `expected`, or undefined when none does. */
export function statusMismatch(
  result: Pick<GatewayResult, 'orderId' | 'transactionType' | 'amount' | 'currency'>,
  expected: ExpectedTransaction,
): string | undefined {
  if (expected.gatewayOrderId && result.orderId && result.orderId !== expected.gatewayOrderId) {
    return `orderid ${result.orderId} is not ${expected.gatewayOrderId}`;
  }
  if (
    expected.transactionTypes &&
    result.transactionType &&
    !expected.transactionTypes.includes(result.transactionType.toLowerCase())
  ) {
    return `transaction type ${result.transactionType} is not ${expected.transactionTypes.join(' or ')}`;
  }
  if (expected.currency && result.currency && result.currency.toUpperCase() !== expected.currency) {
    return `currency ${result.currency} is not ${expected.currency}`;
  }
  if (
    expected.currency &&
    expected.amountMinor !== undefined &&
    expected.amountMinor !== null &&
    result.amount
  ) {
    let minor: number | undefined;
    try {
      minor = toMinorUnits(result.amount, expected.currency);
    } catch {
      minor = undefined;
    }
    if (minor !== expected.amountMinor) {
      return `amount ${result.amount} is not the ${expected.currency} amount we sent`;
    }
  }
  return undefined;
}
