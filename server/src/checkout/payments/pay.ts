/**
 * Paying a session: claim it (once: a double submit gets the same order back), send the one
 * gateway call that charges it, and answer the first next action. What is charged is a `Charge`:
 * a card typed in the form (card-charge.ts: a sale or preauth per the session's intent), a
 * saved card (saved-card-charge.ts: make-rebill), or the gateway's hosted form
 * (hosted-form-charge.ts: sale-form or preauth-form, whose page takes the card). Amount,
 * currency and intent come from the session the merchant created, and so does the customer,
 * completed only where the session asks the shopper (customer/shopper.ts); the browser brings the
 * card (or its handle), what the shopper typed of those groups, and its own fields. Card data
 * lives in the charge and the gateway call, nowhere else.
 *
 * A timeout or a dropped answer leaves the order `unknown`: the charge may have happened, so it is
 * never sent again; the follower and the reconciler ask the gateway by client_orderid instead.
 *
 * The charge's own answer may already name the shopper's 3DS step (the spec: "For 3DS the response
 * carries `redirect_url`"; the family also sends `html` or `redirect-to`): that gateway page is
 * the first step, and stays it while the statuses name none (next-action.ts, salePage).
 */
import type { BrowserInfo, ChallengeWindowSize } from '../../../../contract/api-types.js';
import type { GatewayResult } from '../../gateway/index.js';
import type { CheckoutSession, Order, PaymentOrderFields } from '../../store/index.js';
import { type Context, inScope } from '../context.js';
import { HttpError } from '../errors.js';
import { finalizeOrder } from '../following/apply-status.js';
import { readFlow, WAIT, writeFlow } from '../following/flow-state.js';
import { followOrder } from '../following/follow.js';
import { salePageOf, statusFieldsOf } from '../following/next-action.js';
import { withoutCardRef } from '../saved-cards/card-details.js';
import { refusedForSure } from '../three-ds/refusal.js';
import { logRefusedUrl } from '../three-ds/refused-url.js';
import { attemptsExhausted } from './attempts.js';
import { isBankUrl } from './bank-urls.js';
import type { BrowserRequestFacts } from './browser-facts.js';
import { claimSession } from './session-life.js';
import { gatewayPageUrl, returnUrlOf } from './urls.js';

/** What a payment charges, and how. */
export interface Charge {
  /** What the attempt keeps of the card (never the card itself) and whether to save it. */
  order: Omit<PaymentOrderFields, 'merchantOrigin' | 'nextAction'>;
  /** The window size the widget asked for; gateways do not always name one (none: hosted form). */
  challengeWindowSize?: ChallengeWindowSize | undefined;
  /** The one gateway call that charges the claimed attempt `order` of `session`. */
  send(session: CheckoutSession, order: Order): Promise<GatewayResult>;
  /**
   * Whether one status call follows the gateway's answer: most flows know their first step at
   * once. The hosted form's answer is its first step, the gateway's own page where the shopper
   * types the card, and nothing is charged before that: it asks none.
   */
  followAtOnce: boolean;
}

/**
 * A widget request as the backend holds it once accepted: every EMV browser field present (the
 * element leaves out the two it knows, javaEnabled and javascriptEnabled; schemas.ts fills them).
 */
export type Accepted<T extends { browser: BrowserInfo }> = T & { browser: Required<BrowserInfo> };

/**
 * The EMV browser fields in the gateway's names (docs/gateway.md#request-fields, 3DS 2 browser
 * data).
 */
export function browserFields(
  browser: Required<BrowserInfo>,
  facts: BrowserRequestFacts,
): Record<string, string> {
  return {
    customer_browser_info: 'true',
    customer_browser_accept_header: facts.acceptHeader,
    customer_browser_user_agent: facts.userAgent,
    customer_browser_java_enabled: String(browser.javaEnabled),
    customer_browser_javascript_enabled: String(browser.javascriptEnabled),
    customer_browser_accept_language: browser.language,
    customer_browser_color_depth: String(browser.colorDepth),
    customer_browser_screen_height: String(browser.screenHeight),
    customer_browser_screen_width: String(browser.screenWidth),
    customer_browser_time_zone: String(browser.timezoneOffset),
    customer_browser_challenge_window_size: browser.challengeWindowSize,
  };
}

/** How a failed charge leaves the order: refused for sure, or possibly done (unknown). */
function outcomeOfFailure(error: unknown): {
  status: 'error' | 'unknown';
  reason: string;
  errorCode?: string;
} {
  if (refusedForSure(error)) {
    return error.code === 'gateway-validation'
      ? {
          status: 'error',
          reason: error.errorMessage ?? 'Refused by the gateway',
          errorCode: error.errorCode,
        }
      : { status: 'error', reason: 'The gateway refused our credentials' };
  }
  return { status: 'unknown', reason: 'The gateway did not answer; the outcome is being checked' };
}

export async function startPayment(
  ctx: Context,
  sessionId: string,
  charge: Charge,
  facts: BrowserRequestFacts,
): Promise<Order> {
  const claim = await claimSession(ctx, sessionId, {
    merchantOrigin: facts.origin,
    ...charge.order,
    // Remember the window size the widget asked for; gateways do not always name one.
    nextAction: writeFlow({
      next: WAIT,
      answered: [],
      challengeWindowSize: charge.challengeWindowSize,
    }),
  });
  if (!claim.won) {
    if (claim.reason === 'not-found')
      throw new HttpError(401, 'unauthorized', 'Unknown checkout session');
    if (claim.reason === 'expired')
      throw new HttpError(410, 'session-expired', 'The checkout session has expired');
    if (claim.reason === 'attempts-exhausted') throw attemptsExhausted(claim.session);
    // A double submit: the same order, whatever state it is in now.
    if (claim.order) return claim.order;
    throw new HttpError(409, 'conflict', `The checkout session is ${claim.session.state}`);
  }
  let order = claim.order;
  // The customer it carries, masked by the logger (personal-data.ts): enough to tell shoppers apart.
  ctx.logger.info(
    { orderId: order.id, attempt: order.attempt, customer: order.customer },
    'payment attempt sent',
  );

  try {
    const result = await inScope(ctx, { orderId: order.id }, () =>
      charge.send(claim.session, claim.order),
    );
    const sale = salePageOf(statusFieldsOf(result, result.status ?? 'processing'), {
      returnUrl: returnUrlOf(ctx, order),
      gatewayPageUrl: gatewayPageUrl(ctx.config.publicUrl, order.returnRef),
      methodDone: false,
      isBankUrl: (url: unknown) => isBankUrl(ctx.config, url),
    });
    // A page the browser must not follow: the order waits, and its status decides.
    if (sale.refused) logRefusedUrl(ctx, { orderId: order.id }, sale.refused);
    const flow = readFlow(order);
    const moved = await ctx.store.orders.transition(order.id, {
      from: ['new'],
      to: 'processing',
      patch: {
        ...(result.orderId ? { gatewayOrderId: result.orderId } : {}),
        ...(sale.page
          ? { nextAction: writeFlow({ ...flow, next: sale.page, salePage: sale.page }) }
          : {}),
      },
    });
    order = moved.order ?? order;
  } catch (error) {
    const outcome = outcomeOfFailure(error);
    ctx.logger.warn(
      {
        // A refused saved card's gateway message may name its reference: logged by its tag.
        err: order.savedCardRef ? withoutCardRef(ctx, error, order.savedCardRef) : error,
        orderId: order.id,
        outcome: outcome.status,
      },
      'payment request failed',
    );
    if (outcome.status === 'error') {
      return finalizeOrder(ctx, order, {
        status: 'error',
        reason: outcome.reason,
        errorCode: outcome.errorCode,
      });
    }
    const moved = await ctx.store.orders.transition(order.id, {
      from: ['new'],
      to: 'unknown',
      patch: { reason: outcome.reason },
    });
    return moved.order ?? order;
  }
  // One status call: most flows know their first step at once.
  return charge.followAtOnce ? followOrder(ctx, order, 0) : order;
}
