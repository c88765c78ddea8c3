/**
 * Links to the gateway's hosted forms (sale, preauth, universal payment, account verification,
 * payout): the gateway collects the card or destination; the merchant sends the shopper to
 * `url`. The final redirect goes to the merchant's `returnUrl`; the outcome reaches us by callback
 * and by GET /v1/hosted-forms/{orderId}.
 */
import { fromMinorUnits, toMinorUnits } from '../../../signing/index.js';
import type { Context } from '../../context.js';
import { HttpError } from '../../errors.js';
import { readOperation, runOperation } from '../../operations/operation-runner.js';
import { callbackUrl } from '../../payments/urls.js';
import { clientIp } from '../request-facts.js';
import { operationView } from './operation-view.js';
import type { RouteTable } from './route-spec.js';
import {
  CreateHostedFormBody,
  ErrorResponse,
  HostedFormLink,
  Operation,
  ORDER_ID_TAKEN,
} from './schemas.js';

export function hostedFormRoutes(ctx: Context, routes: RouteTable): void {
  routes.add(
    {
      method: 'post',
      path: '/hosted-forms',
      operationId: 'createHostedForm',
      summary:
        'Get a link to a gateway-hosted form (sale, preauth, payment, account-verification, payout).',
      tag: 'Hosted forms',
      body: CreateHostedFormBody,
      responses: {
        201: { description: 'The form link', schema: HostedFormLink },
        409: { description: ORDER_ID_TAKEN, schema: ErrorResponse },
        422: { description: 'Refused by the gateway', schema: ErrorResponse },
        502: { description: 'The gateway answered no https form address', schema: ErrorResponse },
      },
    },
    async ({ body }, req, res) => {
      const c = body.customer;
      const money = body.amount
        ? {
            amount: fromMinorUnits(toMinorUnits(body.amount, body.currency), body.currency),
            currency: body.currency,
          }
        : undefined;
      const common = {
        client_orderid: body.orderId,
        redirect_url: body.returnUrl,
        server_callback_url: callbackUrl(ctx),
        email: c.email,
        ipaddress: clientIp(req),
        ...(c.firstName ? { first_name: c.firstName } : {}),
        ...(c.lastName ? { last_name: c.lastName } : {}),
        ...(c.address1 ? { address1: c.address1 } : {}),
        ...(c.city ? { city: c.city } : {}),
        ...(c.zipCode ? { zip_code: c.zipCode } : {}),
        ...(c.country ? { country: c.country } : {}),
        ...(c.phone ? { phone: c.phone } : {}),
      };
      const order_desc = body.description || 'Order';
      const op = await runOperation(
        ctx,
        {
          kind: 'hosted-form',
          clientId: body.orderId,
          ...(money
            ? { amountMinor: toMinorUnits(money.amount, money.currency), currency: money.currency }
            : {}),
          data: { form: body.kind },
        },
        () => {
          switch (body.kind) {
            case 'sale':
              return ctx.gateway.saleForm({
                ...common,
                ...(money as { amount: string; currency: string }),
                order_desc,
              });
            case 'preauth':
              return ctx.gateway.preauthForm({
                ...common,
                ...(money as { amount: string; currency: string }),
                order_desc,
              });
            case 'payment':
              return ctx.gateway.paymentForm({
                ...common,
                ...(money as { amount: string; currency: string }),
                order_desc,
              });
            case 'account-verification':
              return ctx.gateway.accountVerificationForm({
                ...common,
                order_desc,
                currency: body.currency,
              });
            case 'payout':
              return ctx.gateway.payoutForm({
                client_orderid: body.orderId,
                ...(money as { amount: string; currency: string }),
                email: c.email,
                redirect_url: body.returnUrl,
                order_desc,
                server_callback_url: callbackUrl(ctx),
              });
          }
        },
        { follow: false, lostAnswer: 'fail' },
      );
      if (typeof op.data.url !== 'string') {
        throw new HttpError(
          502,
          'gateway',
          `The gateway answered no https form address; read the form's outcome with GET /v1/hosted-forms/${body.orderId}`,
        );
      }
      res.status(201).json({
        kind: body.kind,
        orderId: body.orderId,
        url: op.data.url,
        gatewayOrderId: op.gatewayOrderId,
      });
    },
  );
  routes.add(
    {
      method: 'get',
      path: '/hosted-forms/:orderId',
      operationId: 'getHostedForm',
      summary: "Read a hosted form's outcome (refreshed from the gateway while pending).",
      tag: 'Hosted forms',
      params: { orderId: "The form's merchant order id" },
      responses: {
        200: { description: 'The outcome', schema: Operation },
        404: { description: 'Unknown', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      res.json(operationView(await readOperation(ctx, 'hosted-form', params.orderId ?? '')));
    },
  );
}
