/** Account verification: a zero-amount authorisation of a card. */
import type { Context } from '../../context.js';
import { answerStatus, readOperation, runOperation } from '../../operations/operation-runner.js';
import { callbackUrl } from '../../payments/urls.js';
import { clientIp } from '../request-facts.js';
import { operationView } from './operation-view.js';
import type { RouteTable } from './route-spec.js';
import {
  CreateVerificationBody,
  ErrorResponse,
  OPERATION_RESPONSES,
  Operation,
  ORDER_ID_TAKEN,
} from './schemas.js';

export function verificationRoutes(ctx: Context, routes: RouteTable): void {
  routes.add(
    {
      method: 'post',
      path: '/account-verifications',
      operationId: 'createAccountVerification',
      summary:
        'Verify a card with a zero-amount authorisation (card data passes through memory only).',
      tag: 'Account verification',
      body: CreateVerificationBody,
      responses: {
        ...OPERATION_RESPONSES,
        409: { description: ORDER_ID_TAKEN, schema: ErrorResponse },
      },
    },
    async ({ body }, req, res) => {
      const c = body.customer;
      const op = await runOperation(
        ctx,
        { kind: 'account-verification', clientId: body.orderId },
        () =>
          ctx.gateway.accountVerification({
            client_orderid: body.orderId,
            order_desc: body.description || 'Account verification',
            redirect_url: body.returnUrl ?? ctx.config.publicUrl,
            server_callback_url: callbackUrl(ctx),
            ...(c.firstName ? { first_name: c.firstName } : {}),
            ...(c.lastName ? { last_name: c.lastName } : {}),
            address1: c.address1,
            city: c.city,
            ...(c.state ? { state: c.state } : {}),
            zip_code: c.zipCode,
            country: c.country,
            phone: c.phone,
            email: c.email,
            ipaddress: clientIp(req),
            card_printed_name: body.card.holder,
            credit_card_number: body.card.number,
            expire_month: body.card.expMonth,
            expire_year: body.card.expYear,
            cvv2: body.card.cvc,
            currency: body.currency,
          }),
      );
      res.status(answerStatus(op)).json(operationView(op));
    },
  );
  routes.add(
    {
      method: 'get',
      path: '/account-verifications/:orderId',
      operationId: 'getAccountVerification',
      summary: 'Read an account verification.',
      tag: 'Account verification',
      params: { orderId: "The verification's merchant order id" },
      responses: {
        200: { description: 'The verification', schema: Operation },
        404: { description: 'Unknown', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      res.json(
        operationView(await readOperation(ctx, 'account-verification', params.orderId ?? '')),
      );
    },
  );
}
