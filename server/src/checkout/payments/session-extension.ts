/**
 * More time for a checkout session, asked from the browser by a shopper the element warned of
 * the session's end (WCAG 2.2.1, Timing Adjustable: at least ten extensions, each by a simple
 * action). The merchant's `expiresInMinutes` is the session's first life; an extension adds
 * EXTENSION_MS to it, never past LONGEST_LIFE_MS after its creation, at most MAX_EXTENSIONS
 * times, only while the session is open and no payment's outcome is pending. A refusal changes
 * nothing. The session token expires with the session, so the caller signs a new one.
 */
import type { CheckoutSession, Order } from '../../store/index.js';
import type { Context } from '../context.js';
import { HttpError } from '../errors.js';
import { isPending } from '../following/follow.js';

/** What one extension adds to the session's expiry. */
export const EXTENSION_MS = 15 * 60_000;
/** WCAG 2.2.1 asks for at least ten. */
export const MAX_EXTENSIONS = 10;
/** No session lives longer than this after its creation, extended or not: the longest the merchant may ask (1440 minutes). */
export const LONGEST_LIFE_MS = 24 * 60 * 60_000;

/** The expiry one more extension would give (never past the session's longest life). */
function extendedExpiry(session: CheckoutSession): number {
  return Math.min(
    session.expiresAt.getTime() + EXTENSION_MS,
    session.createdAt.getTime() + LONGEST_LIFE_MS,
  );
}

/**
 * How many more extensions the session takes now: 0 for a session not open, or whose payment's
 * outcome is pending (an attempt whose bank page was left is still followed).
 */
export function extensionsLeft(session: CheckoutSession, payment: Order | null = null): number {
  if (session.state !== 'open' || (payment && isPending(payment))) return 0;
  if (extendedExpiry(session) <= session.expiresAt.getTime()) return 0;
  return Math.max(0, MAX_EXTENSIONS - session.extensions);
}

/** Why the session takes no extension whatever its expiry: ended, or a payment under way. */
function stateRefusal(
  session: CheckoutSession,
  payment: Order | null,
  now: number,
): HttpError | undefined {
  const ended = session.state === 'open' && session.expiresAt.getTime() <= now;
  if (session.state === 'expired' || ended)
    return new HttpError(410, 'session-expired', 'The checkout session has expired');
  if (session.state !== 'open' || (payment && isPending(payment)))
    return new HttpError(
      409,
      'conflict',
      `The checkout session is ${session.state === 'open' ? 'waiting on a payment' : session.state}: it takes no extension`,
    );
  return undefined;
}

/**
 * Extends `session` when its expiry is still `seen` (the one the shopper was warned of); when it
 * moved already (a second click, another tab), the session as it stands. Throws the refusal
 * otherwise: nothing is changed then.
 */
export async function extendSession(
  ctx: Context,
  session: CheckoutSession,
  payment: Order | null,
  seen: Date,
): Promise<CheckoutSession> {
  const refused = stateRefusal(session, payment, Date.now());
  if (refused) throw refused;
  if (session.expiresAt.getTime() !== seen.getTime()) return session;
  if (extensionsLeft(session) === 0)
    throw new HttpError(
      409,
      'conflict',
      `The checkout session had its ${session.extensions} extensions or reached its longest life`,
    );
  const extended = await ctx.store.sessions.extend(session.id, {
    from: session.expiresAt,
    to: new Date(extendedExpiry(session)),
    maxExtensions: MAX_EXTENSIONS,
  });
  if (extended) {
    ctx.logger.info(
      { sessionId: session.id, expiresAt: extended.expiresAt, extensions: extended.extensions },
      'checkout session extended by the shopper',
    );
    return extended;
  }
  // Another write moved it since this request read it: judged again on the row as it stands.
  const current = await ctx.store.sessions.get(session.id);
  if (!current) throw new HttpError(401, 'unauthorized', 'Unknown checkout session');
  const now = stateRefusal(current, payment, Date.now());
  if (now) throw now;
  return current;
}
