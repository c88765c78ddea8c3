/**
 * How often this instance asks the gateway about one order. The gateway's callback is the usual
 * news; polls are the fallback for a callback that is late, lost or not configured, so they must
 * find a quick answer soon without pressing the gateway. Per order, counted from the last change
 * of the order (its version):
 *
 *   poll 1  at once (the sale's own follow-up, or the first turn after a change)
 *   poll 2  firstPollMs after it (default 250 ms: a card sale without 3-D Secure is often done)
 *   poll 3  pollMinMs after that (1 s), then each pause 1.5 times the last, up to pollMaxMs (5 s)
 *
 * So an order that stays `processing` is asked 7 times in its first 10 s and then every 5 s (the
 * gateway's own guidance is every 3-5 s, then rarer: docs/gateway.md#polling). While the shopper is
 * on a page we do not see (3DS Method, challenge, the gateway's page), the pause is
 * browserStepPollMs. Long polls of one order share this record, so several browser tabs do not
 * multiply the polls.
 */
import type { Order } from '../../store/index.js';
import { type Context, instanceMap } from '../context.js';

interface PollRecord {
  /** When this instance last asked (ms since epoch). */
  at: number;
  /** Polls since the order last changed. */
  count: number;
  /** The order's version as that last poll left it. */
  version: number;
}

const recordsOf = instanceMap<PollRecord>();
/** Above this many records, those older than the longest pause are dropped (they allow a poll anyway). */
const SWEEP_ABOVE = 1_000;

/** Polls made since `order` last changed (0: none yet at this version). */
function pollsAtVersion(ctx: Context, order: Order): number {
  const record = recordsOf(ctx).get(order.id);
  return record && record.version === order.version ? record.count : 0;
}

/** The pause before the next poll, given the polls made at this version and the order's step. */
export function pollPause(ctx: Context, order: Order, shopperBusy: boolean): number {
  const made = pollsAtVersion(ctx, order);
  if (made === 0) return 0;
  const { firstPollMs, pollMinMs, pollMaxMs, browserStepPollMs } = ctx.timing;
  const pause =
    made === 1
      ? Math.min(firstPollMs, pollMinMs)
      : Math.min(Math.round(pollMinMs * 1.5 ** (made - 2)), pollMaxMs);
  return shopperBusy ? Math.max(pause, browserStepPollMs) : pause;
}

/** Milliseconds until this instance may ask about `order` again (0: now). */
export function untilNextPoll(ctx: Context, order: Order, shopperBusy: boolean): number {
  const record = recordsOf(ctx).get(order.id);
  if (!record) return 0;
  return Math.max(0, record.at + pollPause(ctx, order, shopperBusy) - Date.now());
}

/** Notes a poll about to be sent (so concurrent turns do not send another). */
export function notePollStarted(ctx: Context, order: Order): void {
  const map = recordsOf(ctx);
  const now = Date.now();
  if (map.size >= SWEEP_ABOVE) {
    for (const [id, r] of map) if (now - r.at > ctx.timing.pollMaxMs) map.delete(id);
  }
  map.set(order.id, { at: now, count: pollsAtVersion(ctx, order) + 1, version: order.version });
}

/** After the poll: the order as it left it. A change restarts the count at this poll. */
export function notePollAnswered(ctx: Context, before: Order, after: Order): void {
  const record = recordsOf(ctx).get(before.id);
  if (record && after.version !== before.version) {
    record.version = after.version;
    record.count = 1;
  }
}

/** An order that reached a final status is never asked about again. */
export function forgetPolls(ctx: Context, orderId: string): void {
  recordsOf(ctx).delete(orderId);
}
