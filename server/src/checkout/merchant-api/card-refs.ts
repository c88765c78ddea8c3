/** Card references: create one from a paid order; read the card info behind one. */
import { z } from 'zod';
import { GatewayError } from '../../gateway/index.js';
import type { Context } from '../context.js';
import { inScope } from '../context.js';
import { HttpError, notFound } from '../errors.js';
import { runOperation } from './operation-runner.js';
import type { RouteTable } from './route-spec.js';
import { CardInfo, CardRef, EmptyBody, ErrorResponse } from './schemas.js';

export function cardRefRoutes(ctx: Context, routes: RouteTable): void {
  routes.add(
    {
      method: 'post',
      path: '/orders/:orderId/card-ref',
      operationId: 'createCardRef',
      summary:
        'Tokenise the card of an approved order into a card reference (for rebills and recurring payments).',
      tag: 'Card references',
      params: { orderId: "The merchant's order id" },
      body: EmptyBody,
      responses: {
        201: { description: 'Created', schema: CardRef },
        409: { description: 'The order is not approved', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      const order = await ctx.store.orders.getByClientOrderId(params.orderId ?? '');
      if (!order) throw notFound(`Order ${params.orderId}`);
      if (order.status !== 'approved' || !order.gatewayOrderId) {
        throw new HttpError(
          409,
          'conflict',
          `Order ${order.clientOrderId} is ${order.status}; only an approved order has a card to keep`,
        );
      }
      const existing = await ctx.store.operations.getByClientId('card-ref', order.clientOrderId);
      if (existing?.gatewayRef) {
        res.status(200).json({ cardRefId: existing.gatewayRef, orderId: order.clientOrderId });
        return;
      }
      const op = await runOperation(
        ctx,
        { kind: 'card-ref', clientId: order.clientOrderId, data: { orderRowId: order.id } },
        () =>
          ctx.gateway.createCardRef({
            client_orderid: order.clientOrderId,
            orderid: order.gatewayOrderId as string,
          }),
        { follow: false, statusAfterCall: 'approved' },
      );
      if (!op.gatewayRef)
        throw new HttpError(502, 'gateway', 'The gateway returned no card reference');
      res.status(201).json({ cardRefId: op.gatewayRef, orderId: order.clientOrderId });
    },
  );

  routes.add(
    {
      method: 'get',
      path: '/card-refs/:cardRefId',
      operationId: 'getCardRef',
      summary: 'Read the card behind a card reference: BIN, last four, brand, expiry, holder.',
      tag: 'Card references',
      params: { cardRefId: 'The card reference id' },
      responses: {
        200: { description: 'Card info', schema: CardInfo },
        404: { description: 'Unknown', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      const cardRefId = z
        .string()
        .regex(/^[A-Za-z0-9-]{1,64}$/)
        .safeParse(params.cardRefId);
      if (!cardRefId.success) throw notFound('Card reference');
      try {
        const info = await inScope(ctx, {}, () =>
          ctx.gateway.getCardInfo({ cardrefid: cardRefId.data }),
        );
        const card = info.card ?? {};
        res.json({
          cardRefId: cardRefId.data,
          bin: card.bin ?? null,
          last4: card.lastFour ?? null,
          brand: card.type ?? null,
          expMonth: card.expMonth ?? null,
          expYear: card.expYear ?? null,
          holder: card.holder ?? null,
        });
      } catch (error) {
        if (error instanceof GatewayError && error.code === 'gateway-validation')
          throw notFound('Card reference');
        throw error;
      }
    },
  );
}
