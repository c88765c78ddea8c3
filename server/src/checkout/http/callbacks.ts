/**
 * The gateway's callback receiver (`server_callback_url`): HTTP GET with query parameters and
 * `control = sha1(status + orderid + client_orderid + merchant_control)`. Verified in constant
 * time; a forged one changes nothing and gets 403. A genuine one is a hint, never proof
 * (gateway-hint.ts): it makes us ask the gateway the status of our own transaction. It is
 * recorded once per set of signed fields (status, orderid, client_orderid): unsigned fields such
 * as `type` cannot make a repeat look new. Every repeat still gets 200 so the gateway stops
 * retrying.
 */
import { Router } from 'express';
import { verifyControl } from '../../signing/index.js';
import type { Context } from '../context.js';
import { wakeOnHint } from '../following/gateway-hint.js';

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
    if (
      status === undefined ||
      orderid === undefined ||
      clientOrderId === undefined ||
      !verifyControl(
        'final-notification',
        { status, orderid, client_orderid: clientOrderId },
        ctx.config.gateway.controlKey,
        control,
      )
    ) {
      ctx.logger.warn({ orderid, clientOrderId, status }, 'callback with a bad control refused');
      res.status(403).type('text/plain').send('Forbidden');
      return;
    }
    const recorded = await ctx.store.callbacks.recordOnce({
      gatewayOrderId: orderid,
      clientOrderId,
      status,
      type: field(query, 'type') ?? '',
      query,
    });
    if (!recorded.isNew && recorded.callback.processedAt) {
      res.type('text/plain').send('OK');
      return;
    }
    await wakeOnHint(ctx, { orderid, clientOrderId }, (order) => ctx.metrics.callback(order));
    await ctx.store.callbacks.markProcessed(recorded.callback.id);
    res.type('text/plain').send('OK');
  });
  return router;
}
