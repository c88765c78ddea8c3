/**
 * `POST /widget/extend` (contract/api-types.ts `ExtendRequest`, `ExtendAnswer`): more time for
 * the open session the token names, asked by a shopper the element warned of its end; the rules
 * are payments/session-extension.ts. Mounted by the widget router after its authentication, which
 * left the session and its payment in `res.locals`.
 */
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { ExtendAnswer } from '../../../../../contract/api-types.js';
import type { CheckoutSession, Order } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { parseOr400 } from '../../errors.js';
import { extendSession, extensionsLeft } from '../../payments/session-extension.js';
import { signSessionToken } from '../../payments/session-token.js';

export const ExtendSchema = z
  .object({
    // An instant as JSON writes one (what SessionView.expiresAt says): a date alone is refused.
    expiresAt: z.iso.datetime({ offset: true }),
  })
  .strict();

/** What the element counts from: the expiry and the time left, measured here and now. */
export function sessionClock(
  session: CheckoutSession,
  payment: Order | null,
): { expiresInMs: number; extensionsLeft: number } {
  return {
    expiresInMs: Math.max(0, session.expiresAt.getTime() - Date.now()),
    extensionsLeft: extensionsLeft(session, payment),
  };
}

export function extendRoute(ctx: Context) {
  return async (req: Request, res: Response): Promise<void> => {
    const body = parseOr400(ExtendSchema, req.body ?? {});
    const payment = res.locals.payment as Order | null;
    const session = await extendSession(
      ctx,
      res.locals.session as CheckoutSession,
      payment,
      new Date(body.expiresAt),
    );
    const answer: ExtendAnswer = {
      token: signSessionToken(ctx.config.jwtSecret, session.id, session.expiresAt),
      expiresAt: session.expiresAt.toISOString(),
      ...sessionClock(session, payment),
    };
    res.json(answer);
  };
}
