/**
 * Final statuses of merchant operations (rebills, payouts, transfers, verifications, captures,
 * voids, returns): from a callback or a status poll, applied with compare-and-set so the webhook
 * `<kind>.<status>` is queued exactly once.
 */
import { type MerchantOperation, PENDING_OPERATION_STATUSES } from '../store/index.js';
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
  const moved = await ctx.store.operations.transition(operation.id, {
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
  if (moved.won && moved.operation) {
    if (status === 'approved') await recordOnOrder(ctx, moved.operation);
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
async function recordOnOrder(ctx: Context, operation: MerchantOperation): Promise<void> {
  const orderId =
    typeof operation.data.orderRowId === 'string' ? operation.data.orderRowId : undefined;
  if (!orderId) return;
  const amount = operation.amountMinor ?? 0;
  const kind = operation.kind as string;
  if (kind === 'capture') await ctx.store.orders.recordCapture(orderId, amount);
  else if (kind === 'void' || (kind === 'return' && operation.data.releasesHold === true)) {
    await ctx.store.orders.recordVoid(orderId);
  } else if (kind === 'return') await ctx.store.orders.recordReturn(orderId, amount);
}

export async function settleOperationFromCallback(
  ctx: Context,
  cb: { status: string; orderid: string; type: string; query: Record<string, unknown> },
): Promise<void> {
  const operation =
    (await ctx.store.operations.pendingByGatewayOrderId(cb.orderid, cb.type)) ??
    (await ctx.store.operations.getByGatewayOrderId(cb.orderid));
  if (!operation) {
    ctx.logger.info(
      { orderid: cb.orderid, status: cb.status },
      'callback for nothing we know; recorded only',
    );
    return;
  }
  const text = (name: string) => {
    const v = cb.query[name];
    return typeof v === 'string' && v && v !== 'null' ? v : undefined;
  };
  await finalizeOperation(ctx, operation, cb.status, {
    reason: text('error_message'),
    errorCode: text('error_code'),
  });
}
