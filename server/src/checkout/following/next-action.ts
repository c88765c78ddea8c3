/**
 * What the browser must do next, decided from the gateway's status response
 * (docs/gateway.md#merchant-side-3ds, docs/gateway.md#gateway-driven-3ds). Pure: no I/O. The result
 * (without the order view) is stored on the order, so any instance can answer the widget after a
 * restart or behind a load balancer.
 *
 * Nothing from the gateway runs as the merchant: a gateway URL the browser would follow must pass
 * ctx.isBankUrl (bank-urls.ts: https, or http to loopback while the gateway itself is there),
 * else the step is refused and the order waits for its
 * status; the gateway's `html` is never handed to the widget, only the address of our own page
 * that serves it under a strict CSP (checkout/gateway-page).
 */

import type {
  ChallengeWindowSize,
  NextAction,
  OrderStatus,
} from '../../../../contract/api-types.js';
import { isFinal } from '../../../../contract/order-status.js';
// The EMV window for the 3DS Method (spec Limits: 10 seconds, then threeDSCompInd = N), the same
// number the element times its Method frame by.
import { METHOD_TIMEOUT_MS } from '../../../../contract/three-ds.js';
import type { GatewayResult } from '../../gateway/index.js';
import { creqWindowSize, isWindowSize } from './creq.js';

/** How soon the widget should ask again when there is nothing to do yet. */
export const WAIT_RETRY_MS = 1_000;

export function isFinalStatus(status: string | null | undefined): status is OrderStatus {
  return status !== null && status !== undefined && isFinal(status);
}

/** The status-response fields that steer the browser, already read from the gateway's answer. */
export interface StatusFields {
  status: string;
  threeDsServerTransId?: string | undefined;
  threeDsMethodUrl?: string | undefined;
  acsUrl?: string | undefined;
  creq?: string | undefined;
  pareq?: string | undefined;
  md?: string | undefined;
  challengeWindowSize?: string | undefined;
  html?: string | undefined;
  redirectTo?: string | undefined;
  /** The spec's own 3DS field ("For 3DS the response carries `redirect_url`"). */
  redirectUrl?: string | undefined;
}

/** The fields that steer the browser in a gateway answer (status, or the sale's own). */
export function statusFieldsOf(result: GatewayResult, status: string): StatusFields {
  const t = result.threeDS ?? {};
  return {
    status,
    threeDsServerTransId: t.serverTransId,
    threeDsMethodUrl: t.methodUrl,
    acsUrl: t.acsUrl,
    creq: t.creq,
    pareq: t.pareq,
    md: t.md,
    challengeWindowSize: t.challengeWindowSize,
    html: t.html,
    redirectTo: t.redirectTo,
    redirectUrl: result.redirectUrl,
  };
}

/** NextAction without its `order` (and the launcher's address, added when answering the widget). */
type WidgetAction = NextAction extends infer A
  ? A extends { order: unknown }
    ? Omit<A, 'order' | 'launchUrl'>
    : never
  : never;

/**
 * As stored on the order row: the widget's action, except that `html` also keeps the gateway's
 * page, which only the gateway-page route serves (views.ts drops it from what the widget gets).
 */
export type StoredAction =
  | Exclude<WidgetAction, { action: 'html' }>
  | (Extract<WidgetAction, { action: 'html' }> & { html: string });

/** A gateway URL we refused to send the browser to, named by its status-response field. */
export interface RefusedUrl {
  field: 'three-ds-method-url' | 'acs-url' | 'redirect-to' | 'redirect-url';
  url: string;
}

export interface MappedStatus {
  next: StoredAction;
  /** Set when the step the status asked for was refused (`next` is then a wait). */
  refused?: RefusedUrl;
}

export interface MappingContext {
  /** The order's return endpoint: 3DS Method notification URL and 3DS 1.0.2 TermUrl. */
  returnUrl: string;
  /** Our page that serves the order's gateway `html` (gateway-page/route.ts). */
  gatewayPageUrl: string;
  /** The method result was already uploaded: the method step is over whatever the status says. */
  methodDone: boolean;
  /** Whether the gateway's URL may be followed (bank-urls.ts, isBankUrl, under the config). */
  isBankUrl: (url: unknown) => url is string;
  /** What the widget asked for when it paid (used when the gateway does not name a size). */
  challengeWindowSize?: ChallengeWindowSize | undefined;
  /**
   * The gateway page the sale (or preauth) answer named (salePageOf). The spec puts 3DS's
   * `redirect_url` in that answer and a status may never repeat it, so it stays the shopper's
   * step while a status names none (not for ever: see gateway-return.ts).
   */
  salePage?: StoredAction | undefined;
}

/**
 * threeDSMethodData: base64url (no padding) of the JSON the ACS posts back to our return page
 * (EMV 3DS Method; docs/gateway.md#merchant-side-3ds).
 */
export function threeDsMethodData(threeDSServerTransID: string, notificationUrl: string): string {
  return Buffer.from(
    JSON.stringify({ threeDSServerTransID, threeDSMethodNotificationURL: notificationUrl }),
    'utf8',
  ).toString('base64url');
}

/** The step is not taken: the order keeps waiting, and its status (polled on) decides. */
function refuse(field: RefusedUrl['field'], url: string): MappedStatus {
  return { next: { action: 'wait', retryAfterMs: WAIT_RETRY_MS }, refused: { field, url } };
}

export function mapStatusToAction(fields: StatusFields, ctx: MappingContext): MappedStatus {
  if (isFinalStatus(fields.status)) return { next: { action: 'final' } };
  if (fields.acsUrl && fields.creq) {
    if (!ctx.isBankUrl(fields.acsUrl)) return refuse('acs-url', fields.acsUrl);
    // The CReq's own size first: what the ACS was told, whatever the browser asked for at /pay.
    const named = creqWindowSize(fields.creq) ?? fields.challengeWindowSize;
    return {
      next: {
        action: 'challenge',
        acsUrl: fields.acsUrl,
        creq: fields.creq,
        challengeWindowSize: isWindowSize(named) ? named : (ctx.challengeWindowSize ?? '02'),
      },
    };
  }
  if (fields.acsUrl && fields.pareq) {
    if (!ctx.isBankUrl(fields.acsUrl)) return refuse('acs-url', fields.acsUrl);
    return {
      next: {
        action: '3ds1',
        acsUrl: fields.acsUrl,
        paReq: fields.pareq,
        // An empty or absent MD is a valid 1.0.2 flow: the form still carries an empty MD.
        md: fields.md ?? '',
        termUrl: ctx.returnUrl,
      },
    };
  }
  if (fields.threeDsServerTransId && !ctx.methodDone) {
    if (!fields.threeDsMethodUrl) {
      return { next: { action: 'method', timeoutMs: METHOD_TIMEOUT_MS } };
    }
    if (!ctx.isBankUrl(fields.threeDsMethodUrl)) {
      return refuse('three-ds-method-url', fields.threeDsMethodUrl);
    }
    return {
      next: {
        action: 'method',
        methodUrl: fields.threeDsMethodUrl,
        methodData: threeDsMethodData(fields.threeDsServerTransId, ctx.returnUrl),
        timeoutMs: METHOD_TIMEOUT_MS,
      },
    };
  }
  const page = gatewayPage(fields, ctx);
  if (page) return page;
  return { next: ctx.salePage ?? { action: 'wait', retryAfterMs: WAIT_RETRY_MS } };
}

/**
 * Gateway-driven 3DS (the spec's `redirect_url`, the family's `html` and `redirect-to`:
 * docs/gateway.md#gateway-driven-3ds): a page to show (`html`, which the family prefers when both
 * come), or an address to send the shopper to (`redirect-to`, then `redirect_url`). An address that
 * is our own return page is the gateway echoing the request's `redirect_url`, not a step: sending
 * the shopper there would only bring them back.
 */
function gatewayPage(fields: StatusFields, ctx: MappingContext): MappedStatus | undefined {
  if (fields.html) {
    return { next: { action: 'html', url: ctx.gatewayPageUrl, html: fields.html } };
  }
  for (const [field, url] of [
    ['redirect-to', fields.redirectTo],
    ['redirect-url', fields.redirectUrl],
  ] as const) {
    if (!url || url === ctx.returnUrl) continue;
    if (!ctx.isBankUrl(url)) return refuse(field, url);
    return { next: { action: 'redirect', url } };
  }
  return undefined;
}

/**
 * The gateway page a sale or preauth answer names, if any: only a page (`html`, `redirect-to`,
 * `redirect_url`), since every other step is the status's to name, and never from a final answer.
 */
export function salePageOf(
  fields: StatusFields,
  ctx: MappingContext,
): { page?: StoredAction; refused?: RefusedUrl } {
  if (isFinalStatus(fields.status)) return {};
  const mapped = gatewayPage(fields, ctx);
  if (!mapped) return {};
  return mapped.refused ? { refused: mapped.refused } : { page: mapped.next };
}

/**
 * Steps whose end reaches us through the browser (the method result, or the ACS posting to our
 * return page). The gateway may still end them on its own (an ACS timeout, a result it got by
 * another way), so the backend keeps asking it while one is open, at the slow
 * timing.browserStepPollMs (follow.ts).
 */
export function waitsOnBrowser(action: StoredAction | null | undefined): boolean {
  return action?.action === 'method' || action?.action === 'challenge' || action?.action === '3ds1';
}

/**
 * Gateway-driven pages (`html`, `redirect`): not browser steps, since they end at the gateway,
 * which the backend keeps asking (at the same slow pace: the shopper is on the page).
 */
export function isGatewayPage(action: StoredAction | null | undefined): boolean {
  return action?.action === 'redirect' || action?.action === 'html';
}
