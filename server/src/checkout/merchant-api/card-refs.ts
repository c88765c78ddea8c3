/**
 * Card references: create one from a paid order; read the card info behind one.
 *
 * The spec names create-card-ref's answer `CardRefAsyncResponse`: it may come without
 * `card-ref-id`, which the status of that transaction then carries. The backend follows it (a
 * 202 while it is not there yet; POST again to keep following) instead of failing the request.
 */
import { z } from 'zod';
import { GatewayError } from '../../gateway/index.js';
import type { MerchantOperation, Order } from '../../store/index.js';
import type { Context } from '../context.js';
import { inScope } from '../context.js';
import { HttpError, notFound } from '../errors.js';
import { finalizeOperation } from '../operations-status.js';
import { followUntilFinal } from '../payments/follow-operation.js';
import { isFinalStatus } from '../payments/next-action.js';
import { runOperation } from './operation-runner.js';
import type { RouteTable } from './route-spec.js';
import { CardInfo, CardRef, EmptyBody, ErrorResponse } from './schemas.js';

const CardRefPending = z.object({
  cardRefId: z.null(),
  orderId: z.string(),
  status: z.string().meta({ description: 'The card reference request, still pending' }),
});

/** Asks the status of the card-ref transaction once; keeps `card-ref-id` when it is there. */
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
    if (status.cardRefId) {
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
        202: {
          description: 'The gateway answered asynchronously and has not finished: POST again',
          schema: CardRefPending,
        },
        409: { description: 'The order is not approved', schema: ErrorResponse },
        422: { description: 'The gateway did not create the reference', schema: ErrorResponse },
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
      let op =
        existing ??
        (await runOperation(
          ctx,
          { kind: 'card-ref', clientId: order.clientOrderId, data: { orderRowId: order.id } },
          () =>
            ctx.gateway.createCardRef({
              client_orderid: order.clientOrderId,
              orderid: order.gatewayOrderId as string,
            }),
          { follow: false, lostAnswer: 'fail' },
        ));
      if (op.gatewayRef && op.status !== 'approved') {
        // The answer carried the reference: done, as a synchronous gateway does it.
        const moved = await ctx.store.operations.transition(op.id, {
          from: [op.status],
          to: 'approved',
        });
        op = moved.operation ?? op;
      }
      if (!op.gatewayRef) {
        op = await followUntilFinal(ctx, op, ctx.timing.operationFollowMs, (c, current) =>
          pollCardRef(c, current, order),
        );
      }
      if (op.gatewayRef) {
        res.status(201).json({ cardRefId: op.gatewayRef, orderId: order.clientOrderId });
        return;
      }
      if (isFinalStatus(op.status) && op.status !== 'approved') {
        throw new HttpError(
          422,
          'gateway',
          `The gateway did not create a card reference: ${String(op.data.reason ?? op.status)}`,
        );
      }
      res.status(202).json({ cardRefId: null, orderId: order.clientOrderId, status: op.status });
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
