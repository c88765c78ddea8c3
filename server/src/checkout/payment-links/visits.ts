/**
 * Visits of a payment link's page. Each visit is a checkout session of its own (its own order,
 * `<prefix>-<n>`, its own attempts and their cap), made by the same store call as a merchant's
 * session, with what the link fixed. The visit's random token goes into the page's URL, so a
 * reload (or the return from a 3-D Secure redirect, the session's `returnUrl`) finds the same
 * session: one open session per visit, and no cookie.
 */
import {
  type CheckoutSession,
  ClientOrderIdTakenError,
  newVisitToken,
  type PaymentLink,
  type PaymentLinkVisit,
} from '../../store/index.js';
import type { Context } from '../context.js';
import { visitUrl } from './url.js';
import { visitOrderId } from './views.js';

/** A visit's session lives this long, never past its link's expiry. */
export const VISIT_MINUTES = 30;

/** How many visit numbers a visit tries when `<prefix>-<n>` is someone else's order id. */
const ID_TRIES = 5;

export interface Visit {
  visit: PaymentLinkVisit;
  session: CheckoutSession;
}

/**
 * A new visit of an active link: its session, open. Null when the link takes no payment now
 * (ended, or past its expiry). The visit number is counted apart from the session, so an
 * `<prefix>-<n>` the merchant used elsewhere is skipped, never shared.
 */
export async function openVisit(ctx: Context, link: PaymentLink): Promise<Visit | null> {
  for (let i = 0; i < ID_TRIES; i++) {
    const n = await ctx.store.paymentLinks.nextVisit(link.id);
    if (n === null) return null;
    const token = newVisitToken();
    const expiresAt = new Date(
      Math.min(link.expiresAt.getTime(), Date.now() + VISIT_MINUTES * 60_000),
    );
    try {
      return await ctx.store.transaction(async (tx) => {
        const session = await tx.sessions.create({
          clientOrderId: visitOrderId(link, n),
          amountMinor: link.amountMinor,
          currency: link.currency,
          intent: link.intent,
          description: link.description,
          customer: link.customer,
          ...(link.collect ? { collect: link.collect } : {}),
          countryHint: link.countryHint,
          // After a redirect to the bank, the shopper comes back to this visit's page.
          returnUrl: visitUrl(ctx.config.publicUrl, link.id, token),
          metadata: { ...link.metadata, paymentLinkId: link.id },
          modes: ['direct'],
          expiresAt,
        });
        const visit = await tx.paymentLinks.addVisit({
          token,
          linkId: link.id,
          n,
          sessionId: session.id,
        });
        return { visit, session };
      });
    } catch (error) {
      if (!(error instanceof ClientOrderIdTakenError)) throw error;
    }
  }
  throw new Error(`payment link ${link.id}: ${ID_TRIES} visit order ids in a row were taken`);
}

/** The visit of `token` on this link, with its session; null for a token of no visit of it. */
export async function findVisit(
  ctx: Context,
  linkId: string,
  token: string,
): Promise<Visit | null> {
  const visit = await ctx.store.paymentLinks.visit(linkId, token);
  if (!visit) return null;
  const session = await ctx.store.sessions.get(visit.sessionId);
  return session ? { visit, session } : null;
}
