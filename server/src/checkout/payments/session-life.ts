/**
 * A checkout session's life around its payment. Its order exists from the start
 * (`awaiting-payment`); the shopper's claim starts the payment; a session that ends unpaid, at
 * its expiry or when the merchant ends it early, leaves its order `expired` and tells the
 * merchant with an `order.expired` webhook, once, whoever notices first: the sweeper, a late
 * claim, a merchant read, or the merchant's own expire request.
 */
import {
  type CheckoutSession,
  type ClaimResult,
  type ExpiryWrite,
  FAILED_ORDER_STATUSES,
  type Order,
  type PaymentOrderFields,
} from '../../store/index.js';
import { type Context, notifyOrder } from '../context.js';
import { enqueueOrderWebhook, type Outbox } from '../webhooks/webhooks.js';

/** How many due sessions one sweep expires; the next sweep takes the rest. */
const SWEEP_BATCH = 100;

/**
 * Queues the order's last word for a session this write ended (`won`), in the transaction that
 * ended it: `order.expired` when it was never paid, or the failed last attempt's status when the
 * shopper did not try another card in time. A crash cannot leave it ended and the merchant never
 * told.
 */
async function queueExpired(ctx: Context, write: ExpiryWrite, tx: Outbox): Promise<void> {
  const order = write.order;
  if (!write.won || !order) return;
  if (order.status === 'expired' || FAILED_ORDER_STATUSES.includes(order.status))
    await enqueueOrderWebhook(ctx, order, tx);
}

/** Once committed: the log line of a session this caller ended, and the order's waiters. */
function announce(ctx: Context, write: ExpiryWrite): void {
  if (!write.won || !write.session) return;
  ctx.logger.info(
    { sessionId: write.session.id, orderId: write.order?.id },
    'checkout session ended unpaid',
  );
  if (write.order?.status === 'expired') notifyOrder(ctx, write.order.id);
}

/** Ends an open session unpaid: `dueOnly`, only one past its expiry. */
export async function expireSession(
  ctx: Context,
  sessionId: string,
  options: { dueOnly: boolean },
): Promise<ExpiryWrite> {
  const write = await ctx.store.transaction(async (tx) => {
    const ended = await tx.sessions.expire(sessionId, options);
    await queueExpired(ctx, ended, tx);
    return ended;
  });
  announce(ctx, write);
  return write;
}

/** One sweep over open sessions past their expiry; answers how many it looked at. */
export async function expireDueSessions(ctx: Context): Promise<number> {
  const due = await ctx.store.sessions.dueForExpiry(SWEEP_BATCH);
  for (const id of due) {
    if (ctx.closing()) break;
    await expireSession(ctx, id, { dueOnly: true });
  }
  return due.length;
}

/** The shopper pays: the store's claim, and the announcement when it found the session expired. */
export async function claimSession(
  ctx: Context,
  sessionId: string,
  fields: PaymentOrderFields = {},
): Promise<ClaimResult> {
  const claim = await ctx.store.transaction(async (tx) => {
    const found = await tx.sessions.claimForPayment(sessionId, fields);
    const ended = expiryOf(found);
    if (ended) await queueExpired(ctx, ended, tx);
    return found;
  });
  const ended = expiryOf(claim);
  if (ended) announce(ctx, ended);
  return claim;
}

/** The expiry a claim made when it found the session past its expiry, if it did. */
function expiryOf(claim: ClaimResult): ExpiryWrite | undefined {
  return !claim.won && claim.reason === 'expired' ? claim.expiry : undefined;
}

/**
 * The session and its order as they stand, a due expiry applied first (a read need not wait for
 * the sweeper to tell the truth).
 */
export async function currentSession(
  ctx: Context,
  session: CheckoutSession,
): Promise<{ session: CheckoutSession; order: Order | null }> {
  if (session.state === 'open' && session.expiresAt.getTime() <= Date.now()) {
    const write = await expireSession(ctx, session.id, { dueOnly: true });
    if (write.session) return { session: write.session, order: write.order };
  }
  const order = session.orderId ? await ctx.store.orders.get(session.orderId) : null;
  return { session, order };
}

/** The order as it stands, its session's due expiry applied first. */
export async function currentOrder(ctx: Context, order: Order): Promise<Order> {
  if (order.status !== 'awaiting-payment' || !order.sessionId) return order;
  const session = await ctx.store.sessions.get(order.sessionId);
  if (!session) return order;
  return (await currentSession(ctx, session)).order ?? order;
}
