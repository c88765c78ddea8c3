/**
 * Gateway-driven 3DS (the spec: "For 3DS the response carries `redirect_url`"; the family's
 * simplified mode, docs/gateway.md#gateway-driven-3ds): the transaction waits on the gateway's own
 * one-time-code page (phase `form-challenge`, the page the hosted forms use too), and the sale and
 * status answers name that page and nothing else: as `redirect_url`, or as `html`, a form that
 * posts itself there. The page, its end and the final redirect are in form-pages.ts.
 */

import type { PayBody } from '../http/respond.js';
import type { Transaction } from '../model.js';
import { escapeHtml } from './html.js';

export type GatewayPageKind = 'redirect-url' | 'html';

/** The extra a transaction carries when its 3DS page is named in the API answers. */
export const GATEWAY_PAGE_EXTRA = 'gatewayPage';

/** Where the shopper types the code: the form token's bank page. */
export function bankPageUrl(baseUrl: string, formToken: string): string {
  return `${baseUrl}/form/${formToken}/bank`;
}

/** A gateway's `html`: a form that posts itself to the bank page (a button without scripts). */
export function bankPageHtml(url: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Verifying your payment</title></head><body><form method="post" action="${escapeHtml(url)}"><p>Taking you to your bank…</p><noscript><button type="submit">Continue</button></noscript></form><script>document.forms[0].submit();</script></body></html>`;
}

/** The fields naming the page in a sale or status answer; none once the page is over. */
export function gatewayPageFields(tx: Transaction, baseUrl: string): PayBody {
  const kind = tx.extra?.[GATEWAY_PAGE_EXTRA] as GatewayPageKind | undefined;
  if (!kind || tx.phase !== 'form-challenge' || !tx.formToken) return {};
  const url = bankPageUrl(baseUrl, tx.formToken);
  // The spec's spelling, with an underscore: the backend must fold it like any other.
  return kind === 'html' ? { html: bankPageHtml(url) } : { redirect_url: url };
}
