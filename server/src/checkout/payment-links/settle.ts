/**
 * A visit's approval, seen by its payment link: every visit of a link is a checkout session of its
 * own, so two tabs of one one-off link could each have an attempt approved. The link's row is
 * locked while one is settled (inside the transaction that moves the attempt to `approved`, after
 * its session's row), so two approvals at once are judged one after the other: the link counts
 * them up to what it takes (one, or a reusable link's `maxPayments`), and any beyond is refused
 * here and reversed by the session's own rule for a late attempt (payments/attempts.ts).
 */
import { type CheckoutRepositories, type Order, paymentCap } from '../../store/index.js';
import type { Context } from '../context.js';
import { enqueueEvent } from '../webhooks/webhooks.js';
import { paymentLinkView } from './views.js';

type Tx = Pick<CheckoutRepositories, 'paymentLinks' | 'webhooks'>;

/**
 * Called with `order` approved and its session about to keep it. Answers why the link takes no
 * more payment (the attempt is then reversed), or null: the link counted it (and, with its last
 * payment, is `paid` and `payment_link.paid` queued in the same transaction).
 */
export async function linkRefusal(
  ctx: Context,
  tx: Tx,
  sessionId: string,
  order: Order,
): Promise<string | null> {
  const locked = await tx.paymentLinks.lockOfSession(sessionId);
  if (!locked) return null;
  const { link, visit } = locked;
  // An expired link still keeps what was approved in time: the session's own expiry (never later
  // than the link's) decided whether the attempt could start. A deactivated one keeps nothing.
  if (link.state === 'deactivated') {
    return `payment link ${link.id} was deactivated before the bank approved ${order.clientOrderId}`;
  }
  if (link.payments >= paymentCap(link)) {
    return `payment link ${link.id} took its ${paymentCap(link)} payment(s) before the bank approved ${order.clientOrderId}`;
  }
  const after = await tx.paymentLinks.recordPayment(link, visit, order.id);
  if (after.state === 'paid') {
    const payments = await tx.paymentLinks.paidVisits(link.id);
    await enqueueEvent(
      ctx,
      'payment_link.paid',
      { paymentLink: await paymentLinkView(ctx, after, payments) },
      order.id,
      tx,
    );
  }
  return null;
}
