/**
 * Following a merchant operation (a payout, a capture...) to its final status: poll, pause a
 * little longer each time, stop when final or out of time.
 */
import type { MerchantOperation } from '../../store/index.js';
import { type Context, inScope } from '../context.js';
import { finalizeOperation } from '../operations-status.js';
import { isFinalStatus } from './next-action.js';
import { statusMismatch } from './status-match.js';

export interface PollOptions {
  /** The client_orderid to ask with; the operation's own by default. */
  clientOrderId?: string;
  /**
   * Only a status of this transaction type counts, and then only with the operation's own amount
   * and currency: a capture or return shares its order's transaction, whose status may still
   * describe the sale or an earlier return.
   */
  transactionType?: string;
}

/** Asks the gateway for the operation's status once and applies a final one. */
export async function pollOperation(
  ctx: Context,
  operation: MerchantOperation,
  options: PollOptions = {},
): Promise<MerchantOperation> {
  if (isFinalStatus(operation.status) || !operation.gatewayOrderId) return operation;
  try {
    const status = await inScope(ctx, { operationId: operation.id }, () =>
      ctx.gateway.status({
        client_orderid: options.clientOrderId ?? operation.clientId,
        orderid: operation.gatewayOrderId as string,
      }),
    );
    if (options.transactionType !== undefined && status.transactionType !== options.transactionType)
      return operation;
    const mismatch = statusMismatch(status, {
      gatewayOrderId: operation.gatewayOrderId,
      ...(options.transactionType !== undefined
        ? { amountMinor: operation.amountMinor, currency: operation.currency }
        : {}),
    });
    if (mismatch) {
      ctx.logger.error(
        { operationId: operation.id, requestId: status.requestId, mismatch },
        'status answer disagrees with the operation; not applied',
      );
      return operation;
    }
    if (!isFinalStatus(status.status)) return operation;
    return await finalizeOperation(ctx, operation, status.status, {
      reason: status.errorMessage,
      errorCode: status.errorCode,
    });
  } catch (error) {
    ctx.logger.warn({ err: error, operationId: operation.id }, 'operation status poll failed');
    return operation;
  }
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
