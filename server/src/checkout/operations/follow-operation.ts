/**
 * Following a merchant operation (a payout, a capture...) to its final status: poll, pause a
 * little longer each time, stop when final or out of time.
 */
import type { MerchantOperation } from '../../store/index.js';
import { type Context, inScope } from '../context.js';
import { isFinalStatus } from '../following/next-action.js';
import { statusMismatch } from '../following/status-match.js';
import { finalizeOperation } from './operations-status.js';

export interface PollOptions {
  /** The client_orderid to ask with; the operation's own by default. */
  clientOrderId?: string;
  /**
   * Only a status of this transaction type counts, and then only with the operation's own amount
   * and currency: a capture or return shares its order's transaction, whose status may still
   * describe the sale or an earlier return.
   */
  transactionType?: string;
  /**
   * Whether the status must carry the operation's own amount and currency; by default when a
   * transaction type is asked for or the gateway's order id is not known yet.
   */
  matchAmount?: boolean;
  /**
   * What an `approved` status means for this operation when it is not the end: a payout check
   * approved has registered the payout, which then waits for /pay.
   */
  approvedMeans?: 'registered';
}

/**
 * Asks the gateway for the operation's status once and applies a final one. An operation whose
 * answer was lost has no gateway order id: it is asked by client_orderid alone (the spec's
 * status takes client_orderid when orderid is unavailable), and what the answer says counts only
 * with the operation's own amount and currency; the order id it names is kept. Before the call
 * has answered (`new`) there is nothing to ask.
 */
export async function pollOperation(
  ctx: Context,
  operation: MerchantOperation,
  options: PollOptions = {},
): Promise<MerchantOperation> {
  if (isFinalStatus(operation.status)) return operation;
  const { gatewayOrderId } = operation;
  if (!gatewayOrderId && operation.status !== 'unknown') return operation;
  try {
    const status = await inScope(ctx, { operationId: operation.id }, () =>
      ctx.gateway.status({
        client_orderid: options.clientOrderId ?? operation.clientId,
        ...(gatewayOrderId ? { orderid: gatewayOrderId } : {}),
      }),
    );
    if (options.transactionType !== undefined && status.transactionType !== options.transactionType)
      return operation;
    const matchAmount =
      options.matchAmount ?? (options.transactionType !== undefined || !gatewayOrderId);
    const mismatch = statusMismatch(status, {
      gatewayOrderId,
      ...(matchAmount ? { amountMinor: operation.amountMinor, currency: operation.currency } : {}),
    });
    if (mismatch) {
      ctx.logger.error(
        { operationId: operation.id, requestId: status.requestId, mismatch },
        'status answer disagrees with the operation; not applied',
      );
      return operation;
    }
    const known =
      gatewayOrderId || !status.orderId
        ? operation
        : await learnOrderId(ctx, operation, status.orderId);
    const reached =
      status.status === 'approved' && options.approvedMeans ? options.approvedMeans : status.status;
    if (!isFinalStatus(reached) && reached !== options.approvedMeans) return known;
    return await finalizeOperation(ctx, known, reached, {
      reason: status.errorMessage,
      errorCode: status.errorCode,
    });
  } catch (error) {
    ctx.logger.warn({ err: error, operationId: operation.id }, 'operation status poll failed');
    return operation;
  }
}

/** The gateway's order id of an operation whose answer was lost, from a status answer. */
async function learnOrderId(
  ctx: Context,
  operation: MerchantOperation,
  gatewayOrderId: string,
): Promise<MerchantOperation> {
  const moved = await ctx.store.operations.transition(operation.id, {
    from: [operation.status],
    to: operation.status,
    patch: { gatewayOrderId },
  });
  return moved.operation ?? operation;
}

/**
 * A payout's status poll. A two-step payout shares its transaction with the check that
 * registered it, whose status (`payout-check`, approved) says nothing about the payment: only a
 * status of the payout itself counts. A registered payout waits for /pay, not for the gateway.
 * A check whose own answer was lost (`unknown`, no /pay ever sent) is the exception: its
 * `payout-check` status says whether it registered.
 */
export function pollPayout(ctx: Context, operation: MerchantOperation): Promise<MerchantOperation> {
  if (operation.status === 'registered') return Promise.resolve(operation);
  if (operation.data.step !== 'checked') return pollOperation(ctx, operation);
  if (operation.status === 'unknown' && operation.data.paySent !== true) {
    // A check moves nothing, and its status need not carry the payout's amount: it is known by
    // the merchant's own payout id and its transaction type alone.
    return pollOperation(ctx, operation, {
      transactionType: 'payout-check',
      matchAmount: false,
      approvedMeans: 'registered',
    });
  }
  return pollOperation(ctx, operation, { transactionType: 'payout' });
}

/**
 * Polls an operation with a growing pause until it is final or `waitMs` has passed. `poll` asks
 * the gateway once and stores what it says (operations and money movements ask differently).
 */
export async function followUntilFinal(
  ctx: Context,
  operation: MerchantOperation,
  waitMs: number,
  poll: (ctx: Context, operation: MerchantOperation) => Promise<MerchantOperation>,
): Promise<MerchantOperation> {
  const deadline = Date.now() + waitMs;
  let pause = Math.min(ctx.timing.pollMinMs, 500);
  let current = operation;
  for (;;) {
    current = await poll(ctx, current);
    if (isFinalStatus(current.status) || Date.now() + pause > deadline) return current;
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(Math.round(pause * 1.5), ctx.timing.pollMaxMs);
    current = (await ctx.store.operations.get(current.id)) ?? current;
  }
}
