/**
 * Applies what the gateway said about an order (a status response, a callback, a final
 * redirect) to the stored order, with compare-and-set so that instances racing on one order
 * cannot undo each other. Whoever wins the move to a final status runs the final-status effects
 * exactly once: the session completes, the merchant's webhook is queued, waiters wake up.
 */
import type { OrderStatus } from '../../../../contract/api-types.js';
import { GATEWAY_STATUSES } from '../../../../contract/order-status.js';
import type { StatusResponse } from '../../gateway/index.js';
import { type Order, PENDING_ORDER_STATUSES } from '../../store/index.js';
import { type Context, notifyOrder } from '../context.js';
import { reverseSoon, settleAttempt } from '../payments/attempts.js';
import { isBankUrl } from '../payments/bank-urls.js';
import { type CardSummary, cardFromGateway } from '../payments/card.js';
import { gatewayPageUrl, returnUrlOf } from '../payments/urls.js';
import { saveCardSoon } from '../saved-cards/save-consented.js';
import { logRefusedUrl } from '../three-ds/refused-url.js';
import { gatewayStillAwaits } from '../three-ds/sent-upload.js';
import { resendLostUpload } from '../three-ds/three-ds.js';
import { challengeKey, readFlow, sameAction, WAIT, writeFlow } from './flow-state.js';
import {
  isFinalStatus,
  mapStatusToAction,
  type StoredAction,
  statusFieldsOf,
} from './next-action.js';
import { statusMismatch } from './status-match.js';

export interface FinalFacts {
  status: OrderStatus;
  gatewayOrderId?: string | undefined;
  reason?: string | undefined;
  errorCode?: string | undefined;
  /** The card the gateway names, kept when the order has none (a hosted form's). */
  card?: CardSummary | undefined;
}

/**
 * Moves a pending order to a final status; the order as it stands when another writer got there
 * first. The move, what it means for its session (attempts.ts, settleAttempt) and its webhooks
 * commit together: a crash or a failed
 * write in between leaves the order pending, and the next status poll or reconciler pass does it
 * all again, never half.
 */
export async function finalizeOrder(ctx: Context, order: Order, facts: FinalFacts): Promise<Order> {
  const flow = readFlow(order);
  const write = await ctx.store.transaction(async (tx) => {
    const moved = await tx.orders.transition(order.id, {
      from: PENDING_ORDER_STATUSES,
      to: facts.status,
      patch: {
        // Final: nothing is waiting on a lost upload any more.
        nextAction: writeFlow({ ...flow, next: { action: 'final' }, sent: undefined }),
        ...(facts.gatewayOrderId && !order.gatewayOrderId
          ? { gatewayOrderId: facts.gatewayOrderId }
          : {}),
        ...(facts.card && !order.cardLast4
          ? {
              cardBrand: facts.card.brand,
              cardLast4: facts.card.last4,
              cardMasked: facts.card.masked,
            }
          : {}),
        // An earlier "not answered yet" note must not outlive the answer.
        reason: facts.reason ? facts.reason.slice(0, 500) : null,
        errorCode: facts.errorCode ? facts.errorCode.slice(0, 50) : null,
      },
    });
    const settled = moved.won && moved.order ? await settleAttempt(ctx, tx, moved.order) : 'none';
    return { ...moved, settled };
  });
  if (!write.order) return order;
  if (write.won) {
    ctx.logger.info(
      { orderId: order.id, clientOrderId: order.clientOrderId, status: write.order.status },
      'order reached a final status',
    );
    notifyOrder(ctx, order.id);
    ctx.metrics.payment(write.order);
    if (write.settled === 'kept' || write.settled === 'ended')
      ctx.metrics.orderSettled(write.order);
    if (write.settled === 'reverse') reverseSoon(ctx, write.order);
    // The card the shopper agreed to save, now that its payment is kept (and only then).
    if (write.settled === 'kept') saveCardSoon(ctx, write.order);
  }
  return write.order;
}

/**
 * Folds one status response into the order; answers the order as it now stands. An answer that
 * describes another transaction (its order id, type, amount or currency differ from what we sent)
 * is never applied: the order stays as it was and the disagreement is logged at `error` (the
 * answer itself is in the gateway history).
 */
export async function applyStatus(
  ctx: Context,
  order: Order,
  result: StatusResponse,
): Promise<Order> {
  if (!PENDING_ORDER_STATUSES.includes(order.status)) return order;
  const mismatch = statusMismatch(result, {
    gatewayOrderId: order.gatewayOrderId,
    // A saved card is charged by make-rebill: its status names that transaction, not a sale.
    transactionTypes: [order.savedCardRef ? 'rebill' : order.intent],
    amountMinor: order.amountMinor,
    currency: order.currency,
  });
  if (mismatch) {
    ctx.logger.error(
      { orderId: order.id, requestId: result.requestId, mismatch },
      'status answer disagrees with the order; not applied',
    );
    return order;
  }
  const status = (GATEWAY_STATUSES as readonly string[]).includes(result.status)
    ? (result.status as OrderStatus)
    : 'processing';
  if (isFinalStatus(status)) {
    return finalizeOrder(ctx, order, {
      status,
      gatewayOrderId: result.orderId,
      reason: result.errorMessage,
      errorCode: result.errorCode,
      card: cardFromGateway(result.card),
    });
  }
  const flow = readFlow(order);
  const t = result.threeDS ?? {};
  const fields = statusFieldsOf(result, status);
  const mapped = mapStatusToAction(fields, {
    returnUrl: returnUrlOf(ctx, order),
    gatewayPageUrl: gatewayPageUrl(ctx.config.publicUrl, order.returnRef),
    methodDone: order.threeDsCompInd !== null,
    isBankUrl: (url: unknown) => isBankUrl(ctx.config, url),
    challengeWindowSize: flow.challengeWindowSize,
    salePage: flow.salePage,
  });
  // A gateway URL the browser must not follow: the order waits, and its status decides.
  if (mapped.refused) logRefusedUrl(ctx, { orderId: order.id }, mapped.refused);
  let next: StoredAction = mapped.next;
  // A challenge we already answered may linger in the gateway's status for a moment.
  const key = challengeKey(next);
  if (key && flow.answered.includes(key)) next = WAIT;
  // An upload whose answer was lost: while the status still asks for it the gateway never got
  // it (keep it, to send again); once the status moved past it, it arrived.
  const sent = flow.sent && gatewayStillAwaits(flow.sent, fields, key) ? flow.sent : undefined;
  const gatewayOrderId = !order.gatewayOrderId && result.orderId ? result.orderId : undefined;
  let current = order;
  if (
    status !== order.status ||
    !sameAction(next, flow.next) ||
    gatewayOrderId ||
    sent !== flow.sent
  ) {
    const write = await ctx.store.orders.transition(order.id, {
      from: [order.status],
      to: status,
      version: order.version,
      patch: {
        nextAction: writeFlow({ ...flow, next, sent }),
        ...(gatewayOrderId ? { gatewayOrderId } : {}),
        ...(t.serverTransId && !order.threeDsServerTransId
          ? { threeDsServerTransId: t.serverTransId }
          : {}),
        ...(t.methodUrl && !order.threeDsMethodUrl && isBankUrl(ctx.config, t.methodUrl)
          ? { threeDsMethodUrl: t.methodUrl }
          : {}),
      },
    });
    // Lost: someone else moved the order meanwhile; their version is the newer truth.
    if (!write.won || !write.order) return write.order ?? order;
    notifyOrder(ctx, order.id);
    current = write.order;
  }
  return sent ? resendLostUpload(ctx, current) : current;
}
