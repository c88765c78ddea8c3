/**
 * Final statuses of merchant operations (rebills, payouts, transfers, verifications, captures,
 * voids, returns): from a status poll (a callback only makes us poll), applied with
 * compare-and-set so the webhook `<kind>.<status>` is queued exactly once.
 */
import {
  type CheckoutRepositories,
  type MerchantOperation,
  PENDING_OPERATION_STATUSES,
} from '../../store/index.js';
import type { Context } from '../context.js';
import { isFinalStatus } from '../following/next-action.js';
import { enqueueEvent } from '../webhooks/webhooks.js';

/**
 * The gateway may have acted but its answer was lost (a timeout, a 5xx, a dropped connection):
 * the operation is `unknown` until a status says otherwise. Never sent again; the reconciler and
 * reads ask the gateway.
 */
export async function markAnswerLost(
  ctx: Context,
  operation: MerchantOperation,
  error: unknown,
): Promise<MerchantOperation> {
  ctx.logger.warn(
    { err: error, operationId: operation.id, kind: operation.kind },
    'the gateway may have acted but its answer was lost: unknown until a status says otherwise',
  );
  const moved = await ctx.store.operations.transition(operation.id, {
    from: [operation.status],
    to: 'unknown',
  });
  return moved.operation ?? operation;
}

type Facts = { reason?: string | undefined; errorCode?: string | undefined };

/** Moves the operation to `status`; answers it as it now stands. */
export async function finalizeOperation(
  ctx: Context,
  operation: MerchantOperation,
  status: string,
  facts: Facts = {},
): Promise<MerchantOperation> {
  return (await settleOperation(ctx, operation, status, facts)).operation;
}

/**
 * finalizeOperation, also saying whether this call made the move (`won`): of two writers racing
 * to one final status, only the winner's facts are kept and only it queued the webhook.
 */
export async function settleOperation(
  ctx: Context,
  operation: MerchantOperation,
  status: string,
  facts: Facts = {},
): Promise<{ operation: MerchantOperation; won: boolean }> {
  if (!isFinalStatus(status)) {
    if (status === operation.status) return { operation, won: false };
    const moved = await ctx.store.operations.transition(operation.id, {
      from: PENDING_OPERATION_STATUSES,
      to: status,
    });
    return { operation: moved.operation ?? operation, won: moved.won };
  }
  // The move to final, its effect on the order and its webhook commit together: a capture, void
  // or return being reserved on the same order (money-ops.ts) sees both or neither.
  const moved = await ctx.store.transaction(async (tx) => {
    const write = await tx.operations.transition(operation.id, {
      from: PENDING_OPERATION_STATUSES,
      to: status,
      patch: {
        data: {
          ...operation.data,
          ...(facts.reason ? { reason: facts.reason.slice(0, 500) } : {}),
          ...(facts.errorCode ? { errorCode: facts.errorCode.slice(0, 50) } : {}),
        },
      },
    });
    if (write.won && write.operation) {
      if (status === 'approved') await recordOnOrder(tx, write.operation);
      // In the same transaction: a crash after the commit still has the event queued.
      const orderId = await merchantOrderIdOf(tx, write.operation);
      await enqueueEvent(
        ctx,
        `${operation.kind}.${status}`,
        {
          operationId: operation.id,
          kind: operation.kind,
          orderId,
          clientId: operation.clientId,
          status,
        },
        null,
        tx,
      );
    }
    return write;
  });
  return { operation: moved.operation ?? operation, won: moved.won };
}

/**
 * The merchant's order id an operation's event names (`data.orderId`, which
 * `GET /v1/events?orderId=` finds it by): the order a capture, void or return acts on, else the id
 * the operation was made under (a rebill's, a payout's, ...).
 */
async function merchantOrderIdOf(
  store: Pick<CheckoutRepositories, 'orders'>,
  operation: MerchantOperation,
): Promise<string> {
  const rowId = operation.data.orderRowId;
  const order = typeof rowId === 'string' ? await store.orders.get(rowId) : null;
  if (order) return order.merchantOrderId;
  return typeof operation.data.orderId === 'string' ? operation.data.orderId : operation.clientId;
}

/**
 * An approved capture, void or return moves the order's amounts. Called only by the writer that
 * won the operation's move to approved, so it happens once.
 */
async function recordOnOrder(
  store: Pick<CheckoutRepositories, 'orders'>,
  operation: MerchantOperation,
): Promise<void> {
  const orderId =
    typeof operation.data.orderRowId === 'string' ? operation.data.orderRowId : undefined;
  if (!orderId) return;
  const amount = operation.amountMinor ?? 0;
  const kind = operation.kind as string;
  if (kind === 'capture') await store.orders.recordCapture(orderId, amount);
  else if (kind === 'void' || (kind === 'return' && operation.data.releasesHold === true)) {
    await store.orders.recordVoid(orderId);
  } else if (kind === 'return') await store.orders.recordReturn(orderId, amount);
}
