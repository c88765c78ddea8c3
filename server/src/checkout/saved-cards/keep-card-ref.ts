/**
 * The card reference of an approved order, made once whoever asks: the shopper's consent
 * (save-consented.ts), the reconciler, the merchant's `POST /v1/orders/{id}/card-ref`, two
 * instances at once. Not money, but never two references for one order:
 *
 * - create-card-ref is sent at most once per order: it runs as the merchant operation
 *   (`card-ref`, the order's client_orderid), which the store's unique key makes one per order; a
 *   caller that loses the race follows the winner's operation instead of sending its own;
 * - the spec's answer is `CardRefAsyncResponse`: `card-ref-id` may come in it or, later, in the
 *   status of the order's transaction, which is followed (a lost answer is `unknown`, asked the
 *   same way, never sent again);
 * - the reference is then kept in `card_refs` (one row per order, and per reference), with the
 *   brand and last four that get-card-info gives (the order's own when the gateway cannot tell
 *   now), and announced as `card_ref.created` by the one insert that made the row, in its
 *   transaction.
 */
import type { MerchantOperation, Order, StoredCardRef } from '../../store/index.js';
import { type Context, inScope } from '../context.js';
import { HttpError } from '../errors.js';
import { isFinalStatus } from '../following/next-action.js';
import { followUntilFinal } from '../operations/follow-operation.js';
import { runOperation } from '../operations/operation-runner.js';
import { finalizeOperation } from '../operations/operations-status.js';
import { gatewayBrand } from '../payments/card.js';
import { merchantOrderView } from '../payments/views.js';
import { enqueueEvent } from '../webhooks/webhooks.js';
import { cardDetailsOrNull, cardRefTag } from './card-details.js';
import { cardRefSummary } from './views.js';

export interface KeptCardRef {
  /** The create-card-ref operation: `gatewayRef` is the reference once the gateway gave it. */
  operation: MerchantOperation;
  /** The reference as kept; null while the gateway has not given it (or refused). */
  cardRef: StoredCardRef | null;
}

/**
 * Asks the status of the card-ref transaction once; keeps `card-ref-id` when it is there. Without
 * create-card-ref's own order id (its answer was lost) that is the status of the order's payment,
 * which for an attempt charged with a saved card names the reference it charged: that one is never
 * taken for the new one (the order's own reference comes, if at all, as another id).
 */
async function pollCardRef(
  ctx: Context,
  operation: MerchantOperation,
  order: Order,
): Promise<MerchantOperation> {
  try {
    const status = await inScope(ctx, { operationId: operation.id }, () =>
      ctx.gateway.status({
        client_orderid: order.clientOrderId,
        orderid: operation.gatewayOrderId ?? (order.gatewayOrderId as string),
      }),
    );
    if (status.cardRefId && status.cardRefId !== order.savedCardRef) {
      const moved = await ctx.store.operations.transition(operation.id, {
        from: [operation.status],
        to: 'approved',
        patch: { gatewayRef: status.cardRefId },
      });
      return moved.operation ?? operation;
    }
    if (isFinalStatus(status.status) && status.status !== 'approved') {
      return await finalizeOperation(ctx, operation, status.status, {
        reason: status.errorMessage,
        errorCode: status.errorCode,
      });
    }
  } catch (error) {
    ctx.logger.warn({ err: error, operationId: operation.id }, 'card reference status poll failed');
  }
  return operation;
}

/** Sends create-card-ref for the order, or, when another caller did, finds its operation. */
async function startOperation(ctx: Context, order: Order): Promise<MerchantOperation> {
  const find = () => ctx.store.operations.getByClientId('card-ref', order.clientOrderId);
  const existing = await find();
  if (existing) return existing;
  try {
    return await runOperation(
      ctx,
      { kind: 'card-ref', clientId: order.clientOrderId, data: { orderRowId: order.id } },
      () =>
        ctx.gateway.createCardRef({
          client_orderid: order.clientOrderId,
          orderid: order.gatewayOrderId as string,
        }),
      { follow: false, lostAnswer: 'fail' },
    );
  } catch (error) {
    // The unique key: another caller's operation was recorded first. It is the one to follow.
    const winner = error instanceof HttpError && error.status === 409 ? await find() : null;
    if (winner) return winner;
    throw error;
  }
}

/**
 * The order's create-card-ref operation, started or found, followed for `waitMs` until it names
 * the reference (or the gateway refused it).
 */
async function cardRefOperation(
  ctx: Context,
  order: Order,
  waitMs: number,
): Promise<MerchantOperation> {
  let op = await startOperation(ctx, order);
  if (op.gatewayRef && op.status !== 'approved') {
    // The answer carried the reference: done, as a synchronous gateway does it.
    const moved = await ctx.store.operations.transition(op.id, {
      from: [op.status],
      to: 'approved',
    });
    op = moved.operation ?? op;
  }
  if (op.gatewayRef || isFinalStatus(op.status)) return op;
  return followUntilFinal(ctx, op, waitMs, (c, current) => pollCardRef(c, current, order));
}

/** Keeps the reference of `order` and, the first time, queues `card_ref.created`. */
async function register(ctx: Context, order: Order, cardRefId: string): Promise<StoredCardRef> {
  const details = await cardDetailsOrNull(ctx, cardRefId);
  const last4 = details?.last4 && /^\d{4}$/.test(details.last4) ? details.last4 : order.cardLast4;
  const brand = details?.brand ? gatewayBrand(details.brand) : (order.cardBrand ?? 'UNKNOWN');
  const kept = await ctx.store.transaction(async (tx) => {
    const write = await tx.cardRefs.register({ id: cardRefId, orderId: order.id, brand, last4 });
    if (write.won && write.cardRef) {
      const attempts = order.sessionId ? await tx.orders.attemptsOf(order.sessionId) : [order];
      const summary = cardRefSummary(write.cardRef, order.merchantOrderId);
      await enqueueEvent(
        ctx,
        'card_ref.created',
        {
          cardRef: summary,
          order: merchantOrderView(order, attempts, !ctx.config.testMode, summary),
        },
        order.id,
        tx,
      );
    }
    return write;
  });
  if (!kept.cardRef) {
    // The reference is another order's: a gateway that answered one reference for two orders
    // (or named the one this order was charged with). Nothing is kept twice, and the other
    // order's reference is never answered as this one's; a person should look.
    ctx.logger.error(
      { orderId: order.id, heldBy: kept.heldBy, cardRef: cardRefTag(ctx, cardRefId) },
      'the gateway named a card reference this backend keeps for another order',
    );
    throw new HttpError(502, 'gateway', 'The gateway named a card reference of another order');
  }
  // The order names it: the reference is its card_refs row (and the merchant's order view).
  if (kept.won) ctx.logger.info({ orderId: order.id }, 'card reference kept');
  return kept.cardRef;
}

/**
 * Makes (or finds) the card reference of an approved order and keeps it; `waitMs`: how long to
 * follow a gateway that gives the reference later. Throws a gateway error when create-card-ref
 * itself failed to answer (the operation is then `unknown`, and is followed, never sent again,
 * by the next caller).
 */
export async function keepCardRef(
  ctx: Context,
  order: Order,
  waitMs = ctx.timing.operationFollowMs,
): Promise<KeptCardRef> {
  const known = await ctx.store.cardRefs.ofOrder(order.id);
  const operation = await cardRefOperation(ctx, order, waitMs);
  if (known) return { operation, cardRef: known };
  if (!operation.gatewayRef) return { operation, cardRef: null };
  return { operation, cardRef: await register(ctx, order, operation.gatewayRef) };
}
