/**
 * The shapes the widget and the merchant see, built from store rows. Card data here is brand,
 * last four and the masked number only: the store never had more.
 */
import type { NextAction, OrderView, SessionView } from '../../../../widget/src/api-types.js';
import { fromMinorUnits } from '../../signing/index.js';
import type { CheckoutSession, Order } from '../../store/index.js';
import type { StoredAction } from './next-action.js';

export function orderView(order: Order): OrderView {
  return {
    orderId: order.clientOrderId,
    ...(order.gatewayOrderId ? { gatewayOrderId: order.gatewayOrderId } : {}),
    // `new` is ours (the sale is being sent): the widget knows it as processing.
    status: order.status === 'new' ? 'processing' : order.status,
    amount: fromMinorUnits(order.amountMinor, order.currency),
    amountMinor: order.amountMinor,
    currency: order.currency,
    intent: order.intent,
    ...(order.cardBrand && order.cardLast4
      ? { card: { brand: order.cardBrand, last4: order.cardLast4, masked: order.cardMasked ?? '' } }
      : {}),
    ...(order.reason ? { reason: order.reason } : {}),
    ...(order.errorCode ? { errorCode: order.errorCode } : {}),
  };
}

export function sessionView(session: CheckoutSession, order: Order | null): SessionView {
  return {
    id: session.id,
    orderId: session.clientOrderId,
    amount: fromMinorUnits(session.amountMinor, session.currency),
    amountMinor: session.amountMinor,
    currency: session.currency,
    description: session.description,
    intent: session.intent,
    state: session.state,
    expiresAt: session.expiresAt.toISOString(),
    ...(order ? { order: orderView(order) } : {}),
  };
}

export function withOrder(action: StoredAction, order: Order): NextAction {
  return { ...action, order: orderView(order) } as NextAction;
}

/** The merchant API's order (and the webhook's `data.order`). */
export function merchantOrderView(order: Order) {
  const money = (minor: number) => fromMinorUnits(minor, order.currency);
  return {
    orderId: order.clientOrderId,
    gatewayOrderId: order.gatewayOrderId,
    sessionId: order.sessionId,
    intent: order.intent,
    status: order.status,
    amount: money(order.amountMinor),
    currency: order.currency,
    capturedAmount: money(order.capturedMinor),
    returnedAmount: money(order.returnedMinor),
    voided: order.voidedAt !== null,
    card:
      order.cardBrand && order.cardLast4
        ? { brand: order.cardBrand, last4: order.cardLast4, masked: order.cardMasked ?? '' }
        : null,
    reason: order.reason,
    errorCode: order.errorCode,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}
