/**
 * `GET /launch/{ref}/{key}`: the launcher page (page.ts) for the order's current browser step.
 * The backend reads what to post from the order's stored next action, found by the order's
 * unguessable return ref, so the page posts only what the gateway told us, never what a script
 * on some page supplies. `key` names the step the widget means (a hash of the stored action): a
 * step that is over, or another one, posts nothing, so a late or replayed load can never send a
 * CReq into the hidden Method frame or the same CReq twice from a stale page.
 *
 * The load is a real navigation of the shopper's browser, so its Accept header is the one EMV
 * wants as `browserAcceptHeader` (the widget's API calls carry a fetch's): it is kept on the order
 * for the 3DS Method result upload.
 */
import { type Request, type Response, Router } from 'express';
import { type Order, PENDING_ORDER_STATUSES } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { readFlow, writeFlow } from '../../following/flow-state.js';
import type { StoredAction } from '../../following/next-action.js';
import { bankSources, isBankUrl } from '../../payments/bank-urls.js';
import { launchKey } from '../../payments/urls.js';
import { pageLanguage } from '../page-words/index.js';
import { type LaunchForm, launchPageCsp, renderLaunchPage } from './page.js';

/** The return refs newReturnRef() makes are base64url; anything else is not worth a look-up. */
const REF = /^[A-Za-z0-9_-]{16,100}$/;
const KEY = /^[A-Za-z0-9_-]{22}$/;

/** The form the step posts, or undefined (the gateway's own page, or nothing to post). */
export function launchForm(action: StoredAction, returnUrl: string): LaunchForm | undefined {
  switch (action.action) {
    case 'method':
      return action.methodUrl
        ? { url: action.methodUrl, fields: { threeDSMethodData: action.methodData ?? '' } }
        : undefined;
    case 'challenge':
      // Lower-case `creq`: ACSes reject `CReq`.
      return {
        url: action.acsUrl,
        fields: {
          creq: action.creq,
          ...(action.threeDSSessionData ? { threeDSSessionData: action.threeDSSessionData } : {}),
        },
      };
    case '3ds1':
      // MD must be present even when empty: some ACSes reject the post without it.
      return {
        url: action.acsUrl,
        fields: { PaReq: action.paReq, MD: action.md, TermUrl: action.termUrl || returnUrl },
      };
    default:
      return undefined;
  }
}

/**
 * The page the step shows as it is, framed (or at the top level): our page serving the gateway's
 * html, or the gateway's own 3DS address (`redirect_url`, `redirect-to`).
 */
function pageUrlOf(action: StoredAction): string | undefined {
  return action.action === 'html' || action.action === 'redirect' ? action.url : undefined;
}

export function launcherRouter(ctx: Context): Router {
  const router = Router();
  // Framed by the merchant pages (the widget's frames) and by nothing else.
  const csp = `${launchPageCsp(bankSources(ctx.config))}; frame-ancestors ${["'self'", ...ctx.config.allowedOrigins].join(' ')}`;

  const send = (res: Response, status: number, html: string) => {
    res.removeHeader('X-Frame-Options');
    res.set('Content-Security-Policy', csp);
    res.set('Cache-Control', 'no-store');
    res.status(status).type('html').send(html);
  };

  /** Keeps the navigation's Accept header on the order (best effort: a lost race keeps the old). */
  const recordAccept = async (req: Request, order: Order) => {
    const accept = req.get('accept')?.slice(0, 2048);
    const flow = readFlow(order);
    if (!accept || flow.navigationAccept === accept) return;
    await ctx.store.orders.update(order.id, {
      version: order.version,
      patch: { nextAction: writeFlow({ ...flow, navigationAccept: accept }) },
    });
  };

  router.get('/:ref/:key', async (req, res) => {
    const ref = String(req.params.ref ?? '');
    const key = String(req.params.key ?? '');
    const order =
      REF.test(ref) && KEY.test(key) ? await ctx.store.orders.getByReturnRef(ref) : null;
    const session = order?.sessionId ? await ctx.store.sessions.get(order.sessionId) : null;
    const returnUrl = session?.returnUrl ?? null;
    const language = pageLanguage(req.get('accept-language'));
    res.vary('Accept-Language');
    const next = order ? readFlow(order).next : null;
    const current =
      order && next && PENDING_ORDER_STATUSES.includes(order.status) && launchKey(next) === key;
    if (!order || !next || !current) {
      // Nothing to post: framed, the widget follows the order by its status; at the top level
      // the page goes back to the shop in a tab that saw the step, and otherwise says the step is
      // over, with a link back to the shop (page.ts).
      send(res, order ? 410 : 404, renderLaunchPage({ key, returnUrl, language }));
      return;
    }
    const form = launchForm(next, `${ctx.config.publicUrl}/return/${order.returnRef}`);
    const pageUrl = pageUrlOf(next);
    // The stored URLs passed the same rule when they were stored; checked again at the door.
    if (
      (form && !isBankUrl(ctx.config, form.url)) ||
      (pageUrl && !isBankUrl(ctx.config, pageUrl))
    ) {
      send(res, 410, renderLaunchPage({ key, returnUrl, language }));
      return;
    }
    await recordAccept(req, order);
    send(
      res,
      200,
      renderLaunchPage({
        key,
        form,
        pageUrl,
        returnUrl,
        language,
      }),
    );
  });
  return router;
}
