/**
 * `GET /pay/{linkId}`: the payment link's page. A first visit of an active link gets a checkout
 * session of its own and is sent (303) to its own address, `?visit=<token>`, so a reload, or the
 * return from a bank's page in redirect mode, shows the same session: one open session per visit,
 * no cookie. The page then runs `<pay-checkout>` on it, or says in the shopper's language (the
 * link's `locale`, else Accept-Language) that the link is paid, closed, expired or deactivated.
 * An id of no link is a 404 that names nothing; the visit token and the session's token are never
 * in a log (the request log has the path only) nor sent on (`Referrer-Policy: no-referrer`).
 */
import { type Request, type Response, Router } from 'express';
import { fromMinorUnits } from '../../../signing/index.js';
import { PAYMENT_LINK_ID, type PaymentLink } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { currentLink } from '../../payment-links/links.js';
import { paymentLinkUrl, visitUrl } from '../../payment-links/url.js';
import { findVisit, openVisit } from '../../payment-links/visits.js';
import { currentSession } from '../../payments/session-life.js';
import { signSessionToken } from '../../payments/session-token.js';
import { CSP_REPORTS_PATH } from '../csp-reports.js';
import { type PageLanguage, type PageWordKey, pageLanguage } from '../page-words/index.js';
import type { ElementScript } from './element-script.js';
import { type LinkPageBody, renderLinkPage } from './page.js';
import { PAGE_SCRIPT, PAGE_SCRIPT_INTEGRITY, PAGE_SCRIPT_PATH } from './page-script.js';

const VISIT_TOKEN = /^[A-Za-z0-9_-]{22}$/;

/** What a link that takes no payment says. */
function closedWords(link: PaymentLink): PageWordKey {
  if (link.state === 'expired') return 'link.expired';
  if (link.state === 'deactivated') return 'link.deactivated';
  return link.reusable ? 'link.closed' : 'link.paid';
}

export function paymentLinkPageRouter(
  ctx: Context,
  element: () => Promise<ElementScript | null>,
): Router {
  const router = Router({ strict: true, caseSensitive: true });
  // A violation on the page is reported as on any payment page of the merchant's (issue 37).
  const cspReports = `${ctx.config.publicUrl}${CSP_REPORTS_PATH}`;

  const send = (
    res: Response,
    status: number,
    language: PageLanguage,
    body: LinkPageBody,
    link?: PaymentLink,
  ) => {
    const { html, csp } = renderLinkPage({
      language,
      cspReports,
      look: ctx.config.paymentLinkPage ?? {},
      ...(link
        ? {
            sale: {
              description: link.description,
              amount: fromMinorUnits(link.amountMinor, link.currency),
              currency: link.currency,
            },
          }
        : {}),
      body,
    });
    res
      .status(status)
      .set({
        'Content-Security-Policy': csp,
        'Reporting-Endpoints': `csp="${cspReports}"`,
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      })
      .type('html')
      .send(html);
  };

  router.get(PAGE_SCRIPT_PATH, (_req, res) => {
    res.type('text/javascript').set('Cache-Control', 'public, max-age=300').send(PAGE_SCRIPT);
  });

  router.get('/:linkId', async (req: Request, res: Response) => {
    const id = String(req.params.linkId);
    const link = PAYMENT_LINK_ID.test(id) ? await currentLink(ctx, id) : null;
    if (!link) {
      send(res, 404, pageLanguage(req.get('accept-language')), {
        kind: 'say',
        text: 'link.notFound',
      });
      return;
    }
    const language = pageLanguage(link.locale ?? req.get('accept-language'));
    const say = (text: PageWordKey, then?: { href: string; text: PageWordKey }) =>
      send(res, 200, language, { kind: 'say', text, ...(then ? { link: then } : {}) }, link);
    const plainUrl = paymentLinkUrl(ctx.config.publicUrl, link.id);

    const token = req.query.visit;
    if (token === undefined) {
      if (link.state !== 'active') return say(closedWords(link));
      // A HEAD (a link preview) opens no session.
      if (req.method === 'HEAD') return say('pageTitle');
      const opened = await openVisit(ctx, link);
      if (!opened) return say(closedWords((await currentLink(ctx, link.id)) ?? link));
      res.redirect(303, visitUrl(ctx.config.publicUrl, link.id, opened.visit.token));
      return;
    }
    const visit =
      typeof token === 'string' && VISIT_TOKEN.test(token)
        ? await findVisit(ctx, link.id, token)
        : null;
    // A token of no visit of this link: a visit of its own, as the plain address gives.
    if (!visit) return res.redirect(303, plainUrl);
    const continueTo = link.returnUrl
      ? { href: link.returnUrl, text: 'link.continue' as const }
      : undefined;
    if (visit.visit.paidOrderId) return say('link.thanks', continueTo);
    const { session } = await currentSession(ctx, visit.session);
    // Paying goes on whatever the link says meanwhile: the approval is judged when it comes.
    const payable =
      session.state === 'paying' || (session.state === 'open' && link.state === 'active');
    if (payable) {
      const script = await element();
      if (!script) {
        res.status(503).type('text/plain').send('The element is not built: run `npm run build`.');
        return;
      }
      return send(
        res,
        200,
        language,
        {
          kind: 'pay',
          token: signSessionToken(ctx.config.jwtSecret, session.id, session.expiresAt),
          backend: ctx.config.publicUrl,
          element: script,
          pageScript: {
            src: `${plainUrl.slice(0, plainUrl.lastIndexOf('/'))}${PAGE_SCRIPT_PATH}`,
            integrity: PAGE_SCRIPT_INTEGRITY,
          },
          ...(continueTo ? { afterPaid: continueTo } : {}),
        },
        link,
      );
    }
    if (link.state !== 'active') return say(closedWords(link));
    // This visit ended unpaid (its attempts failed, or it expired): another visit may pay.
    return say('link.failed', { href: plainUrl, text: 'link.retry' });
  });

  return router;
}
