/** Payouts: one-step (`POST /payouts`) or two-step (`POST /payouts/check`, then `.../pay`). */

import { GatewayError } from '../../../gateway/index.js';
import { toMinorUnits } from '../../../signing/index.js';
import type { Context } from '../../context.js';
import { inScope } from '../../context.js';
import { HttpError, notFound } from '../../errors.js';
import { followUntilFinal, pollPayout } from '../../operations/follow-operation.js';
import { answerStatus, runOperation } from '../../operations/operation-runner.js';
import { finalizeOperation, markAnswerLost } from '../../operations/operations-status.js';
import { callbackUrl } from '../../payments/urls.js';
import { operationView } from './operation-view.js';
import type { RouteTable } from './route-spec.js';
import {
  CheckPayoutBody,
  CreatePayoutBody,
  EmptyBody,
  ErrorResponse,
  OPERATION_RESPONSES,
  Operation,
  ORDER_ID_TAKEN,
} from './schemas.js';

/** A payout and a payout's check claim their orderId; the pay step sends the checked one's. */
const CREATE_RESPONSES = {
  ...OPERATION_RESPONSES,
  409: { description: ORDER_ID_TAKEN, schema: ErrorResponse },
};

export function payoutRoutes(ctx: Context, routes: RouteTable): void {
  routes.add(
    {
      method: 'post',
      path: '/payouts',
      operationId: 'createPayout',
      summary: 'Send funds to a card, bank account or phone in one step.',
      tag: 'Payouts',
      body: CreatePayoutBody,
      responses: CREATE_RESPONSES,
    },
    async ({ body }, _req, res) => {
      const op = await runOperation(
        ctx,
        {
          kind: 'payout',
          clientId: body.orderId,
          amountMinor: toMinorUnits(body.amount, body.currency),
          currency: body.currency,
          data: { step: 'one-step' },
        },
        () =>
          ctx.gateway.payout({
            client_orderid: body.orderId,
            amount: body.amount,
            currency: body.currency,
            order_desc: body.description || 'Payout',
            ...(body.card
              ? {
                  credit_card_number: body.card.number,
                  ...(body.card.holder ? { card_printed_name: body.card.holder } : {}),
                  ...(body.card.expMonth ? { expire_month: body.card.expMonth } : {}),
                  ...(body.card.expYear ? { expire_year: body.card.expYear } : {}),
                }
              : {}),
            ...(body.bank
              ? { account_number: body.bank.accountNumber, bank_name: body.bank.bankName }
              : {}),
            ...(body.phone ? { phone: body.phone } : {}),
            ...(body.email ? { email: body.email } : {}),
            server_callback_url: callbackUrl(ctx),
          }),
      );
      res.status(answerStatus(op)).json(operationView(op));
    },
  );

  routes.add(
    {
      method: 'post',
      path: '/payouts/check',
      operationId: 'checkPayout',
      summary: 'Step one of two: validate and register a payout; no funds move.',
      tag: 'Payouts',
      body: CheckPayoutBody,
      responses: {
        ...CREATE_RESPONSES,
        201: {
          description: 'Registered; pay it with POST /payouts/{orderId}/pay',
          schema: Operation,
        },
      },
    },
    async ({ body }, _req, res) => {
      const op = await runOperation(
        ctx,
        {
          kind: 'payout',
          clientId: body.orderId,
          amountMinor: toMinorUnits(body.amount, body.currency),
          currency: body.currency,
          data: { step: 'checked' },
        },
        () =>
          ctx.gateway.payoutCheck({
            'client-order-id': body.orderId,
            amount: body.amount,
            currency: body.currency,
            order_desc: body.description || 'Payout',
            ...(body.cardNumber ? { 'destination-card-no': body.cardNumber } : {}),
            ...(body.bank
              ? { account_number: body.bank.accountNumber, bank_name: body.bank.bankName }
              : {}),
            ...(body.phone ? { phone: body.phone } : {}),
            server_callback_url: callbackUrl(ctx),
          }),
        { follow: false, statusAfterCall: 'registered', lostAnswer: 'fail' },
      );
      res.status(201).json(operationView(op));
    },
  );

  routes.add(
    {
      method: 'post',
      path: '/payouts/:payoutId/pay',
      operationId: 'payPayout',
      summary: 'Step two: execute a registered payout (once).',
      tag: 'Payouts',
      params: { payoutId: "The payout's merchant order id" },
      body: EmptyBody,
      responses: {
        ...OPERATION_RESPONSES,
        409: {
          description: 'The payout is not a checked, registered one, or is already being paid',
          schema: ErrorResponse,
        },
      },
    },
    async ({ params }, _req, res) => {
      const op = await ctx.store.operations.getByClientId('payout', params.payoutId ?? '');
      if (!op) throw notFound(`payout ${params.payoutId}`);
      if (op.status !== 'registered' || op.data.step !== 'checked') {
        throw new HttpError(
          409,
          'conflict',
          `Payout ${op.clientId} is ${op.status}; only a checked, registered payout can be paid`,
        );
      }
      // `paySent`: from here on a lost answer may hide a payment, never only a check (pollPayout).
      const claimed = await ctx.store.operations.transition(op.id, {
        from: ['registered'],
        to: 'processing',
        patch: { data: { ...op.data, paySent: true } },
      });
      if (!claimed.won || !claimed.operation)
        throw new HttpError(409, 'conflict', `Payout ${op.clientId} is already being paid`);
      try {
        await inScope(ctx, { operationId: op.id }, () =>
          ctx.gateway.payoutPay({
            'client-order-id': op.clientId,
            ...(op.gatewayOrderId ? { orderid: op.gatewayOrderId } : {}),
          }),
        );
      } catch (error) {
        if (error instanceof GatewayError && error.code === 'gateway-validation') {
          // The shared finish step: it keeps the reason and code and queues `payout.error`.
          await finalizeOperation(ctx, claimed.operation, 'error', {
            reason: error.errorMessage,
            errorCode: error.errorCode,
          });
          throw new HttpError(
            422,
            'gateway',
            `The gateway refused the payout: ${error.errorMessage ?? 'no reason given'}`,
          );
        }
        // It may have been paid: 202 `unknown`, never a second /pay (runOperation says why).
        res.status(202).json(operationView(await markAnswerLost(ctx, claimed.operation, error)));
        return;
      }
      const settled = await followUntilFinal(
        ctx,
        claimed.operation,
        ctx.timing.operationFollowMs,
        pollPayout,
      );
      res.status(answerStatus(settled)).json(operationView(settled));
    },
  );

  routes.add(
    {
      method: 'get',
      path: '/payouts/:payoutId',
      operationId: 'getPayout',
      summary: 'Read a payout (refreshed from the gateway while pending).',
      tag: 'Payouts',
      params: { payoutId: "The payout's merchant order id" },
      responses: {
        200: { description: 'The payout', schema: Operation },
        404: { description: 'Unknown', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      const op = await ctx.store.operations.getByClientId('payout', params.payoutId ?? '');
      if (!op) throw notFound(`payout ${params.payoutId}`);
      res.json(operationView(await pollPayout(ctx, op)));
    },
  );
}
