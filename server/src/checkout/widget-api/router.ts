/**
 * The widget API (widget/src/api-types.ts): read the session, pay, report the 3DS Method result,
 * follow the order, cancel, or go to the hosted form. Every route takes the session JWT; the
 * session it names is the only one it can touch.
 */
import express, { type Request, type Response, Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { NextAction } from '../../../../widget/src/api-types.js';
import { fromMinorUnits } from '../../signing/index.js';
import type { CheckoutSession, Order } from '../../store/index.js';
import { type Context, inScope } from '../context.js';
import { HttpError, parseOr400 } from '../errors.js';
import { returnUrlOf } from '../payments/apply-status.js';
import { readFlow, writeFlow } from '../payments/flow-state.js';
import { followOrder } from '../payments/follow.js';
import { type BrowserRequestFacts, callbackUrl, startPayment } from '../payments/pay.js';
import { submitMethodResult } from '../payments/three-ds.js';
import { sessionView, withOrder } from '../payments/views.js';
import { clientIp } from '../request-facts.js';
import { allowedOrigin, widgetCors } from './cors.js';
import { bearerToken, verifySessionToken } from './jwt.js';
import { CancelSchema, MethodResultSchema, NextQuerySchema, PayRequestSchema } from './schemas.js';

export interface WidgetLimits {
  /** Requests per minute per client IP. */
  perIp: number;
  /** Requests per minute per checkout session. */
  perSession: number;
}

export const DEFAULT_WIDGET_LIMITS: WidgetLimits = { perIp: 300, perSession: 120 };

function rateLimited(_req: Request, res: Response) {
  res.status(429).json({
    error: {
      code: 'rate-limited',
      message: 'Too many requests; slow down',
      requestId: res.locals.requestId,
    },
  });
}

function facts(req: Request, ctx: Context): BrowserRequestFacts {
  return {
    ip: clientIp(req),
    acceptHeader: (req.get('accept') ?? '*/*').slice(0, 2048),
    userAgent: (req.get('user-agent') ?? '').slice(0, 2048),
    origin: allowedOrigin(req.get('origin'), ctx.config.allowedOrigins),
  };
}

/** Session views count an open session past its expiry as expired without waiting for a job. */
function effectiveSession(session: CheckoutSession): CheckoutSession {
  return session.state === 'open' && session.expiresAt.getTime() <= Date.now()
    ? { ...session, state: 'expired' }
    : session;
}

export function widgetRouter(ctx: Context, limits: WidgetLimits = DEFAULT_WIDGET_LIMITS): Router {
  const router = Router();
  router.use(widgetCors(ctx.config.allowedOrigins));
  router.use(
    rateLimit({
      windowMs: 60_000,
      limit: limits.perIp,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      keyGenerator: (req) => `ip:${clientIp(req)}`,
      handler: rateLimited,
    }),
  );
  router.use(express.json({ limit: '8kb' }));

  // Authentication: the JWT names the session; the session must exist.
  router.use(async (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    const token = bearerToken(req.get('authorization'));
    if (!token) throw new HttpError(401, 'unauthorized', 'Missing session token');
    const sessionId = verifySessionToken(ctx.config.jwtSecret, token);
    const session = await ctx.store.sessions.get(sessionId);
    if (!session) throw new HttpError(401, 'unauthorized', 'Unknown checkout session');
    res.locals.session = session;
    next();
  });
  router.use(
    rateLimit({
      windowMs: 60_000,
      limit: limits.perSession,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      // A CORS preflight carries no token, so it has no session to count against.
      skip: (req) => req.method === 'OPTIONS',
      keyGenerator: (_req, res) => `session:${(res.locals.session as CheckoutSession).id}`,
      handler: rateLimited,
    }),
  );

  const sessionOf = (res: Response) => res.locals.session as CheckoutSession;
  const orderOf = async (session: CheckoutSession): Promise<Order> => {
    const order = session.orderId ? await ctx.store.orders.get(session.orderId) : null;
    if (!order) throw new HttpError(409, 'conflict', 'Nothing has been paid in this session yet');
    return order;
  };
  const answer = (order: Order): NextAction => withOrder(readFlow(order).next, order);

  router.get('/session', async (_req, res) => {
    const session = effectiveSession(sessionOf(res));
    const order = session.orderId ? await ctx.store.orders.get(session.orderId) : null;
    res.json(sessionView(session, order));
  });

  router.post('/pay', async (req, res) => {
    const body = parseOr400(PayRequestSchema, req.body);
    const f = facts(req, ctx);
    if (!f.origin)
      throw new HttpError(403, 'forbidden', 'The Origin header must name an allowed merchant page');
    const session = effectiveSession(sessionOf(res));
    if (session.state === 'expired')
      throw new HttpError(410, 'session-expired', 'The checkout session has expired');
    const order = await startPayment(ctx, session.id, body.card, body.browser, f);
    res.json(answer(order));
  });

  router.post('/method-result', async (req, res) => {
    const body = parseOr400(MethodResultSchema, req.body);
    const order = await orderOf(sessionOf(res));
    const reported = await submitMethodResult(
      ctx,
      order,
      body.threeDSCompInd,
      body.browser,
      facts(req, ctx),
    );
    res.json(answer(await followOrder(ctx, reported, 0)));
  });

  router.get('/next', async (req, res) => {
    const query = parseOr400(NextQuerySchema, req.query);
    const session = sessionOf(res);
    const order = await orderOf(session);
    const waitMs = Math.min(query.wait * 1000, ctx.timing.longPollMaxMs);
    // A shopper who closed the tab: stop waiting for the gateway when the client hangs up.
    const now = await followOrder(ctx, order, waitMs);
    if (res.destroyed) return;
    if (session.state === 'cancelled') {
      res.json({
        action: 'final',
        order: withOrder({ action: 'final' }, now).order,
      } satisfies NextAction);
      return;
    }
    res.json(answer(now));
  });

  router.post('/cancel', async (req, res) => {
    parseOr400(CancelSchema, req.body);
    const session = sessionOf(res);
    const order = await orderOf(session);
    // Cancelling moves the session, not the order: the order read above is the one to show.
    if (session.state === 'paying' || session.state === 'open') {
      await ctx.store.sessions.transition(session.id, {
        from: ['open', 'paying'],
        to: 'cancelled',
      });
      ctx.logger.info(
        { sessionId: session.id, orderId: order.id },
        'checkout cancelled by the shopper',
      );
    }
    res.json(withOrder({ action: 'final' }, order));
  });

  router.post('/hosted', async (req, res) => {
    const session = effectiveSession(sessionOf(res));
    if (session.state === 'expired')
      throw new HttpError(410, 'session-expired', 'The checkout session has expired');
    const f = facts(req, ctx);
    const claim = await ctx.store.sessions.claimForPayment(session.id, {
      merchantOrigin: f.origin,
    });
    if (!claim.won) {
      if (claim.order) {
        res.json(answer(claim.order));
        return;
      }
      throw new HttpError(
        409,
        'conflict',
        `The checkout session is ${claim.session?.state ?? 'gone'}`,
      );
    }
    const order = claim.order;
    const c = session.customer as Record<string, string | undefined>;
    const request = {
      client_orderid: order.clientOrderId,
      order_desc: session.description,
      amount: fromMinorUnits(session.amountMinor, session.currency),
      currency: session.currency,
      redirect_url: returnUrlOf(ctx, order),
      server_callback_url: callbackUrl(ctx),
      email: c.email ?? '',
      ...(c.firstName ? { first_name: c.firstName } : {}),
      ...(c.lastName ? { last_name: c.lastName } : {}),
      ...(c.address1 ? { address1: c.address1 } : {}),
      ...(c.city ? { city: c.city } : {}),
      ...(c.zipCode ? { zip_code: c.zipCode } : {}),
      ...(c.country ? { country: c.country } : {}),
      ...(c.phone ? { phone: c.phone } : {}),
      ipaddress: f.ip,
    };
    const result = await inScope(ctx, { orderId: order.id }, () =>
      session.intent === 'preauth'
        ? ctx.gateway.preauthForm(request)
        : ctx.gateway.saleForm(request),
    );
    const flow = readFlow(order);
    const moved = await ctx.store.orders.transition(order.id, {
      from: ['new'],
      to: 'processing',
      patch: {
        ...(result.orderId ? { gatewayOrderId: result.orderId } : {}),
        nextAction: writeFlow({ ...flow, next: { action: 'redirect', url: result.redirectUrl } }),
      },
    });
    res.json(answer(moved.order ?? order));
  });

  return router;
}
