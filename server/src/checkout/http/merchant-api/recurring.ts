/** Recurring payments: a schedule of charges on a card reference. */
import { toMinorUnits } from '../../../signing/index.js';
import type { Context } from '../../context.js';
import { readOperation, runOperation } from '../../operations/operation-runner.js';
import { callbackUrl } from '../../payments/urls.js';
import { operationView } from './operation-view.js';
import type { RouteTable } from './route-spec.js';
import { CreateRecurringBody, ErrorResponse, Operation } from './schemas.js';

export function recurringRoutes(ctx: Context, routes: RouteTable): void {
  routes.add(
    {
      method: 'post',
      path: '/recurring-payments',
      operationId: 'createRecurringPayment',
      summary: 'Create a recurring payment (period, interval, amount) on a card reference.',
      tag: 'Recurring payments',
      body: CreateRecurringBody,
      responses: {
        201: {
          description: 'Created; `gatewayRef` is the recurring payment id',
          schema: Operation,
        },
        409: {
          description:
            'orderId already used by another recurring payment (field `orderId`; only recurring payments count, as this id is never sent to the gateway); or `card-ref-forgotten` (field `cardRefId`): you forgot this card reference, so it is charged no more, and nothing was sent',
          schema: ErrorResponse,
        },
        422: { description: 'Refused by the gateway', schema: ErrorResponse },
      },
    },
    async ({ body }, _req, res) => {
      const op = await runOperation(
        ctx,
        {
          kind: 'recurring-payment',
          clientId: body.orderId,
          amountMinor: toMinorUnits(body.amount, body.currency),
          currency: body.currency,
          data: { period: body.period, interval: body.interval },
          cardRef: { id: body.cardRefId, field: 'cardRefId' },
        },
        () =>
          ctx.gateway.createRecurringPayment({
            'card-ref-id': body.cardRefId,
            period: body.period,
            interval: body.interval,
            amount: body.amount,
            currency: body.currency,
            email: body.email,
            ...(body.startDate ? { 'start-date': body.startDate } : {}),
            ...(body.maxRepeats ? { 'max-repeats-number': body.maxRepeats } : {}),
            ...(body.customer?.firstName ? { 'first-name': body.customer.firstName } : {}),
            ...(body.customer?.lastName ? { 'last-name': body.customer.lastName } : {}),
            ...(body.description ? { comment: body.description } : {}),
            server_callback_url: callbackUrl(ctx),
          }),
        { follow: false, lostAnswer: 'fail' },
      );
      res.status(201).json(operationView(op));
    },
  );
  routes.add(
    {
      method: 'get',
      path: '/recurring-payments/:orderId',
      operationId: 'getRecurringPayment',
      summary: 'Read a recurring payment.',
      tag: 'Recurring payments',
      params: { orderId: 'The merchant id given at creation' },
      responses: {
        200: { description: 'The recurring payment', schema: Operation },
        404: { description: 'Unknown', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      res.json(operationView(await readOperation(ctx, 'recurring-payment', params.orderId ?? '')));
    },
  );
}
