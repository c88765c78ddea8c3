/**
 * What the browser must do next, decided from the gateway's status response (DESIGN.md, gateway
 * decisions). Pure: no I/O. The result (without the order view) is stored on the order, so any
 * instance can answer the widget after a restart or behind a load balancer.
 */

import type {
  ChallengeWindowSize,
  NextAction,
  OrderStatus,
} from '../../../../widget/src/api-types.js';
import { FINAL_ORDER_STATUSES } from '../../store/index.js';

/** The EMV window for the 3DS Method (spec Limits: 10 seconds, then threeDSCompInd = N). */
export const METHOD_TIMEOUT_MS = 10_000;
/** How soon the widget should ask again when there is nothing to do yet. */
export const WAIT_RETRY_MS = 1_000;

export function isFinalStatus(status: string | null | undefined): status is OrderStatus {
  return (
    status !== null &&
    status !== undefined &&
    (FINAL_ORDER_STATUSES as readonly string[]).includes(status)
  );
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
}

/** NextAction without its `order`, as stored on the order row. */
export type StoredAction = NextAction extends infer A
  ? A extends { order: unknown }
    ? Omit<A, 'order'>
    : never
  : never;

export interface MappingContext {
  /** The order's return endpoint: 3DS Method notification URL and 3DS 1.0.2 TermUrl. */
  returnUrl: string;
  /** The method result was already uploaded: the method step is over whatever the status says. */
  methodDone: boolean;
  /** What the widget asked for when it paid (used when the gateway does not name a size). */
  challengeWindowSize?: ChallengeWindowSize | undefined;
}

const WINDOW_SIZES: readonly string[] = ['01', '02', '03', '04', '05'];

/**
 * threeDSMethodData: base64url (no padding) of the JSON the ACS posts back to our return page
 * (gateway-facts 1.6, EMV 3DS Method).
 */
export function threeDsMethodData(threeDSServerTransID: string, notificationUrl: string): string {
  return Buffer.from(
    JSON.stringify({ threeDSServerTransID, threeDSMethodNotificationURL: notificationUrl }),
    'utf8',
  ).toString('base64url');
}

export function mapStatusToAction(fields: StatusFields, ctx: MappingContext): StoredAction {
  if (isFinalStatus(fields.status)) return { action: 'final' };
  if (fields.acsUrl && fields.creq) {
    const size = fields.challengeWindowSize ?? ctx.challengeWindowSize ?? '02';
    return {
      action: 'challenge',
      acsUrl: fields.acsUrl,
      creq: fields.creq,
      challengeWindowSize: (WINDOW_SIZES.includes(size) ? size : '02') as ChallengeWindowSize,
    };
  }
  if (fields.acsUrl && fields.pareq && fields.md !== undefined) {
    return {
      action: '3ds1',
      acsUrl: fields.acsUrl,
      paReq: fields.pareq,
      md: fields.md,
      termUrl: ctx.returnUrl,
    };
  }
  if (fields.threeDsServerTransId && !ctx.methodDone) {
    return fields.threeDsMethodUrl
      ? {
          action: 'method',
          methodUrl: fields.threeDsMethodUrl,
          methodData: threeDsMethodData(fields.threeDsServerTransId, ctx.returnUrl),
          timeoutMs: METHOD_TIMEOUT_MS,
        }
      : { action: 'method', timeoutMs: METHOD_TIMEOUT_MS };
  }
  if (fields.html) return { action: 'html', html: fields.html };
  if (fields.redirectTo) return { action: 'redirect', url: fields.redirectTo };
  return { action: 'wait', retryAfterMs: WAIT_RETRY_MS };
}

/**
 * Steps whose end reaches us through the browser (the method result, or the ACS posting to our
 * return page): while one is stored, polling the gateway tells us nothing. Gateway-driven pages
 * (`html`, `redirect`) end at the gateway, so those keep being polled.
 */
export function waitsOnBrowser(action: StoredAction | null | undefined): boolean {
  return action?.action === 'method' || action?.action === 'challenge' || action?.action === '3ds1';
}
