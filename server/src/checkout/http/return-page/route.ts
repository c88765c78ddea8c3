/**
 * `POST /return/{ref}`: each order's `redirect_url`, and the 3DS Method notification URL inside
 * its threeDSMethodData. It tells apart what arrives by its fields:
 *   threeDSMethodData            -> the 3DS Method finished (nothing to upload; the widget reports Y)
 *   cres                         -> 3DS 2 challenge result: upload it
 *   PaRes (+ MD)                 -> 3DS 1.0.2 result: upload it
 *   status, orderid, control ... -> the gateway's final redirect: verify `control`, then ask the
 *                                   gateway the order's status and apply that (a hint, never proof)
 *   nothing, from a gateway page -> the shopper is back from the gateway's `redirect`/`html` page:
 *                                   that page is over, ask the status once (gateway-return.ts)
 * and answers the tiny page of page.ts, always: this answer lands in the shopper's frame (or
 * page), where JSON would strand the widget. A cres or PaRes whose upload failed still gets the
 * page (challenge-complete); the order carries on by its status (three-ds/three-ds.ts). Replays,
 * unknown refs, unreadable bodies and finished orders change nothing and say so.
 */
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { ReturnMessage } from '../../../../../contract/api-types.js';
import { verifyControl } from '../../../signing/index.js';
import type { Order } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { isPending } from '../../following/follow.js';
import { wakeOnHint } from '../../following/gateway-hint.js';
import { backFromGatewayPage, leaveGatewayPage } from '../../following/gateway-return.js';
import { submitChallengeAnswer } from '../../three-ds/three-ds.js';
import { type PageWordKey, pageLanguage } from '../page-words/index.js';
import { RETURN_PAGE_CSP, renderReturnPage } from './page.js';

const REF = /^[A-Za-z0-9_-]{16,100}$/;

/** A 4xx the body parser reports (too large, unreadable, unknown charset), else undefined. */
function clientErrorStatus(error: unknown): number | undefined {
  const e = error as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : e?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

function pick(body: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = body[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

export function returnRouter(ctx: Context): Router {
  const router = Router();
  // PaRes may be 10 kB of base64; nothing legitimate comes near 64 kB.
  router.use(express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 50 }));

  const frameAncestors = ["'self'", ...ctx.config.allowedOrigins].join(' ');
  const send = (
    res: Response,
    status: number,
    order: Order | null,
    type: ReturnMessage['type'],
    text: PageWordKey,
    returnUrl: string | null,
  ) => {
    // In the shopper's language: the bank's post and a reload come from their browser.
    const language = pageLanguage(res.req.get('accept-language'));
    res.removeHeader('X-Frame-Options');
    res.vary('Accept-Language');
    res.set('Content-Security-Policy', `${RETURN_PAGE_CSP}; frame-ancestors ${frameAncestors}`);
    res.set('Cache-Control', 'no-store');
    res
      .status(status)
      .type('html')
      .send(
        renderReturnPage({
          message: { source: 'pay-checkout', type, orderId: order?.clientOrderId ?? '' },
          origin: order ? order.merchantOrigin : null,
          returnUrl,
          language,
          text,
        }),
      );
  };

  const answer = async (
    res: Response,
    body: Record<string, unknown>,
    order: Order,
    returnUrl: string | null,
  ) => {
    const finished = !isPending(order);
    const log = ctx.logger.child({ orderId: order.id, requestId: res.locals.requestId });

    const status = pick(body, 'status');
    const control = pick(body, 'control');
    if (status && control) {
      const orderid = pick(body, 'orderid');
      const clientOrderId = pick(body, 'client_orderid', 'merchant_order');
      const genuine =
        orderid !== undefined &&
        clientOrderId === order.clientOrderId &&
        (order.gatewayOrderId === null || order.gatewayOrderId === orderid) &&
        verifyControl(
          'final-notification',
          { status, orderid, client_orderid: clientOrderId },
          ctx.config.gateway.controlKey,
          control,
        );
      if (!genuine) {
        log.warn('final redirect with a bad control refused');
        send(res, 403, null, 'final', 'unverified', null);
        return;
      }
      // The shopper is back from the gateway's page: never send them there again.
      await leaveGatewayPage(ctx, order);
      // A hint, never proof (gateway-hint.ts): the gateway's status of the order decides.
      const now = (await wakeOnHint(ctx, { orderid, clientOrderId })) ?? order;
      send(res, 200, now, 'final', isPending(now) ? 'checking' : 'finishedReturn', returnUrl);
      return;
    }

    const methodData = pick(body, 'threeDSMethodData');
    if (methodData) {
      send(
        res,
        200,
        order,
        'method-complete',
        finished ? 'alreadyFinished' : 'methodDone',
        returnUrl,
      );
      return;
    }

    const cres = pick(body, 'cres', 'cRes', 'CRes');
    const paRes = pick(body, 'PaRes', 'paRes', 'pares');
    if (cres || paRes) {
      if (finished) {
        send(res, 200, order, 'final', 'alreadyFinishedUnchanged', returnUrl);
        return;
      }
      const outcome = await submitChallengeAnswer(
        ctx,
        order,
        cres
          ? { kind: 'cres', cres }
          : { kind: 'pares', paRes: paRes as string, md: pick(body, 'MD', 'md') },
      );
      log.info({ outcome }, 'challenge result received');
      // Whatever came of the upload the frame is done: the widget follows the order, whose
      // status says what is next (a lost answer included: the backend asks the gateway).
      send(res, 200, order, 'challenge-complete', `challenge.${outcome}`, returnUrl);
      return;
    }

    // Back from the gateway's page with nothing to verify (the spec names no fields for the way
    // back): the page is over, and the gateway's status, asked now, decides.
    const back = await backFromGatewayPage(ctx, order);
    if (back) {
      send(res, 200, back, 'final', isPending(back) ? 'checking' : 'finishedReturn', returnUrl);
      return;
    }

    // A bare GET (e.g. the shopper reloads the page): report where the order stands.
    send(
      res,
      finished ? 200 : 400,
      order,
      'final',
      finished ? 'finished' : 'nothingToDo',
      returnUrl,
    );
  };

  /** What the post reports to the widget, told by its fields (before anything can fail). */
  const kindOf = (body: Record<string, unknown>): ReturnMessage['type'] =>
    pick(body, 'threeDSMethodData')
      ? 'method-complete'
      : pick(body, 'cres', 'cRes', 'CRes', 'PaRes', 'paRes', 'pares')
        ? 'challenge-complete'
        : 'final';

  const handle = async (req: Request, res: Response) => {
    const ref = String(req.params.ref ?? '');
    const body: Record<string, unknown> =
      req.method === 'POST' && req.body && typeof req.body === 'object'
        ? (req.body as Record<string, unknown>)
        : {};
    let known: { order: Order; returnUrl: string | null } | null = null;
    try {
      const order = REF.test(ref) ? await ctx.store.orders.getByReturnRef(ref) : null;
      if (!order) {
        send(res, 404, null, 'final', 'unknownPayment', null);
        return;
      }
      const session = order.sessionId ? await ctx.store.sessions.get(order.sessionId) : null;
      known = { order, returnUrl: session?.returnUrl ?? null };
      await answer(res, body, known.order, known.returnUrl);
    } catch (error) {
      // Never JSON, never a bare 500 inside the shopper's frame: the page still reports, so the
      // widget follows the order by its status (which the backend keeps checking).
      ctx.logger.error(
        { err: error, orderId: known?.order.id, requestId: res.locals.requestId },
        'return page failed',
      );
      if (res.headersSent) return;
      send(
        res,
        503,
        known?.order ?? null,
        kindOf(body),
        'failedChecking',
        known?.returnUrl ?? null,
      );
    }
  };

  router.post('/:ref', handle);
  router.get('/:ref', handle);
  // A body the parser refused never reaches `handle`: answer the page's error variant here, not
  // the app's JSON error (this answer lands in the shopper's frame).
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = clientErrorStatus(error);
    if (status === undefined) {
      ctx.logger.error({ err: error, requestId: res.locals.requestId }, 'return page failed');
    }
    if (res.headersSent) return;
    send(
      res,
      status ?? 503,
      null,
      'final',
      status === undefined ? 'failedUnchanged' : 'unreadable',
      null,
    );
  });
  return router;
}
