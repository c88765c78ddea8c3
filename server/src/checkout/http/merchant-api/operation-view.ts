/** A merchant operation as the API shows it (never card data: the store never had it). */
import { fromMinorUnits } from '../../../signing/index.js';
import type { MerchantOperation } from '../../../store/index.js';

export function operationView(op: MerchantOperation) {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    id: op.id,
    kind: op.kind,
    orderId: text(op.data.orderId) ?? op.clientId,
    gatewayOrderId: op.gatewayOrderId,
    gatewayRef: op.gatewayRef,
    status: op.status,
    amount:
      op.amountMinor !== null && op.currency ? fromMinorUnits(op.amountMinor, op.currency) : null,
    currency: op.currency,
    reason: text(op.data.reason),
    createdAt: op.createdAt.toISOString(),
  };
}
