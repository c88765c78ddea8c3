/**
 * The gateway's callback receiver (`server_callback_url`): HTTP GET with query parameters and
 * `control = sha1(status + orderid + client_orderid + merchant_control)`. Verified in constant
 * time; a forged one changes nothing and gets 403. Recorded once per (orderid, status, type) and
 * acted on once; every repeat still gets 200 so the gateway stops retrying.
 */
import { Router } from 'express';
import { verifyControl } from '../signing/index.js';
import type { Order } from '../store/index.js';
import type { Context } from './context.js';
import { settleOperationFromCallback } from './operations-status.js';
import { finalizeOrder } from './payments/apply-status.js';
import { isFinalStatus } from './payments/next-action.js';

function field(query: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = query[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

export function callbackRouter(ctx: Context): Router {
  const router = Router();
  router.get('/gateway', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const status = field(query, 'status');
    const orderid = field(query, 'orderid', 'paynet-order-id');
    const clientOrderId = field(query, 'client_orderid', 'merchant_order', 'merchant-order-id');
    const control = field(query, 'control');
    const valid =
      status !== undefined &&
      orderid !== undefined &&
      clientOrderId !== undefined &&
      verifyControl(
        'final-notification',
        { status, orderid, client_orderid: clientOrderId },
        ctx.config.gateway.controlKey,
        control,
      );
    if (!valid || !status || !orderid) {
      ctx.logger.warn({ orderid, clientOrderId, status }, 'callback with a bad control refused');
      res.status(403).type('text/plain').send('Forbidden');
      return;
    }
    const type = field(query, 'type') ?? '';
    const recorded = await ctx.store.callbacks.recordOnce({
      gatewayOrderId: orderid,
      clientOrderId,
      status,
      type,
      query,
    });
    if (!recorded.isNew && recorded.callback.processedAt) {
      res.type('text/plain').send('OK');
      return;
    }
    await applyCallback(ctx, {
      status,
      orderid,
      clientOrderId: clientOrderId as string,
      type,
      query,
    });
    await ctx.store.callbacks.markProcessed(recorded.callback.id);
    res.type('text/plain').send('OK');
  });
  return router;
}

interface CallbackFacts {
  status: string;
  orderid: string;
  clientOrderId: string;
  type: string;
  query: Record<string, unknown>;
}

async function applyCallback(ctx: Context, cb: CallbackFacts): Promise<void> {
  const order: Order | null =
    (await ctx.store.orders.getByGatewayOrderId(cb.orderid)) ??
    (await ctx.store.orders.getByClientOrderId(cb.clientOrderId));
  // Only the payment's own outcome moves the order; capture/return callbacks are the merchant
  // operation's business (their `type` names them).
  const ofPayment = cb.type === '' || cb.type === 'sale' || cb.type === 'preauth';
  if (order && order.clientOrderId === cb.clientOrderId && ofPayment) {
    if (isFinalStatus(cb.status)) {
      await finalizeOrder(ctx, order, {
        status: cb.status,
        gatewayOrderId: cb.orderid,
        reason: field(cb.query, 'error_message', 'error-message')?.replace(/^null$/, ''),
        errorCode: field(cb.query, 'error_code', 'error-code'),
      });
    }
    return;
  }
  await settleOperationFromCallback(ctx, cb);
}
