/**
 * `GET /gateway-page/{ref}`: the page a gateway sends as `html` in a status answer (usually a form
 * that posts itself to the bank's ACS), served from the backend's own origin and never handed to
 * the widget. The widget frames this URL, so the gateway's markup runs in a frame of ours, under
 * the strict policy below, never with the merchant page's origin, cookies or DOM.
 *
 * Only whoever holds the order's return ref (256 bits of randomness, the same secret as its
 * /return page) can load it, and only while the order's next step is that page.
 */
import { Router } from 'express';
import { PENDING_ORDER_STATUSES } from '../../../store/index.js';
import type { Context } from '../../context.js';
import { readFlow } from '../../following/flow-state.js';
import { bankSources } from '../../payments/bank-urls.js';

/**
 * What a bank's page needs, and nothing else:
 * - `script-src 'unsafe-inline' https:`: the usual auto-submit is an inline script or `onload`
 *   handler; some gateways load a script of theirs over https.
 * - `form-action`: the post to the ACS, over https (or http to loopback while the gateway is
 *   there: the sandbox's ACS; bank-urls.ts, bankSources).
 * - `style-src`, `img-src`: a "continue" button and a logo stay readable.
 * - No `connect-src`, `frame-src`, fonts or media (default-src 'none'), no `<base>`.
 * - `sandbox allow-forms allow-scripts`: the page runs with an opaque origin, so it cannot read
 *   anything of the backend's origin, and its messages to the widget arrive from "null", which
 *   the widget ignores. No allow-top-navigation: inside the challenge frame the bank's page may
 *   navigate its own frame (the post to the ACS) but never the merchant's page; no popups, no
 *   same-origin. The ACS page the form leads to is a new document, not bound by this policy.
 */
const gatewayPageCsp = (banks: string) =>
  [
    "default-src 'none'",
    "script-src 'unsafe-inline' https:",
    "style-src 'unsafe-inline' https:",
    'img-src https: data:',
    `form-action ${banks}`,
    "base-uri 'none'",
    'sandbox allow-forms allow-scripts',
  ].join('; ');

/** The return refs newReturnRef() makes are base64url; anything else is not worth a look-up. */
const REF = /^[A-Za-z0-9_-]{16,100}$/;

export function gatewayPageRouter(ctx: Context): Router {
  const router = Router();
  // The page lives in the merchant page's challenge frame: the allowed merchant origins frame it.
  const csp = `${gatewayPageCsp(bankSources(ctx.config))}; frame-ancestors ${["'self'", ...ctx.config.allowedOrigins].join(' ')}`;

  router.get('/:ref', async (req, res) => {
    const ref = String(req.params.ref ?? '');
    const order = REF.test(ref) ? await ctx.store.orders.getByReturnRef(ref) : null;
    const next = order ? readFlow(order).next : null;
    res.set('Cache-Control', 'no-store');
    if (!order || !PENDING_ORDER_STATUSES.includes(order.status) || next?.action !== 'html') {
      res.status(404).type('text/plain').send('No page here.');
      return;
    }
    res.removeHeader('X-Frame-Options');
    res.set('Content-Security-Policy', csp);
    res.status(200).type('html').send(next.html);
  });
  return router;
}
