/**
 * Final statuses of merchant operations (rebills, payouts, transfers, verifications, captures,
 * voids, returns): from a status poll (a callback only makes us poll), applied with
 * compare-and-set so the webhook `<kind>.<status>` is queued exactly once.
 */
import {
  type CheckoutRepositories,
  type MerchantOperation,
  PENDING_OPERATION_STATUSES,
} from '../store/index.js';
import type { Context } from './context.js';
import { isFinalStatus } from './payments/next-action.js';
import { enqueueEvent } from './webhooks.js';

export async function finalizeOperation(
  ctx: Context,
  operation: MerchantOperation,
  status: string,
  facts: { reason?: string | undefined; errorCode?: string | undefined } = {},
): Promise<MerchantOperation> {
  if (!isFinalStatus(status)) {
    if (status === operation.status) return operation;
    const moved = await ctx.store.operations.transition(operation.id, {
      from: PENDING_OPERATION_STATUSES,
      to: status,
    });
    return moved.operation ?? operation;
  }
  // The move to final and its effect on the order commit together: a capture, void or return
  // being reserved on the same order (money-ops.ts) sees both or neither.
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
    if (write.won && write.operation && status === 'approved') {
      await recordOnOrder(tx, write.operation);
    }
    return write;
  });
  if (moved.won && moved.operation) {
    await enqueueEvent(
      ctx,
      `${operation.kind}.${status}`,
      { operationId: operation.id, clientId: operation.clientId, status },
      null,
    );
  }
  return moved.operation ?? operation;
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
