/**
 * Checkout sessions: create one (the merchant fixes amount, currency, intent, and what it knows of
 * the customer and what the element asks for the rest: `collect`; its order exists from then on,
 * `awaiting-payment`), read one, end one early.
 */
import { toMinorUnits } from '../../../signing/index.js';
import {
  CardRefNotHeldError,
  type CheckoutSession,
  UniqueViolationError,
} from '../../../store/index.js';
import type { Context } from '../../context.js';
import { badRequest, HttpError, notFound } from '../../errors.js';
import { orderIdTaken } from '../../order-ids.js';
import { merchantOrderOf } from '../../payments/attempts.js';
import { currentSession, expireSession } from '../../payments/session-life.js';
import { signSessionToken } from '../../payments/session-token.js';
import { merchantSessionView } from '../../payments/views.js';
import { cardRefViewOf } from '../../saved-cards/order-card-ref.js';
import type { RouteTable } from './route-spec.js';
import {
  CheckoutSessionView,
  CreateSessionBody,
  EmptyBody,
  ErrorResponse,
  ORDER_ID_TAKEN,
  SESSION_PARAM,
  SessionCreated,
} from './schemas.js';

export function sessionRoutes(ctx: Context, routes: RouteTable): void {
  const load = async (sessionId: string): Promise<CheckoutSession> => {
    const session = await ctx.store.sessions.get(sessionId);
    if (!session) throw notFound(`Checkout session ${sessionId}`);
    return session;
  };
  /** The card references the session offers, most recent first (none to read for most). */
  const offeredIds = async (session: {
    id: string;
    offersSavedCards: boolean;
  }): Promise<string[]> =>
    session.offersSavedCards
      ? (await ctx.store.sessionCards.offered(session.id)).map((o) => o.cardRef.id)
      : [];

  routes.add(
    {
      method: 'post',
      path: '/checkout-sessions',
      operationId: 'createCheckoutSession',
      summary: 'Create a checkout session; its token goes to the <pay-checkout> element.',
      tag: 'Checkout sessions',
      body: CreateSessionBody,
      responses: {
        201: { description: 'Created', schema: SessionCreated },
        409: { description: ORDER_ID_TAKEN, schema: ErrorResponse },
      },
      // The widget token is no data to keep at rest under an Idempotency-Key: signed again.
      secretField: {
        name: 'token',
        remake: ({ id, expiresAt }) =>
          typeof id === 'string' && typeof expiresAt === 'string'
            ? signSessionToken(ctx.config.jwtSecret, id, new Date(expiresAt))
            : undefined,
      },
    },
    async ({ body }, _req, res) => {
      // The store claims orderId in the one namespace of every client_orderid (sessions, their
      // attempts, merchant operations) with the session's rows: the claim is the check.
      const expiresAt = new Date(Date.now() + body.expiresInMinutes * 60_000);
      let session: Awaited<ReturnType<typeof ctx.store.sessions.create>>;
      try {
        session = await ctx.store.sessions.create({
          clientOrderId: body.orderId,
          amountMinor: toMinorUnits(body.amount, body.currency),
          currency: body.currency,
          intent: body.intent,
          description: body.description,
          customer: { ...body.customer },
          collect: body.collect,
          countryHint: body.countryHint ?? null,
          returnUrl: body.returnUrl ?? null,
          metadata: body.metadata ?? {},
          modes: body.modes,
          maxAttempts: body.maxAttempts,
          saveCard: body.saveCard,
          savedCards: body.savedCards,
          savedCardCvc: body.savedCardCvc,
          expiresAt,
        });
      } catch (error) {
        const taken = orderIdTaken(error, body.orderId);
        if (taken) throw taken;
        if (error instanceof UniqueViolationError)
          throw new HttpError(
            409,
            'conflict',
            `orderId ${body.orderId} is already used`,
            'orderId',
          );
        if (error instanceof CardRefNotHeldError) {
          const field = `savedCards.${body.savedCards.indexOf(error.cardRefId)}`;
          throw badRequest(
            field,
            `${field}: card reference ${error.cardRefId} is not one this backend holds (made through it, and not forgotten)`,
          );
        }
        throw error;
      }
      res.status(201).json({
        id: session.id,
        orderId: session.clientOrderId,
        token: signSessionToken(ctx.config.jwtSecret, session.id, session.expiresAt),
        expiresAt: session.expiresAt.toISOString(),
      });
    },
  );

  routes.add(
    {
      method: 'get',
      path: '/checkout-sessions/:sessionId',
      operationId: 'getCheckoutSession',
      summary: 'Read a checkout session and its order (never its token).',
      tag: 'Checkout sessions',
      params: SESSION_PARAM,
      responses: {
        200: { description: 'The session', schema: CheckoutSessionView },
        404: { description: 'Not found', schema: ErrorResponse },
      },
    },
    async ({ params }, _req, res) => {
      const now = await currentSession(ctx, await load(params.sessionId ?? ''));
      const order = now.order ? await merchantOrderOf(ctx, now.order) : null;
      res.json(
        merchantSessionView(
          now.session,
          order?.order ?? null,
          order?.attempts,
          !ctx.config.testMode,
          {
            savedCards: await offeredIds(now.session),
            cardRef: order ? await cardRefViewOf(ctx, order.order) : null,
          },
        ),
      );
    },
  );

  routes.add(
    {
      method: 'post',
      path: '/checkout-sessions/:sessionId/expire',
      operationId: 'expireCheckoutSession',
      summary:
        "End an open session now: the widget takes no payment, its order becomes `expired` (webhook `order.expired`). An open session may hold an attempt the shopper left that is still pending at the bank: it is expired too, that attempt is followed to its end, and if the bank approves it, it is reversed in full (void of a preauth, return of a sale; webhook `payment.reversed`), never kept; if it fails, its `order.declined` (or `order.error`, `order.filtered`) is the order's last word. Expiring an expired session answers it as it is.",
      tag: 'Checkout sessions',
      params: SESSION_PARAM,
      body: EmptyBody,
      responses: {
        200: { description: 'The session, expired', schema: CheckoutSessionView },
        404: { description: 'Not found', schema: ErrorResponse },
        409: {
          description:
            'The session is `paying` (an attempt is under way: the message names it; expire once it ends), `completed` or `cancelled` (the message names the state)',
          schema: ErrorResponse,
        },
      },
    },
    async ({ params }, _req, res) => {
      const session = await load(params.sessionId ?? '');
      const write = await expireSession(ctx, session.id, { dueOnly: false });
      const now = write.session ?? session;
      if (now.state === 'paying' && write.order) {
        const attempt = write.order;
        throw new HttpError(
          409,
          'conflict',
          `Checkout session ${now.id} is paying: attempt ${attempt.attempt} (${attempt.clientOrderId}) is under way at the gateway; it can be expired once that attempt ends`,
        );
      }
      if (now.state !== 'expired') {
        throw new HttpError(
          409,
          'conflict',
          `Checkout session ${now.id} is ${now.state}; only an open session can be expired`,
        );
      }
      res.json(
        merchantSessionView(now, write.order, undefined, !ctx.config.testMode, {
          savedCards: await offeredIds(now),
        }),
      );
    },
  );
}
