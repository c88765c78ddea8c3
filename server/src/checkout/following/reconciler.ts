/**
 * The reconciler: orders and operations left pending (a timeout or dropped answer left them
 * `unknown`, a shopper walked away mid-3DS, an instance died) are resolved by asking the gateway
 * their status by client_orderid (and orderid once known). Never by sending the sale again: a
 * lost answer does not mean the gateway did nothing. An order the gateway has never heard of is
 * closed as `error`, since its sale never arrived. An attempt approved after another attempt of
 * its order was kept, whose reversal has not been approved yet, is reversed (attempts.ts). A card
 * the shopper agreed to save, whose payment was kept without its reference made, is saved
 * (saved-cards/save-consented.ts).
 */
import { GatewayError } from '../../gateway/index.js';
import type { MerchantOperation, MerchantOperationKind, Order } from '../../store/index.js';
import type { Context } from '../context.js';
import { pollOperation, pollPayout } from '../operations/follow-operation.js';
import { pollMoneyOp, resendIfNeverArrived } from '../operations/money-ops.js';
import { markAnswerLost } from '../operations/operations-status.js';
import { reverseDue } from '../payments/attempts.js';
import { saveDueCards } from '../saved-cards/save-consented.js';
import { applyStatus, finalizeOrder } from './apply-status.js';
import { askOrderStatus } from './follow.js';

async function reconcileOrder(ctx: Context, order: Order): Promise<void> {
  try {
    await applyStatus(ctx, order, await askOrderStatus(ctx, order));
  } catch (error) {
    // Only the gateway's own validation-error says it has no such transaction: a 4xx with some
    // other body (a proxy's 429 or 404) says nothing about the sale, which may have gone through.
    if (
      error instanceof GatewayError &&
      error.code === 'gateway-validation' &&
      error.responseType === 'validation-error' &&
      !order.gatewayOrderId
    ) {
      ctx.logger.warn(
        { orderId: order.id },
        'the gateway has no transaction for this order; closing it as error',
      );
      await finalizeOrder(ctx, order, {
        status: 'error',
        reason: 'The payment request never reached the gateway',
      });
      return;
    }
    ctx.logger.warn({ err: error, orderId: order.id }, 'reconciliation status failed');
  }
}

/**
 * A capture, void or return the reconciler finds still `new` was reserved by a request that never
 * finished (its instance died between reserving and recording the send): it may or may not have
 * reached the gateway. It is `unknown` from now on, so that an equal earlier one is never taken
 * for it (pollMoneyOp); left `new`, it held its order for good. An `unknown` one is asked by the
 * order's status, and sent again only when that status proves the gateway never took it
 * (money-ops.ts, resendIfNeverArrived), so one that never arrived settles within a pass or two
 * rather than hold its order for good. The reconciler looks only at operations untouched for
 * reconcileAfterSeconds (60 s), longer than a live request waits for the gateway (30 s).
 */
async function reconcileMoneyOp(
  ctx: Context,
  operation: MerchantOperation,
): Promise<MerchantOperation> {
  const settled =
    operation.status === 'new'
      ? await markAnswerLost(ctx, operation, new Error('reserved, never recorded as sent'))
      : operation;
  return resendIfNeverArrived(ctx, await pollMoneyOp(ctx, settled));
}

/**
 * The operations that move money, each asked the way its kind needs. A rebill, payout or
 * transfer whose answer was lost is found by its client_orderid (pollOperation); without this a
 * merchant would see it `unknown` for ever and might send it again under a new id.
 */
const POLL_BY_KIND: Partial<
  Record<
    MerchantOperationKind,
    (ctx: Context, operation: MerchantOperation) => Promise<MerchantOperation>
  >
> = {
  capture: reconcileMoneyOp,
  void: reconcileMoneyOp,
  return: reconcileMoneyOp,
  rebill: pollOperation,
  transfer: pollOperation,
  payout: pollPayout,
};

/** One pass over what is due; answers how many items were looked at. */
export async function reconcileOnce(
  ctx: Context,
  olderThanSeconds = ctx.timing.reconcileAfterSeconds,
): Promise<number> {
  const orders = await ctx.store.orders.needingReconciliation({ olderThanSeconds, limit: 50 });
  // One item that cannot be settled now (its status or its write failed) waits for the next pass
  // without holding up the others.
  const settle = (work: Promise<unknown>, ids: Record<string, string>) =>
    work.catch((error: unknown) =>
      ctx.logger.error({ err: error, ...ids }, 'reconciling failed; the next pass tries again'),
    );
  for (const order of orders) {
    if (ctx.closing()) break;
    await settle(reconcileOrder(ctx, order), { orderId: order.id });
  }
  const operations = await ctx.store.operations.needingReconciliation({
    olderThanSeconds,
    kinds: Object.keys(POLL_BY_KIND) as MerchantOperationKind[],
  });
  for (const operation of operations) {
    if (ctx.closing()) break;
    const poll = POLL_BY_KIND[operation.kind];
    if (!poll) continue;
    await settle(
      poll(ctx, operation).then(async (after) => {
        // Still pending and untouched by the poll: next time, after the others.
        if (after.version === operation.version) await ctx.store.operations.touch(operation);
      }),
      { operationId: operation.id },
    );
  }
  const reversals = await reverseDue(ctx, olderThanSeconds);
  const saved = await saveDueCards(ctx, olderThanSeconds);
  const items = orders.length + operations.length + reversals + saved;
  ctx.metrics.reconciled(items);
  return items;
}
