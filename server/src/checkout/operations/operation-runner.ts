/**
 * Running a merchant operation that is not a checkout payment (rebill, payout, transfer, account
 * verification, card reference, recurring payment, hosted form): one row in merchant_operations
 * per merchant id, one gateway call, then its status followed briefly. A refused request is
 * recorded as `error`; a lost answer leaves it `unknown` (never sent again; a read asks the
 * gateway).
 */

import { GatewayError, type GatewayResult } from '../../gateway/index.js';
import {
  type MerchantOperation,
  type MerchantOperationKind,
  UniqueViolationError,
} from '../../store/index.js';
import { type Context, inScope } from '../context.js';
import { HttpError, notFound } from '../errors.js';
import { isFinalStatus } from '../following/next-action.js';
import { orderIdTaken } from '../order-ids.js';
import { isBankUrl } from '../payments/bank-urls.js';
import { type ChargedCardRef, reserveCharge } from '../saved-cards/charge-guard.js';
import { logRefusedUrl } from '../three-ds/refused-url.js';
import { followUntilFinal, pollOperation } from './follow-operation.js';
import { finalizeOperation, markAnswerLost } from './operations-status.js';

export interface OperationInput {
  kind: MerchantOperationKind;
  clientId: string;
  amountMinor?: number;
  currency?: string;
  data?: Record<string, unknown>;
  /**
   * The card reference it charges (a rebill, a recurring payment, a transfer): refused before
   * anything is recorded or sent when this backend holds it and it was forgotten
   * (saved-cards/charge-guard.ts).
   */
  cardRef?: ChargedCardRef;
}

export interface RunOptions {
  /** Follow its status briefly after the call (default true). */
  follow?: boolean;
  /** Its status once the gateway accepted the call (default `processing`). */
  statusAfterCall?: string;
  /**
   * After a lost answer (a timeout, a 5xx, a dropped connection: the gateway may have acted) the
   * operation is `unknown` either way. `answer` (the default) returns it, so the merchant gets
   * 202 `unknown` and a retry under the same Idempotency-Key replays that answer instead of
   * running again: a 502 would release the key, and the retry would move the money twice.
   * `fail` throws, for a call whose answer the merchant needs to go on (a form address, a
   * registration) and which moves no money.
   */
  lostAnswer?: 'answer' | 'fail';
}

export async function runOperation(
  ctx: Context,
  input: OperationInput,
  call: () => Promise<GatewayResult>,
  options: RunOptions = {},
): Promise<MerchantOperation> {
  const { follow = true, statusAfterCall = 'processing', lostAnswer = 'answer' } = options;
  let operation: MerchantOperation;
  try {
    const record = {
      kind: input.kind,
      clientId: input.clientId,
      amountMinor: input.amountMinor ?? null,
      currency: input.currency ?? null,
      data: { orderId: input.clientId, ...input.data },
    };
    operation = input.cardRef
      ? await reserveCharge(ctx, record, input.cardRef)
      : await ctx.store.operations.create(record);
  } catch (error) {
    // The store's claim of a client_orderid (one namespace with sessions and their attempts, for
    // the kinds that send one) and the unique key on (kind, client id) are the checks: two
    // requests racing cannot both pass them, and nothing is recorded or sent.
    const taken = orderIdTaken(error, input.clientId);
    if (taken) throw taken;
    if (error instanceof UniqueViolationError) {
      throw new HttpError(
        409,
        'conflict',
        `orderId ${input.clientId} is already used for a ${input.kind}`,
        'orderId',
      );
    }
    throw error;
  }
  let result: GatewayResult;
  try {
    result = await inScope(ctx, { operationId: operation.id }, call);
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'gateway-validation') {
      await finalizeOperation(ctx, operation, 'error', {
        reason: error.errorMessage,
        errorCode: error.errorCode,
      });
      throw new HttpError(
        422,
        'gateway',
        `The gateway refused the request: ${error.errorMessage ?? 'no reason given'}`,
      );
    }
    const lost = await markAnswerLost(ctx, operation, error);
    if (lostAnswer === 'fail') throw error;
    return lost;
  }
  const gatewayRef =
    result.cardRefId ??
    result.payoutId ??
    result.transactionId ??
    result.recurringPaymentId ??
    null;
  // A form address nobody must be sent to is not kept (hosted-forms.ts then answers 502).
  const url = result.redirectUrl;
  if (url && !isBankUrl(ctx.config, url)) {
    logRefusedUrl(ctx, { operationId: operation.id }, { field: 'redirect-url', url });
  }
  const moved = await ctx.store.operations.transition(operation.id, {
    from: ['new'],
    to: statusAfterCall,
    patch: {
      gatewayOrderId: result.orderId ?? null,
      gatewayRef,
      ...(isBankUrl(ctx.config, url) ? { data: { ...operation.data, url } } : {}),
    },
  });
  operation = moved.operation ?? operation;
  if (result.status && isFinalStatus(result.status)) {
    return finalizeOperation(ctx, operation, result.status, {
      reason: result.errorMessage,
      errorCode: result.errorCode,
    });
  }
  return follow ? followOperation(ctx, operation, ctx.timing.operationFollowMs) : operation;
}

export function followOperation(
  ctx: Context,
  operation: MerchantOperation,
  waitMs: number,
): Promise<MerchantOperation> {
  return followUntilFinal(ctx, operation, waitMs, (c, op) => pollOperation(c, op));
}

/** A stored operation by the merchant's id, refreshed from the gateway while pending. */
export async function readOperation(
  ctx: Context,
  kind: MerchantOperationKind,
  clientId: string,
): Promise<MerchantOperation> {
  const operation = await ctx.store.operations.getByClientId(kind, clientId);
  if (!operation) throw notFound(`${kind} ${clientId}`);
  return pollOperation(ctx, operation);
}

export function answerStatus(operation: MerchantOperation): number {
  return isFinalStatus(operation.status) ? 200 : 202;
}
