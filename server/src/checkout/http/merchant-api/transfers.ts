/** Transfers: from a card reference to a card number. */
import { toMinorUnits } from '../../../signing/index.js';
import type { Context } from '../../context.js';
import { answerStatus, readOperation, runOperation } from '../../operations/operation-runner.js';
import { operationView } from './operation-view.js';
import type { RouteTable } from './route-spec.js';
import {
  CreateTransferBody,
  ErrorResponse,
  OPERATION_RESPONSES,
  Operation,
  ORDER_ID_TAKEN,
} from './schemas.js';

export function transferRoutes(ctx: Context, routes: RouteTable): void {
  routes.add(
    {
      method: 'post',
      path: '/transfers',
      operationId: 'createTransfer',
      summary: 'Transfer funds from a card reference to a card.',
      tag: 'Transfers',
      body: CreateTransferBody,
      responses: {
        ...OPERATION_RESPONSES,
        409: {
          description: `${ORDER_ID_TAKEN}. Or \`card-ref-forgotten\` (field \`sourceCardRefId\`): you forgot this card reference, so it is charged no more, and nothing was sent`,
          schema: ErrorResponse,
        },
      },
    },
    async ({ body }, _req, res) => {
      const op = await runOperation(
        ctx,
        {
          kind: 'transfer',
          clientId: body.orderId,
          amountMinor: toMinorUnits(body.amount, body.currency),
          currency: body.currency,
          data: { destination: `****${body.destinationCardNumber.slice(-4)}` },
          cardRef: { id: body.sourceCardRefId, field: 'sourceCardRefId' },
        },
        () =>
          ctx.gateway.transferByRef({
            'client-order-id': body.orderId,
            amount: body.amount,
            currency: body.currency,
            order_desc: body.description,
            'destination-card-no': body.destinationCardNumber,
            cardrefid: body.sourceCardRefId,
          }),
      );
      res.status(answerStatus(op)).json(operationView(op));
    },
  );
  routes.add(
    {
      method: 'get',
      path: '/transfers/:orderId',
      operationId: 'getTransfer',
      summary: 'Read a transfer.',
      tag: 'Transfers',
      params: { orderId: "The transfer's merchant order id" },
      responses: {
        200: { description: 'The transfer', schema: Operation },
        404: { description: 'Unknown', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      res.json(operationView(await readOperation(ctx, 'transfer', params.orderId ?? '')));
    },
  );
}
