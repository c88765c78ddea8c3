/**
 * A payment link's life: the merchant creates it (active), its last payment makes it `paid`
 * (settle.ts), its expiry makes it `expired` (`payment_link.expired`, once, whoever notices
 * first: the sweeper or a read), the merchant may deactivate it. A link that takes no more
 * payment has its visits' open sessions ended by the sweeper, so no other tab starts a payment.
 */
import { randomBytes } from 'node:crypto';
import type { NewPaymentLink, PaymentLink } from '../../store/index.js';
import type { Context } from '../context.js';
import { expireSession } from '../payments/session-life.js';
import { enqueueEvent } from '../webhooks/webhooks.js';
import { paymentLinkView } from './views.js';

/** How many links (and sessions of closed links) one sweep ends; the next takes the rest. */
const SWEEP_BATCH = 100;

/** A link lives 7 days unless told otherwise, and at most 90. */
export const DEFAULT_LINK_DAYS = 7;
export const MAX_LINK_DAYS = 90;

/** What a merchant's link is made of, every field given (the API's defaults applied). */
export type CreatePaymentLink = Required<NewPaymentLink>;

/**
 * A prefix for the orders of a link that names none: `pl-` and 12 random letters. Letters only: a
 * run of digits in an order id may look like a card number, which is masked wherever it is stored.
 */
export function randomOrderIdPrefix(): string {
  const letters = [...randomBytes(12)].map((b) => String.fromCharCode(97 + (b % 26)));
  return `pl-${letters.join('')}`;
}

export function createPaymentLink(ctx: Context, input: CreatePaymentLink): Promise<PaymentLink> {
  return ctx.store.paymentLinks.create(input);
}

/** Ends the link at its expiry: answers it as it now stands; queues the event if this call won. */
async function expireLink(ctx: Context, id: string): Promise<PaymentLink | null> {
  return ctx.store.transaction(async (tx) => {
    const ended = await tx.paymentLinks.end(id, 'expired');
    if (!ended) return tx.paymentLinks.get(id);
    await enqueueEvent(
      ctx,
      'payment_link.expired',
      { paymentLink: await paymentLinkView(ctx, ended, await tx.paymentLinks.paidVisits(id)) },
      null,
      tx,
    );
    return ended;
  });
}

/** The link as it stands, a due expiry applied first (a read need not wait for the sweeper). */
export async function currentLink(ctx: Context, id: string): Promise<PaymentLink | null> {
  const link = await ctx.store.paymentLinks.get(id);
  if (link?.state === 'active' && link.expiresAt.getTime() <= Date.now()) {
    return expireLink(ctx, id);
  }
  return link;
}

/** The merchant ends an active link now; answers it as it stands (a link that ended stays so). */
export async function deactivateLink(ctx: Context, id: string): Promise<PaymentLink | null> {
  const current = await currentLink(ctx, id);
  if (current?.state !== 'active') return current;
  const ended =
    (await ctx.store.paymentLinks.end(id, 'deactivated')) ?? (await currentLink(ctx, id));
  await closeVisits(ctx);
  return ended;
}

/** Ends open sessions of links that take no more payment; answers how many it looked at. */
async function closeVisits(ctx: Context): Promise<number> {
  const open = await ctx.store.paymentLinks.openSessionsOfClosedLinks(SWEEP_BATCH);
  for (const sessionId of open) {
    if (ctx.closing()) break;
    await expireSession(ctx, sessionId, { dueOnly: false });
  }
  return open.length;
}

/** One sweep: links past their expiry, then the open visits of links that ended. */
export async function sweepPaymentLinks(ctx: Context): Promise<number> {
  const due = await ctx.store.paymentLinks.dueForExpiry(SWEEP_BATCH);
  for (const id of due) {
    if (ctx.closing()) break;
    await expireLink(ctx, id);
  }
  return due.length + (await closeVisits(ctx));
}
