/** Orders: read, list, capture, void, return. */

import { z } from 'zod';
import { SigningError, toControlCents, toMinorUnits } from '../../../signing/index.js';
import type { Order as StoredOrder } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import { isPending, pollOnce } from '../../following/follow.js';
import { runMoneyOp } from '../../operations/money-ops.js';
import { answerStatus } from '../../operations/operation-runner.js';
import { merchantOrderOf, speakingFor } from '../../payments/attempts.js';
import { currentOrder } from '../../payments/session-life.js';
import { merchantOrderView } from '../../payments/views.js';
import { cardRefSummaryOf, cardRefViewOf } from '../../saved-cards/order-card-ref.js';
import { cardRefSummary } from '../../saved-cards/views.js';
import { keyedOperationId } from './idempotency.js';
import { operationView } from './operation-view.js';
import type { RouteTable } from './route-spec.js';
import {
  EmptyBody,
  ErrorResponse,
  ListOrdersQuery,
  Operation,
  Order,
  OrderList,
  PartialAmountBody,
} from './schemas.js';

/**
 * The amount in minor units of `currency`; a 400 naming `amount` when it has more decimals than
 * the currency allows (`1.234` EUR, `1.5` JPY). For bodies whose currency is the order's, known
 * only after the route read it (capture, return).
 */
function minorUnitsOr400(amount: string, currency: string): number {
  try {
    const minor = toMinorUnits(amount, currency);
    // The control carries amount × 100: an amount that is not whole cents cannot be signed.
    toControlCents(amount);
    return minor;
  } catch (error) {
    if (error instanceof SigningError) throw badRequest('amount', `amount: ${error.message}`);
    throw error;
  }
}

const ORDER_PARAM = { orderId: "The merchant's order id (client_orderid)." };
const MoneyOpResult = z
  .object({ order: Order, operation: Operation })
  .meta({ id: 'MoneyOperationResult' });

export function orderRoutes(ctx: Context, routes: RouteTable): void {
  /**
   * The merchant's order by its id (or an attempt's): the attempt that speaks for it (the kept
   * one, else the latest) and every attempt. Money operations act on that attempt only.
   */
  const load = async (
    orderId: string,
  ): Promise<{ order: StoredOrder; attempts: StoredOrder[] }> => {
    const row = await ctx.store.orders.getByClientOrderId(orderId);
    if (!row) throw notFound(`Order ${orderId}`);
    return merchantOrderOf(ctx, await currentOrder(ctx, row));
  };
  /** The order in an answer that an Idempotency-Key may keep: its card reference summed up. */
  const view = async (row: StoredOrder) => {
    const { order, attempts } = await merchantOrderOf(ctx, row);
    return merchantOrderView(
      order,
      attempts,
      !ctx.config.testMode,
      await cardRefSummaryOf(ctx, order),
    );
  };

  routes.add(
    {
      method: 'get',
      path: '/orders/:orderId',
      operationId: 'getOrder',
      summary: 'Read one order.',
      tag: 'Orders',
      params: ORDER_PARAM,
      responses: {
        200: { description: 'The order', schema: Order },
        404: { description: 'Not found', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      const { order, attempts } = await load(params.orderId ?? '');
      res.json(
        merchantOrderView(order, attempts, !ctx.config.testMode, await cardRefViewOf(ctx, order)),
      );
    },
  );

  routes.add(
    {
      method: 'get',
      path: '/orders',
      operationId: 'listOrders',
      summary: 'List orders, newest first, with filters and a cursor.',
      tag: 'Orders',
      query: ListOrdersQuery,
      responses: { 200: { description: 'A page of orders', schema: OrderList } },
    },
    async ({ query }, _req, res) => {
      const page = await ctx.store.orders.list({
        ...(query.status ? { status: query.status } : {}),
        ...(query.createdFrom ? { createdFrom: new Date(query.createdFrom) } : {}),
        ...(query.createdTo ? { createdTo: new Date(query.createdTo) } : {}),
        limit: query.limit,
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
      // Every listed order's attempts in one read, not one read an order.
      const sessionIds = page.orders.flatMap((o) => (o.sessionId ? [o.sessionId] : []));
      const bySession = await ctx.store.orders.attemptsOfSessions(sessionIds);
      const speaking = page.orders.map((row) =>
        speakingFor(row, bySession.get(row.sessionId ?? '') ?? []),
      );
      const refs = await ctx.store.cardRefs.ofOrders(speaking.map((s) => s.order.id));
      const orders = speaking.map(({ order, attempts }) => {
        const ref = refs.get(order.id);
        const cardRef = ref ? cardRefSummary(ref, order.merchantOrderId) : null;
        return merchantOrderView(order, attempts, !ctx.config.testMode, cardRef);
      });
      res.json({ orders, nextCursor: page.nextCursor });
    },
  );

  routes.add(
    {
      method: 'post',
      path: '/orders/:orderId/refresh',
      operationId: 'refreshOrder',
      summary:
        "Ask the gateway for the status of the order's pending attempts now (they are also polled and called back).",
      tag: 'Orders',
      params: ORDER_PARAM,
      body: EmptyBody,
      responses: {
        200: { description: 'The order', schema: Order },
        404: { description: 'Not found', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      // Every pending attempt: a left one the bank may have approved since, as well as the latest.
      const { order, attempts } = await load(params.orderId ?? '');
      for (const attempt of attempts) if (isPending(attempt)) await pollOnce(ctx, attempt);
      res.json(await view(order));
    },
  );

  const moneyRoute = (kind: 'capture' | 'void' | 'return', summary: string) =>
    routes.add(
      {
        method: 'post',
        path: `/orders/:orderId/${kind}`,
        operationId: `${kind}Order`,
        summary,
        tag: 'Orders',
        params: ORDER_PARAM,
        body: kind === 'void' ? EmptyBody : PartialAmountBody,
        responses: {
          200: { description: 'The operation reached a final status', schema: MoneyOpResult },
          202: {
            description:
              'Sent; the gateway has not finished it yet, or its answer was lost (operation `unknown`: do not send it again)',
            schema: MoneyOpResult,
          },
          400: {
            description:
              "Invalid body: `amount` zero or with more decimals than the order's currency",
            schema: ErrorResponse,
          },
          404: { description: 'No such order', schema: ErrorResponse },
          409: {
            description:
              "The order's state forbids it (the message says why); with `Retry-After` while another capture, void or return of it runs",
            schema: ErrorResponse,
          },
        },
      },
      async ({ params, body }, _req, res) => {
        const { order } = await load(params.orderId ?? '');
        const amount = (body as { amount?: string }).amount;
        const result = await runMoneyOp(
          ctx,
          order,
          kind,
          amount === undefined ? undefined : minorUnitsOr400(amount, order.currency),
          keyedOperationId(res),
        );
        res.status(answerStatus(result.operation)).json({
          order: await view(result.order),
          operation: operationView(result.operation),
        });
      },
    );
  moneyRoute('capture', 'Capture an approved preauth, in full or in part (body {amount?}).');
  moneyRoute('void', 'Void an approved preauth that still holds funds.');
  moneyRoute(
    'return',
    'Return (refund) a sale or captured preauth, in full or in part; releases an uncaptured hold.',
  );
}
