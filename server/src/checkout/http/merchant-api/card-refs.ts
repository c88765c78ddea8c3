/**
 * Card references: make one from a paid order (saved-cards/keep-card-ref.ts, the same path as a
 * card saved with the shopper's consent), read the card behind one, forget one.
 *
 * The spec names create-card-ref's answer `CardRefAsyncResponse`: it may come without
 * `card-ref-id`, which the status of that transaction then carries. The backend follows it (a
 * 202 while it is not there yet; POST again to keep following) instead of failing the request.
 */
import { z } from 'zod';
import { GatewayError } from '../../../gateway/index.js';
import type { Context } from '../../context.js';
import { HttpError, notFound } from '../../errors.js';
import { isFinalStatus } from '../../following/next-action.js';
import { merchantOrderOf } from '../../payments/attempts.js';
import { cardDetails } from '../../saved-cards/card-details.js';
import { forgetCardRef } from '../../saved-cards/forget.js';
import { keepCardRef } from '../../saved-cards/keep-card-ref.js';
import { cardRefSummary } from '../../saved-cards/views.js';
import type { RouteTable } from './route-spec.js';
import { CardInfo, CardRef, EmptyBody, ErrorResponse, OrderCardRef } from './schemas.js';

const CardRefPending = z.object({
  cardRefId: z.null(),
  orderId: z.string(),
  status: z.string().meta({ description: 'The card reference request, still pending' }),
});

const CARD_REF_PARAM = { cardRefId: 'The card reference id' };

/** A card reference id as a path may carry one; anything else is no reference (404). */
function cardRefIdOf(value: string | undefined): string {
  const id = z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/)
    .safeParse(value);
  if (!id.success) throw notFound('Card reference');
  return id.data;
}

export function cardRefRoutes(ctx: Context, routes: RouteTable): void {
  routes.add(
    {
      method: 'post',
      path: '/orders/:orderId/card-ref',
      operationId: 'createCardRef',
      summary:
        "Tokenise the card of an approved order into a card reference (for rebills, recurring payments and checkout sessions' `savedCards`); the same one a shopper's consent made, if it did, and announced as `card_ref.created` when made.",
      tag: 'Card references',
      params: { orderId: "The merchant's order id" },
      body: EmptyBody,
      responses: {
        200: { description: 'The order already had one: the same reference', schema: CardRef },
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
      const row = await ctx.store.orders.getByClientOrderId(params.orderId ?? '');
      if (!row) throw notFound(`Order ${params.orderId}`);
      // The order's card is its kept attempt's (an earlier attempt may have been declined).
      const { order } = await merchantOrderOf(ctx, row);
      if (order.status !== 'approved' || !order.gatewayOrderId) {
        throw new HttpError(
          409,
          'conflict',
          `Order ${order.clientOrderId} is ${order.status}; only an approved order has a card to keep`,
        );
      }
      const existing = await ctx.store.operations.getByClientId('card-ref', order.clientOrderId);
      const { operation: op } = await keepCardRef(ctx, order);
      if (op.gatewayRef) {
        res
          .status(existing?.gatewayRef ? 200 : 201)
          .json({ cardRefId: op.gatewayRef, orderId: order.merchantOrderId });
        return;
      }
      if (isFinalStatus(op.status) && op.status !== 'approved') {
        throw new HttpError(
          422,
          'gateway',
          `The gateway did not create a card reference: ${String(op.data.reason ?? op.status)}`,
        );
      }
      res.status(202).json({ cardRefId: null, orderId: order.merchantOrderId, status: op.status });
    },
  );

  routes.add(
    {
      method: 'get',
      path: '/card-refs/:cardRefId',
      operationId: 'getCardRef',
      summary:
        'Read the card behind a card reference as the gateway describes it (BIN, last four, brand, expiry, holder; never stored here), and whether this backend made it and you forgot it.',
      tag: 'Card references',
      params: CARD_REF_PARAM,
      responses: {
        200: { description: 'Card info', schema: CardInfo },
        404: { description: 'Unknown', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      const cardRefId = cardRefIdOf(params.cardRefId);
      try {
        const card = await cardDetails(ctx, cardRefId);
        const kept = await ctx.store.cardRefs.get(cardRefId);
        const order = kept ? await ctx.store.orders.get(kept.orderId) : null;
        res.json({
          cardRefId,
          ...card,
          orderId: order?.merchantOrderId ?? null,
          forgotten: kept?.forgottenAt != null,
        });
      } catch (error) {
        if (error instanceof GatewayError && error.code === 'gateway-validation')
          throw notFound('Card reference');
        throw error;
      }
    },
  );

  routes.add(
    {
      method: 'post',
      path: '/card-refs/:cardRefId/forget',
      operationId: 'forgetCardRef',
      summary:
        'Forget a card reference this backend made: from then on no checkout session offers it, and every route that charges a card reference (rebills, recurring payments, transfers) refuses it with 409 `card-ref-forgotten`, sending nothing (the gateway keeps the token; the spec has no call to delete one). Forgetting it again answers it as it is.',
      tag: 'Card references',
      params: CARD_REF_PARAM,
      body: EmptyBody,
      responses: {
        200: { description: 'Forgotten', schema: OrderCardRef },
        404: { description: 'Not a card reference this backend made', schema: ErrorResponse },
        409: {
          description:
            'A checkout session that may still be paid (open and not expired, or paying) offers it: expire it, or forget the card once it has ended. Or a rebill, recurring payment or transfer of it, asked before, is being sent: forget it once the gateway has answered (`Retry-After`)',
          schema: ErrorResponse,
        },
      },
    },
    async ({ params }, _req, res) => {
      const ref = await forgetCardRef(ctx, cardRefIdOf(params.cardRefId));
      const order = await ctx.store.orders.get(ref.orderId);
      res.json(cardRefSummary(ref, order?.merchantOrderId ?? ref.orderId));
    },
  );
}
