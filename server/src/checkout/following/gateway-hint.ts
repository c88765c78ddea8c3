/**
 * What a gateway callback or a final redirect may do: wake up the transactions it names, nothing
 * more. Its control covers only `status + orderid + client_orderid`, glued with no separator, and
 * neither `type` nor `amount` (docs/gateway.md#callbacks-are-hints), so a shopper holding one valid
 * control can shift the boundary between the ids or relabel the type. We therefore never apply its
 * fields: we ask the gateway `status` of our own transaction, by our own ids, and apply that answer
 * only when it describes what we sent (following/status-match.ts).
 */
import { MONEY_OPERATION_KINDS, type Order } from '../../store/index.js';
import type { Context } from '../context.js';
import { pollOperation } from '../operations/follow-operation.js';
import { pollMoneyOp } from '../operations/money-ops.js';
import { isPending, pollOnce } from './follow.js';

/** The signed fields of a callback or final redirect whose control was verified. */
export interface GatewayHint {
  orderid: string;
  clientOrderId: string;
}

/**
 * The checkout order a hint may wake: the one holding its orderid as gateway order id with the
 * same client_orderid, or the one with its client_orderid that has no gateway order id yet
 * (asked by client_orderid). An order whose stored gateway order id differs is never woken.
 */
async function orderOf(ctx: Context, hint: GatewayHint): Promise<Order | null> {
  const order =
    (await ctx.store.orders.getByGatewayOrderId(hint.orderid)) ??
    (await ctx.store.orders.getByClientOrderId(hint.clientOrderId));
  if (!order) return null;
  const same =
    order.clientOrderId === hint.clientOrderId &&
    (order.gatewayOrderId === null || order.gatewayOrderId === hint.orderid);
  if (!same) {
    ctx.logger.warn(
      { orderId: order.id, orderid: hint.orderid, clientOrderId: hint.clientOrderId },
      'gateway hint names another transaction of this order; ignored',
    );
    return null;
  }
  return order;
}

/**
 * Asks the gateway about everything the hint names that is still pending (the order's payment,
 * its capture/void/return, a merchant operation on that orderid) and applies what it says.
 * Answers the order, as it now stands, when the hint named one. `found`: sees the order as it
 * stood before anything was asked (a callback's lag is measured from it).
 */
export async function wakeOnHint(
  ctx: Context,
  hint: GatewayHint,
  found?: (order: Order) => void,
): Promise<Order | null> {
  let order = await orderOf(ctx, hint);
  if (order) found?.(order);
  if (order && isPending(order)) order = await pollOnce(ctx, order);
  const gatewayOrderId = order?.gatewayOrderId ?? hint.orderid;
  for (const operation of await ctx.store.operations.pendingOnGatewayOrder(gatewayOrderId)) {
    const isMoneyOp = (MONEY_OPERATION_KINDS as readonly string[]).includes(operation.kind);
    if (isMoneyOp && !order) continue;
    await (isMoneyOp ? pollMoneyOp(ctx, operation) : pollOperation(ctx, operation));
  }
  return order;
}
