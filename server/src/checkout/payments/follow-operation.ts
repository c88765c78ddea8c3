/**
 * Following a merchant operation (a payout, a capture...) to its final status: poll, pause a
 * little longer each time, stop when final or out of time.
 */
import type { MerchantOperation } from '../../store/index.js';
import type { Context } from '../context.js';
import { isFinalStatus } from './next-action.js';

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
