/** Rebills: charge a card reference without the cardholder. */
import { toMinorUnits } from '../../../signing/index.js';
import type { Context } from '../../context.js';
import { answerStatus, readOperation, runOperation } from '../../operations/operation-runner.js';
import { callbackUrl } from '../../payments/urls.js';
import { clientIp } from '../request-facts.js';
import { operationView } from './operation-view.js';
import type { RouteTable } from './route-spec.js';
import {
  CreateRebillBody,
  ErrorResponse,
  OPERATION_RESPONSES,
  Operation,
  ORDER_ID_TAKEN,
} from './schemas.js';

export function rebillRoutes(ctx: Context, routes: RouteTable): void {
  routes.add(
    {
      method: 'post',
      path: '/rebills',
      operationId: 'createRebill',
      summary: 'Charge a card reference (cardholder absent).',
      tag: 'Rebills',
      body: CreateRebillBody,
      responses: {
        ...OPERATION_RESPONSES,
        409: {
          description: `${ORDER_ID_TAKEN}. Or \`card-ref-forgotten\` (field \`cardRefId\`): you forgot this card reference, so it is charged no more, and nothing was sent`,
          schema: ErrorResponse,
        },
      },
    },
    async ({ body }, req, res) => {
      const op = await runOperation(
        ctx,
        {
          kind: 'rebill',
          clientId: body.orderId,
          amountMinor: toMinorUnits(body.amount, body.currency),
          currency: body.currency,
          data: { cardRefId: body.cardRefId },
          cardRef: { id: body.cardRefId, field: 'cardRefId' },
        },
        () =>
          ctx.gateway.makeRebill({
            client_orderid: body.orderId,
            cardrefid: body.cardRefId,
            amount: body.amount,
            currency: body.currency,
            order_desc: body.description || 'Rebill',
            // Required by the gateway; the cardholder is absent, so it is the merchant's call.
            ipaddress: clientIp(req),
            server_callback_url: callbackUrl(ctx),
          }),
      );
      res.status(answerStatus(op)).json(operationView(op));
    },
  );
  routes.add(
    {
      method: 'get',
      path: '/rebills/:orderId',
      operationId: 'getRebill',
      summary: 'Read a rebill (refreshed from the gateway while pending).',
      tag: 'Rebills',
      params: { orderId: "The rebill's merchant order id" },
      responses: {
        200: { description: 'The rebill', schema: Operation },
        404: { description: 'Unknown', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      res.json(operationView(await readOperation(ctx, 'rebill', params.orderId ?? '')));
    },
  );
}
