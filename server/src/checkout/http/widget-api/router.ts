/**
 * The widget API (contract/api-types.ts): read the session, pay, report the 3DS Method result,
 * follow the order, cancel, or go to the hosted form. Every route takes the session JWT; the
 * session it names is the only one it can touch.
 */
import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import type { NextAction, PayMode } from '../../../../../contract/api-types.js';
import { type CheckoutSession, type Order, UNPAID_ORDER_STATUSES } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { customerForPayment } from '../../customer/shopper.js';
import { HttpError, parseOr400 } from '../../errors.js';
import { bankPageShown, readFlow } from '../../following/flow-state.js';
import { followOrder, isPending } from '../../following/follow.js';
import type { StoredAction } from '../../following/next-action.js';
import { abandonAttempt, attemptsLeft } from '../../payments/attempts.js';
import type { BrowserRequestFacts } from '../../payments/browser-facts.js';
import { cardCharge, keepsCard } from '../../payments/card-charge.js';
import { hostedFormCharge } from '../../payments/hosted-form-charge.js';
import { startPayment } from '../../payments/pay.js';
import { savedCardCharge } from '../../payments/saved-card-charge.js';
import { bearerToken, verifySessionToken } from '../../payments/session-token.js';
import { launchUrlOf } from '../../payments/urls.js';
import { sessionView, withOrder } from '../../payments/views.js';
import { offeredCards } from '../../saved-cards/offered-cards.js';
import { submitMethodResult } from '../../three-ds/three-ds.js';
import { clientIp } from '../request-facts.js';
import { perIpLimit, windowLimit } from '../throttle.js';
import { allowedOrigin, widgetCors } from './cors.js';
import { extendRoute, sessionClock } from './extend.js';
import { buildWidgetOpenApi } from './openapi.js';
import {
  CancelSchema,
  HostedPayRequestSchema,
  MethodResultSchema,
  NextQuerySchema,
  parsePayRequest,
} from './schemas.js';

export interface WidgetLimits {
  /** Requests per minute per client IP. */
  perIp: number;
  /** Requests per minute per checkout session. */
  perSession: number;
}

export const DEFAULT_WIDGET_LIMITS: WidgetLimits = { perIp: 300, perSession: 120 };

function facts(req: Request, ctx: Context): BrowserRequestFacts {
  return {
    ip: clientIp(req),
    acceptHeader: (req.get('accept') ?? '*/*').slice(0, 2048),
    userAgent: (req.get('user-agent') ?? '').slice(0, 2048),
    // The backend's own pages (the payment link page) are a merchant page too.
    origin: allowedOrigin(req.get('origin'), [
      ...ctx.config.allowedOrigins,
      new URL(ctx.config.publicUrl).origin,
    ]),
  };
}

/**
 * `parse` for requests that announce a body (Transfer-Encoding or Content-Length, as body-parser
 * itself tells them apart); the reads (`GET /session`, `GET /next`) skip the parser's own checks.
 */
function jsonBody(parse: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const announced =
      req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
    if (announced) return parse(req, res, next);
    next();
  };
}

/** The merchant's page, from the Origin header; a 403 for any other page or none at all. */
function requireMerchantOrigin(f: BrowserRequestFacts): string {
  if (!f.origin)
    throw new HttpError(403, 'forbidden', 'The Origin header must name an allowed merchant page');
  return f.origin;
}

/** A 409 when the merchant did not allow `mode` for this session (`modes` at its creation). */
function assertModeAllowed(session: CheckoutSession, mode: PayMode): void {
  if (!session.modes.includes(mode)) {
    throw new HttpError(
      409,
      'conflict',
      `This checkout session does not allow ${mode} mode (allowed: ${session.modes.join(', ')})`,
    );
  }
}

/**
 * How long a finished payment stays readable by its token after the session expired: long enough
 * for a shopper back from a long challenge, or a slow bank page, to be shown the result.
 */
export const FINISHED_ORDER_GRACE_MS = 15 * 60_000;

/** However the order stands, a token is done this long after its expiry. */
export const AFTER_EXPIRY_MAX_MS = 2 * 60 * 60_000;

/**
 * A token past its session's expiry still follows a payment in flight (a 3-D Secure challenge may
 * outlast the session), and reads it for FINISHED_ORDER_GRACE_MS after it ended, within
 * AFTER_EXPIRY_MAX_MS of its expiry; it never starts a payment.
 */
function followableAfterExpiry(path: string, order: Order | null, now: number): boolean {
  if (!order || path === '/pay' || path === '/hosted') return false;
  return isPending(order) || now - order.updatedAt.getTime() < FINISHED_ORDER_GRACE_MS;
}

/** Session views count an open session past its expiry as expired without waiting for a job. */
function effectiveSession(session: CheckoutSession): CheckoutSession {
  return session.state === 'open' && session.expiresAt.getTime() <= Date.now()
    ? { ...session, state: 'expired' }
    : session;
}

/** The session's payment: its order once the shopper paid (an unpaid order is the merchant's). */
function paymentIn(order: Order | null): Order | null {
  return order && !UNPAID_ORDER_STATUSES.includes(order.status) ? order : null;
}

export function widgetRouter(ctx: Context, limits: WidgetLimits = DEFAULT_WIDGET_LIMITS): Router {
  const router = Router();
  // Public, before the token: a document holds no secret, and tools read it without a session.
  const document = buildWidgetOpenApi(ctx.config.publicUrl);
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.use(widgetCors(ctx.config.allowedOrigins));
  router.use(perIpLimit({ limit: limits.perIp, windowMs: 60_000 }));
  router.use(jsonBody(express.json({ limit: '8kb' })));

  // Authentication: the JWT names the session; the session must exist. Its order comes in the
  // same read: most routes need it.
  router.use(async (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    const token = bearerToken(req.get('authorization'));
    if (!token) throw new HttpError(401, 'unauthorized', 'Missing session token');
    const { sessionId, expiresAtMs } = verifySessionToken(ctx.config.jwtSecret, token);
    const found = await ctx.store.sessionReads.withOrder(sessionId);
    if (!found) throw new HttpError(401, 'unauthorized', 'Unknown checkout session');
    const payment = paymentIn(found.order);
    const now = Date.now();
    if (expiresAtMs <= now) {
      if (
        now - expiresAtMs > AFTER_EXPIRY_MAX_MS ||
        !followableAfterExpiry(req.path, payment, now)
      ) {
        throw new HttpError(401, 'session-expired', 'The checkout session has expired');
      }
    }
    res.locals.session = found.session;
    res.locals.payment = payment;
    next();
  });
  router.use(
    windowLimit({
      windowMs: 60_000,
      limit: limits.perSession,
      // A CORS preflight carries no token, so it has no session to count against.
      skip: (req) => req.method === 'OPTIONS',
      key: (_req, res) => `session:${(res.locals.session as CheckoutSession).id}`,
    }),
  );

  const sessionOf = (res: Response) => res.locals.session as CheckoutSession;
  /** The payment read with the session, as the request found it. */
  const paymentOf = (res: Response) => res.locals.payment as Order | null;
  const orderOf = (res: Response): Order => {
    const order = paymentOf(res);
    if (!order) throw new HttpError(409, 'conflict', 'Nothing has been paid in this session yet');
    return order;
  };
  /**
   * Where the session's payment stands, read afresh: the attempt `order` (or the one the session
   * kept meanwhile, approved first), and how many attempts the session still takes. An attempt
   * whose bank page the shopper left is over for the widget (`final`), though still followed.
   */
  const answer = async (res: Response, order: Order): Promise<NextAction> => {
    // The session as the request read it holds while its order is this one, still pending: only
    // an end, a left page or another attempt can have moved it since.
    const read = sessionOf(res);
    const settled = read.orderId !== order.id || !isPending(order) || order.abandonedAt !== null;
    const now = settled
      ? await ctx.store.sessionReads.withOrder(read.id)
      : { session: read, order };
    const current = paymentIn(now?.order ?? null) ?? order;
    const left = now ? attemptsLeft(effectiveSession(now.session), current) : 0;
    // Left, or cancelled before attempts (a session of an earlier version): over for the widget.
    const over = current.abandonedAt !== null || now?.session.state === 'cancelled';
    const next: StoredAction =
      over && isPending(current) ? { action: 'final' } : readFlow(current).next;
    return withOrder(next, current, launchUrlOf(ctx, current), left);
  };

  /** The session a payment in `mode` may start in: from the merchant's page, allowed, not expired. */
  const payable = (res: Response, f: BrowserRequestFacts, mode: PayMode): CheckoutSession => {
    requireMerchantOrigin(f);
    const session = effectiveSession(sessionOf(res));
    assertModeAllowed(session, mode);
    if (session.state === 'expired')
      throw new HttpError(410, 'session-expired', 'The checkout session has expired');
    return session;
  };

  router.get('/session', async (_req, res) => {
    const session = effectiveSession(sessionOf(res));
    const payment = paymentOf(res);
    res.json({
      ...sessionView(
        session,
        payment,
        attemptsLeft(session, payment),
        ctx.config.testMode === true,
        await offeredCards(ctx, session),
      ),
      // The time left and the extensions (extend.ts): the element warns of the session's end.
      ...sessionClock(session, payment),
    });
  });

  router.post('/extend', extendRoute(ctx));

  router.post('/pay', async (req, res) => {
    const body = parsePayRequest(req.body);
    const f = facts(req, ctx);
    const session = payable(res, f, 'direct');
    // Everything the shopper sent is checked before the claim: a 400 leaves the session open.
    const charge =
      'savedCard' in body
        ? await savedCardCharge(ctx, session, body, f)
        : cardCharge(ctx, body.card, body.browser, f, {
            saveCard: keepsCard(session, body.saveCard),
            customer: customerForPayment(session, body.shopper),
          });
    const order = await startPayment(ctx, session.id, charge, f);
    res.json(await answer(res, order));
  });

  router.post('/method-result', async (req, res) => {
    const body = parseOr400(MethodResultSchema, req.body);
    const order = orderOf(res);
    const f = facts(req, ctx);
    // The browser's own Accept header, from the launcher page's load, when it ran (launcher/route.ts).
    const acceptHeader = readFlow(order).navigationAccept ?? f.acceptHeader;
    const reported = await submitMethodResult(ctx, order, body.threeDSCompInd, body.browser, {
      ...f,
      acceptHeader,
    });
    res.json(await answer(res, await followOrder(ctx, reported, 0)));
  });

  router.get('/next', async (req, res) => {
    const query = parseOr400(NextQuerySchema, req.query);
    const order = orderOf(res);
    const waitMs = Math.min(query.wait * 1000, ctx.timing.longPollMaxMs);
    // A shopper who closed the tab: stop waiting for the gateway when the client hangs up. An
    // attempt the shopper left is not waited on: the widget is done with it.
    const over = order.abandonedAt !== null || sessionOf(res).state === 'cancelled';
    const now = over ? order : await followOrder(ctx, order, waitMs, query.showing);
    if (res.destroyed) return;
    res.json(await answer(res, now));
  });

  router.post('/cancel', async (req, res) => {
    const body = parseOr400(CancelSchema, req.body);
    const session = sessionOf(res);
    const order = orderOf(res);
    // Leaving moves the session (another attempt, or none), not the order: the gateway decides
    // the attempt, and it is followed to its end (attempts.ts). Only a bank page may be left: a
    // sale still on its way (or worked on with no bank step) is followed, never set beside a new
    // one, so a session has at most one sale in flight at the gateway.
    if (isPending(order) && (session.state === 'paying' || session.state === 'open')) {
      if (!bankPageShown(order)) {
        throw new HttpError(
          409,
          'payment-in-flight',
          `Attempt ${order.attempt} is on its way to the gateway and showed no bank page: it cannot be left; follow it (GET /widget/next) to its answer`,
        );
      }
      const after = await abandonAttempt(ctx, session, order);
      ctx.logger.info(
        { sessionId: session.id, orderId: order.id, reason: body.reason, session: after.state },
        'the shopper left the bank page',
      );
    }
    res.json(await answer(res, (await ctx.store.orders.get(order.id)) ?? order));
  });

  router.post('/hosted', async (req, res) => {
    // An empty body (no shopper details) is the element's own when the session asks for none.
    const body = parseOr400(HostedPayRequestSchema, req.body ?? {});
    const f = facts(req, ctx);
    const session = payable(res, f, 'hosted');
    const customer = customerForPayment(session, body.shopper);
    const order = await startPayment(
      ctx,
      session.id,
      hostedFormCharge(ctx, session, f, customer),
      f,
    );
    res.json(await answer(res, order));
  });

  return router;
}
