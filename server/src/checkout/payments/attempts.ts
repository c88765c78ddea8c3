/**
 * Payment attempts of one checkout order. A failed attempt (declined, error, filtered) or one
 * whose bank page the shopper left gives the session back to the shopper, who may try another
 * card, up to the session's `maxAttempts`. Each attempt is its own gateway transaction, followed
 * to its final status by the same polls, callbacks and reconciler as any payment, so a bank that
 * approves a left attempt late is heard.
 *
 * Never two charges: the first attempt approved is kept (the session's order from then on); one
 * approved after it, or after the session ended (expired, cancelled, or completed by a failed
 * last attempt: the merchant may have sold in another session since), is reversed at once, in
 * full (a void of a preauth, a return of a sale), and the merchant hears `payment.reversed`. Settling runs inside the transaction that moves the
 * attempt to its final status, with the session's row locked, so two attempts approved at the
 * same moment on two instances are judged one after the other.
 */
import type { SessionState } from '../../../../contract/api-types.js';
import type { CheckoutRepositories, CheckoutSession, Order } from '../../store/index.js';
import { FAILED_ORDER_STATUSES } from '../../store/index.js';
import { type Context, notifyOrder } from '../context.js';
import { HttpError } from '../errors.js';
import { runMoneyOp } from '../operations/money-ops.js';
import { linkRefusal } from '../payment-links/settle.js';
import { enqueueEvent, enqueueOrderWebhook } from '../webhooks/webhooks.js';
import { attemptView, merchantOrderView } from './views.js';

type Tx = Pick<CheckoutRepositories, 'orders' | 'sessions' | 'webhooks' | 'paymentLinks'>;

/** The states in which a session keeps an approval; an ended one reverses it (settleAttempt). */
const SESSION_TAKES_APPROVAL: readonly SessionState[] = ['open', 'paying'];

/** What settling an attempt decided. */
export type Settled = 'kept' | 'reverse' | 'retry' | 'ended' | 'none';

/** How many more attempts the session takes after its current one (0: none). */
export function attemptsLeft(session: CheckoutSession, order: Order | null): number {
  if (session.state !== 'open' && session.state !== 'paying') return 0;
  return Math.max(0, session.maxAttempts - (order?.attempt ?? 0));
}

/** The 409 of a payment the session has no attempt left for. */
export function attemptsExhausted(session: CheckoutSession): HttpError {
  return new HttpError(
    409,
    'attempts-exhausted',
    `This checkout session took its ${session.maxAttempts} payment attempts; no further one is sent`,
  );
}

/** The attempt a session keeps: the approved one that is not reversed, if any. */
export function keptAttempt(attempts: readonly Order[]): Order | undefined {
  return attempts.find((a) => a.status === 'approved' && a.reversalReason === null);
}

/**
 * The merchant's order as it stands: the kept attempt, else the latest, with every attempt.
 * `row` is any attempt of it (or an order that is no checkout's).
 */
export async function merchantOrderOf(
  ctx: Context,
  row: Order,
): Promise<{ order: Order; attempts: Order[] }> {
  if (!row.sessionId) return { order: row, attempts: [row] };
  return speakingFor(row, await ctx.store.orders.attemptsOf(row.sessionId));
}

/** The attempt that speaks for `row`'s order among its `attempts`: the kept one, else the latest. */
export function speakingFor(row: Order, attempts: Order[]): { order: Order; attempts: Order[] } {
  if (attempts.length === 0) return { order: row, attempts: [row] };
  return { order: keptAttempt(attempts) ?? attempts.at(-1) ?? row, attempts };
}

/**
 * Called with `order` just moved to a final status, in that move's transaction. Queues what the
 * merchant hears and moves the session: kept (approved first, the session open or paying),
 * reverse (approved after another, or after the session ended),
 * retry (failed; the session takes another attempt), ended (failed; it takes none).
 */
export async function settleAttempt(ctx: Context, tx: Tx, order: Order): Promise<Settled> {
  if (!order.sessionId) {
    await enqueueOrderWebhook(ctx, order, tx);
    return 'none';
  }
  const session = await tx.sessions.lock(order.sessionId);
  if (!session) return 'none';
  const attempts = await tx.orders.attemptsOf(session.id);
  if (order.status === 'approved') {
    const first = keptAttempt(attempts.filter((a) => a.id !== order.id));
    if (first) {
      await tx.orders.markForReversal(
        order.id,
        `attempt ${first.attempt} (${first.clientOrderId}) of this order was approved first`,
      );
      return 'reverse';
    }
    // One shopper, one charge, across sessions: a session that ended (expired by the merchant or
    // at its expiry, cancelled, or completed by its last failed attempt) takes no payment, and
    // the merchant may have made a new one that the shopper paid. Its late approval is reversed.
    if (!SESSION_TAKES_APPROVAL.includes(session.state)) {
      await tx.orders.markForReversal(
        order.id,
        `the checkout session was ${session.state} before the bank approved attempt ${order.attempt} (${order.clientOrderId})`,
      );
      return 'reverse';
    }
    // A visit of a payment link: the link, not only the session, must still take a payment (two
    // tabs of a one-off link are two sessions). Its row is locked after the session's.
    const refused = await linkRefusal(ctx, tx, session.id, order);
    if (refused) {
      await tx.orders.markForReversal(order.id, refused);
      return 'reverse';
    }
    await tx.sessions.keep(session.id, order.id);
    await enqueueOrderWebhook(ctx, order, tx, attempts);
    return 'kept';
  }
  await enqueueEvent(
    ctx,
    'payment.declined',
    {
      order: merchantOrderView(order, attempts, !ctx.config.testMode),
      attempt: attemptView(order),
    },
    order.id,
    tx,
  );
  // An attempt the shopper left ended after the session moved on: only the merchant hears it.
  if (session.orderId !== order.id || !FAILED_ORDER_STATUSES.includes(order.status)) return 'none';
  const live = session.expiresAt.getTime() > Date.now();
  if (live && attemptsLeft(session, order) > 0) {
    await tx.sessions.transition(session.id, { from: ['paying'], to: 'open' });
    return 'retry';
  }
  await tx.sessions.transition(session.id, { from: ['open', 'paying'], to: 'completed' });
  // The order's last word: no attempt can follow this one.
  await enqueueOrderWebhook(ctx, order, tx, attempts);
  if (order.attempt >= session.maxAttempts) {
    await enqueueEvent(
      ctx,
      'order.attempts-exhausted',
      { order: merchantOrderView(order, attempts, !ctx.config.testMode) },
      order.id,
      tx,
    );
  }
  return 'ended';
}

/**
 * The shopper left the current attempt's bank page (closed the challenge, pressed Back): the
 * attempt is marked left, and the session takes another attempt if it has one left (else it is
 * cancelled, as before attempts). The attempt is still followed: a late approval is kept if it is
 * the first and the session still takes a payment, and reversed otherwise. Answers the session as it now stands.
 */
export async function abandonAttempt(
  ctx: Context,
  session: CheckoutSession,
  order: Order,
): Promise<CheckoutSession> {
  const after = await ctx.store.transaction(async (tx) => {
    const locked = await tx.sessions.lock(session.id);
    if (!locked || locked.orderId !== order.id) return locked;
    const left = await tx.orders.markAbandoned(order.id);
    if (!left.won) return locked;
    const live = locked.expiresAt.getTime() > Date.now();
    const to = live && attemptsLeft(locked, order) > 0 ? 'open' : 'cancelled';
    return (await tx.sessions.transition(locked.id, { from: ['open', 'paying'], to })).session;
  });
  notifyOrder(ctx, order.id);
  return after ?? session;
}

/**
 * Reverses an approved attempt that was not kept: a void of a preauth, a return of a sale, in
 * full, as a merchant operation keyed by the attempt (never sent twice, whoever runs it; a lost
 * answer follows the lost-answer rules of every money operation). Once the gateway approved it,
 * the attempt is marked reversed and `payment.reversed` queued, once.
 */
export async function reverseAttempt(ctx: Context, attempt: Order): Promise<void> {
  const kind = attempt.intent === 'preauth' ? 'void' : 'return';
  const { operation } = await runMoneyOp(ctx, attempt, kind, undefined, 'reversal');
  if (operation.status !== 'approved') {
    if (operation.status !== 'processing' && operation.status !== 'unknown') {
      ctx.logger.error(
        { orderId: attempt.id, operationId: operation.id, status: operation.status },
        'the reversal of an attempt not kept was refused: refund it by hand',
      );
    }
    // The next reversal pass asks again; touched, so that it waits its turn behind the others.
    const fresh = await ctx.store.orders.get(attempt.id);
    if (fresh) await ctx.store.orders.update(fresh.id, { version: fresh.version, patch: {} });
    return;
  }
  const done = await ctx.store.transaction(async (tx) => {
    const marked = await tx.orders.markReversed(attempt.id);
    if (marked.won && marked.order) {
      await enqueueEvent(
        ctx,
        'payment.reversed',
        {
          order: merchantOrderView(marked.order, undefined, !ctx.config.testMode),
          attempt: attemptView(marked.order),
          operationId: operation.id,
        },
        attempt.id,
        tx,
      );
    }
    return marked;
  });
  if (done.won) {
    ctx.logger.warn(
      { orderId: attempt.id, operationId: operation.id, reason: attempt.reversalReason },
      'an approved attempt not kept was reversed',
    );
  }
}

/** Runs the reversal of `attempt` now, in the background (the reversal pass is its safety net). */
export function reverseSoon(ctx: Context, attempt: Order): void {
  void reverseAttempt(ctx, attempt).catch((error: unknown) =>
    ctx.logger.error(
      { err: error, orderId: attempt.id },
      'reversing an attempt failed; the reconciler tries again',
    ),
  );
}

/** One pass over the attempts still to reverse; answers how many it looked at. */
export async function reverseDue(ctx: Context, olderThanSeconds: number): Promise<number> {
  const due = await ctx.store.orders.dueForReversal({ olderThanSeconds });
  for (const attempt of due) {
    if (ctx.closing()) break;
    await reverseAttempt(ctx, attempt).catch((error: unknown) =>
      ctx.logger.error({ err: error, orderId: attempt.id }, 'reversing an attempt failed'),
    );
  }
  return due.length;
}
